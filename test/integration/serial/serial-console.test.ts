import { createHash } from 'node:crypto';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HIGH_WATERMARK_DEFAULT } from '../../../electron/services/terminal-core';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import { DemoConsoleBinding } from '../../../simulator/serial/demo-binding';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { readTerminal } from './terminal-reader';

const GATEWAY = {
  gatewayId: '647fdafffe00c0de',
  hostname: 'kona-roof',
  bspVersion: '7.1.2',
  rootPassword: 'Label-Pass-42',
};
const PROMPT = 'root@kona-roof:~# ';

/** Checks a flood's text against its own sha256 line and returns its length. */
function verifyFlood(output: string, command: string): number {
  const start = output.indexOf(`${command}\r\n`) + command.length + 2;
  const match = /sha256 ([0-9a-f]{64})\r\n/.exec(output.slice(start));
  expect(match).not.toBeNull();
  const flood = output.slice(start, start + match!.index);
  expect(createHash('sha256').update(flood, 'latin1').digest('hex')).toBe(match![1]);
  return flood.length;
}

async function logIn(session: SerialSession, terminal: ReturnType<typeof readTerminal>, password: string) {
  session.write('\r');
  await terminal.waitForText('kona-roof login: ');
  const from = terminal.byteCount;
  session.write('root\r');
  await terminal.waitForText('Password: ', from);
  session.write(`${password}\r`);
}

describe('the serial console on a pseudo-terminal', () => {
  let directory: string;
  let attached: AttachedSerialConsole;
  let serialPorts: SerialPorts;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'serial-console-'));
    attached = await attachSerialConsole({
      gateway: GATEWAY,
      linkPath: join(directory, 'console'),
      loginFailureDelayMs: 10,
    });
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await attached.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('logs in as root with the label password and runs uname -a', async () => {
    const session = await serialPorts.open({ path: attached.linkPath, gateway: 'kona-roof' });
    const terminal = readTerminal(session);
    await logIn(session, terminal, GATEWAY.rootPassword);
    const shellStart = (await terminal.waitForText(PROMPT)).indexOf(PROMPT);
    session.write('uname -a\r');
    const output = await terminal.waitForText(`GNU/Linux\r\n${PROMPT}`, shellStart + PROMPT.length);
    expect(output).toContain('Linux kona-roof 4.14.98-kona');
    expect(output).not.toContain(GATEWAY.rootPassword);
  });

  it('answers a wrong password with Login incorrect', async () => {
    const session = await serialPorts.open({ path: attached.linkPath });
    const terminal = readTerminal(session);
    await logIn(session, terminal, 'wrong');
    const output = await terminal.waitForText('Login incorrect\r\n');
    expect(output).not.toContain(PROMPT);
  });

  it('delivers flood 2 byte-exact with a matching sha256', async () => {
    const session = await serialPorts.open({ path: attached.linkPath, logging: false });
    const terminal = readTerminal(session);
    await logIn(session, terminal, GATEWAY.rootPassword);
    const from = (await terminal.waitForText(PROMPT)).length;
    session.write('flood 2\r');
    const output = await terminal.waitForText(`\r\n${PROMPT}`, from);
    expect(verifyFlood(output, 'flood 2')).toBe(2_000_000);
  });

  it('pauses the port at the high watermark during a flood and loses no byte', async () => {
    const session = await serialPorts.open({ path: attached.linkPath, logging: false });
    const terminal = readTerminal(session, { isAcknowledging: false });
    await logIn(session, terminal, GATEWAY.rootPassword);
    const from = (await terminal.waitForText(PROMPT)).length;
    let maxUnacknowledged = 0;
    session.on('data', () => (maxUnacknowledged = Math.max(maxUnacknowledged, session.unacknowledged)));
    session.write('flood 2\r');
    await terminal.waitForBytes(HIGH_WATERMARK_DEFAULT);
    expect(session.isPaused).toBe(true);
    expect(session.unacknowledged).toBe(HIGH_WATERMARK_DEFAULT);
    expect(terminal.byteCount).toBe(HIGH_WATERMARK_DEFAULT);
    terminal.startAcknowledging();
    const output = await terminal.waitForText(`\r\n${PROMPT}`, from);
    expect(verifyFlood(output, 'flood 2')).toBe(2_000_000);
    expect(maxUnacknowledged).toBeLessThanOrEqual(HIGH_WATERMARK_DEFAULT);
  });
});

describe('a serial open that fails', () => {
  let directory: string;
  let serialPorts: SerialPorts;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'serial-open-fails-'));
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await rm(directory, { recursive: true, force: true });
  });

  it('leaves no session log when the port does not exist', async () => {
    const path = join(directory, 'ttyUSB-missing');
    await expect(serialPorts.open({ path, gateway: 'kona-roof' })).rejects.toThrow(
      `Could not open ${path}: no such port (is the cable plugged in?)`,
    );
    expect(await readdir(join(directory, 'logs')).catch(() => [])).toEqual([]);
  });

  it('keeps the log of the session that opened, and makes none for a reconnect that fails', async () => {
    const attached = await attachSerialConsole({ gateway: GATEWAY, linkPath: join(directory, 'console') });
    const session = await serialPorts.open({ path: attached.linkPath, gateway: 'kona-roof' });
    const firstLog = session.logPath!.split('/').pop();
    await session.disconnect();
    await attached.close();
    await expect(session.reopen()).rejects.toThrow(/no such port/);
    expect(session.logPath).toBeUndefined();
    expect(await readdir(join(directory, 'logs'))).toEqual([firstLog]);
  });
});

describe('attachSerialConsole', () => {
  it('removes the pty link when closed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'serial-console-'));
    try {
      const console = await attachSerialConsole({ gateway: GATEWAY, linkPath: join(directory, 'console') });
      await expect(lstat(console.linkPath)).resolves.toBeTruthy();
      await console.close();
      await expect(lstat(console.linkPath)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('explains why it cannot start when socat is missing', async () => {
    await expect(
      attachSerialConsole({
        gateway: GATEWAY,
        linkPath: join(tmpdir(), 'never-made'),
        socatPath: '/nonexistent/socat',
      }),
    ).rejects.toThrow(/socat could not be started/);
  });
});

describe('the demo gateway console', () => {
  it('is listed, logs in and floods byte-exact through the serial service', async () => {
    const serialPorts = new SerialPorts({
      binding: { list: async () => [], open: async () => Promise.reject(new Error('no system ports here')) },
      demoBinding: new DemoConsoleBinding({ gateway: GATEWAY, loginFailureDelayMs: 10 }),
    });
    const demo = (await serialPorts.list()).ports.find((port) => port.isDemo);
    expect(demo?.label).toBe('Demo gateway console');
    const session = await serialPorts.open({ path: demo!.path, logging: false });
    try {
      const terminal = readTerminal(session);
      await terminal.waitForText('kona-roof login: ');
      session.write('root\r');
      await terminal.waitForText('Password: ');
      session.write(`${GATEWAY.rootPassword}\r`);
      const from = (await terminal.waitForText(PROMPT)).length;
      session.write('flood 2\r');
      const output = await terminal.waitForText(`\r\n${PROMPT}`, from);
      expect(verifyFlood(output, 'flood 2')).toBe(2_000_000);
    } finally {
      await serialPorts.closeAll();
    }
  });
});
