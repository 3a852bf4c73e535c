import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_CLOCK } from '../../../../electron/shared/clock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SerialPorts } from '../../../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../../../electron/services/serial/serial-session';
import { disconnectedByUser } from '../../../../electron/services/serial/serial-port-words';
import type { TerminalState } from '../../../../electron/services/terminal-core/terminal-session';
import { createPortInfo, FakeBinding } from './fake-binding';

const FIXED_TIME = new Date(2026, 10, 22, 10, 0, 0);

function waitForState(session: SerialSession, state: TerminalState): Promise<string | undefined> {
  return new Promise((resolve) => {
    const listener = (next: TerminalState, reason?: string) => {
      if (next !== state) return;
      session.off('state', listener);
      resolve(reason);
    };
    session.on('state', listener);
  });
}

function collectData(session: SerialSession) {
  const chunks: Buffer[] = [];
  session.on('data', (chunk) => chunks.push(Buffer.from(chunk)));
  return {
    get text() {
      return Buffer.concat(chunks).toString('latin1');
    },
    get byteCount() {
      return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    },
  };
}

describe('SerialPorts', () => {
  let binding: FakeBinding;
  let demoBinding: FakeBinding;
  let logsDir: string;
  let serialPorts: SerialPorts;

  beforeEach(async () => {
    binding = new FakeBinding();
    binding.ports = [
      createPortInfo({
        path: '/dev/ttyUSB0',
        manufacturer: 'FTDI',
        serialNumber: 'A10K1',
        vendorId: '0403',
        productId: '6001',
      }),
    ];
    demoBinding = new FakeBinding();
    demoBinding.ports = [createPortInfo({ path: 'demo:gateway-console', manufacturer: 'anything' })];
    logsDir = await mkdtemp(join(tmpdir(), 'serial-ports-'));
    serialPorts = new SerialPorts({
      binding,
      demoBinding,
      logsDir,
      clock: { ...SYSTEM_CLOCK, now: () => FIXED_TIME.getTime() },
      reconnect: { pollIntervalMs: 1, giveUpAfterMs: 2_000 },
      flow: { highWatermark: 1_000, lowWatermark: 100 },
    });
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await rm(logsDir, { recursive: true, force: true });
  });

  it('lists system ports with their identity, then the demo console', async () => {
    expect(await serialPorts.list()).toEqual({
      ports: [
        {
          path: '/dev/ttyUSB0',
          label: 'FTDI (/dev/ttyUSB0)',
          manufacturer: 'FTDI',
          serialNumber: 'A10K1',
          vendorId: '0403',
          productId: '6001',
          isDemo: false,
        },
        expect.objectContaining({
          path: 'demo:gateway-console',
          label: 'Demo gateway console',
          isDemo: true,
        }),
      ],
    });
  });

  it('still lists the demo console, and says why, when the system cannot list its ports', async () => {
    binding.list = () =>
      Promise.reject(
        Object.assign(new Error('spawn udevadm ENOENT'), {
          code: 'ENOENT',
          syscall: 'spawn udevadm',
          path: 'udevadm',
        }),
      );
    const { ports, listError } = await serialPorts.list();
    expect(ports).toEqual([expect.objectContaining({ label: 'Demo gateway console', isDemo: true })]);
    expect(listError).toBe(
      "The system's serial ports could not be listed (udevadm was not found; it comes with the udev package). " +
        "Type the port's path instead, such as /dev/ttyUSB0.",
    );
  });

  it('opens the port with the framing and flow control asked for', async () => {
    await serialPorts.open({
      path: '/dev/ttyUSB0',
      baudRate: 250_000,
      dataBits: 7,
      parity: 'even',
      stopBits: 2,
      flowControl: 'rts-cts',
    });
    expect(binding.lastPort.openOptions).toMatchObject({
      baudRate: 250_000,
      dataBits: 7,
      parity: 'even',
      stopBits: 2,
      rtscts: true,
      xon: false,
    });
  });

  it('opens the demo console through the demo binding', async () => {
    await serialPorts.open({ path: 'demo:gateway-console' });
    expect(demoBinding.opened).toHaveLength(1);
    expect(binding.opened).toHaveLength(0);
  });

  it('names a demo console session and its log after the gateway behind it, unless one is given', async () => {
    const ports = new SerialPorts({
      binding,
      demoBinding,
      demoGateway: 'roof-1',
      logsDir,
      clock: { ...SYSTEM_CLOCK, now: () => FIXED_TIME.getTime() },
    });
    try {
      const session = await ports.open({ path: 'demo:gateway-console' });
      expect(session.title).toBe('roof-1 · 115200 8N1');
      expect(session.logPath).toBe(join(logsDir, 'roof-1_2026-11-22_10-00-00.log'));
      await session.close();
      const named = await ports.open({ path: 'demo:gateway-console', gateway: 'kona-17' });
      expect(named.title).toBe('kona-17 · 115200 8N1');
    } finally {
      await ports.closeAll();
    }
  });

  it('explains a port that cannot be opened', async () => {
    await expect(serialPorts.open({ path: '/dev/ttyUSB9' })).rejects.toThrow(
      'Could not open /dev/ttyUSB9: no such port (is the cable plugged in?)',
    );
  });

  it('explains a driver that does not do mark parity', async () => {
    binding.openError = new Error('Invalid parity setting 4');
    await expect(serialPorts.open({ path: '/dev/ttyUSB0', parity: 'mark' })).rejects.toThrow(
      /does not support mark or space parity/,
    );
  });

  it('leaves DTR and RTS alone unless told', async () => {
    await serialPorts.open({ path: '/dev/ttyUSB0' });
    expect(binding.lastPort.setCalls).toEqual([]);
  });

  it('sets DTR and RTS on open when told', async () => {
    await serialPorts.open({ path: '/dev/ttyUSB0', dtr: false });
    expect(binding.lastPort.setCalls).toEqual([{ brk: false, dtr: false, rts: true }]);
  });

  it('emits received bytes and counts them', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const data = collectData(session);
    binding.lastPort.receive('U-Boot 2018.03\r\n');
    await expect.poll(() => data.text).toBe('U-Boot 2018.03\r\n');
    expect(session.bytesIn).toBe(16);
    expect(session.state).toBe('open');
  });

  it('holds bytes that arrive before anyone listens and hands them to the first listener', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    binding.lastPort.receive('early bytes');
    await expect.poll(() => session.bytesIn).toBe(11);
    const data = collectData(session);
    await expect.poll(() => data.text).toBe('early bytes');
  });

  it('sends Enter as the configured newline and counts bytes out', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', txNewline: 'crlf' });
    session.write('uname -a\r');
    await expect.poll(() => binding.lastPort.writtenText).toBe('uname -a\r\n');
    expect(session.bytesOut).toBe(10);
  });

  it('shows typed text locally when local echo is on', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', localEcho: true });
    const data = collectData(session);
    session.write('AT\r');
    expect(data.text).toBe('AT\r\n');
  });

  it('stamps received lines when timestamps are on', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', timestamps: true });
    const data = collectData(session);
    binding.lastPort.receive('ready\r\n');
    await expect.poll(() => data.text).toBe('[10:00:00.000] ready\r\n');
  });

  it('hands over the bytes as the port gave them while the raw (hex) view is on, and the display again after', async () => {
    const session = await serialPorts.open({
      path: '/dev/ttyUSB0',
      rxNewline: 'lf-to-crlf',
      timestamps: true,
      localEcho: true,
    });
    const data = collectData(session);
    session.setRawView(true);
    session.write('x');
    binding.lastPort.receive('ok\n\x00\xff');
    await expect.poll(() => data.text).toBe('ok\n\x00\xff');
    session.setRawView(false);
    binding.lastPort.receive('ready\n');
    await expect.poll(() => data.text).toBe('ok\n\x00\xff[10:00:00.000] ready\r\n');
  });

  it('never lets unacknowledged bytes pass the high watermark and loses none', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const port = binding.lastPort;
    const data = collectData(session);
    let maxUnacknowledged = 0;
    session.on('data', () => (maxUnacknowledged = Math.max(maxUnacknowledged, session.unacknowledged)));
    const flood = Buffer.alloc(10_000, 0x41);
    port.receive(flood);
    await expect.poll(() => data.byteCount).toBe(1_000);
    expect(session.isPaused).toBe(true);
    for (let round = 0; round < 1_000 && data.byteCount < flood.length; round += 1) {
      const before = data.byteCount;
      session.acknowledge(session.unacknowledged);
      await expect.poll(() => data.byteCount).toBeGreaterThan(before);
    }
    expect(data.byteCount).toBe(flood.length);
    expect(maxUnacknowledged).toBeLessThanOrEqual(1_000);
  });

  it('stops reading the port while paused', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const port = binding.lastPort;
    collectData(session);
    port.receive(Buffer.alloc(1_000, 0x42));
    await expect.poll(() => session.isPaused).toBe(true);
    await expect.poll(() => port.hasPendingRead).toBe(false);
    const readsWhilePaused = port.readsIssued;
    port.receive('more');
    expect(port.readsIssued).toBe(readsWhilePaused);
    session.acknowledge(950);
    await expect.poll(() => port.hasPendingRead).toBe(true);
  });

  it('reconnects by serial number when the adapter comes back on another path', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const reconnecting = waitForState(session, 'reconnecting');
    binding.ports = [];
    binding.lastPort.unplug();
    expect(await reconnecting).toMatch(
      /^Disconnected: the adapter at \/dev\/ttyUSB0 went away \(unplugged, or the gateway lost power; EIO/,
    );
    const reopened = waitForState(session, 'open');
    binding.ports = [
      createPortInfo({ path: '/dev/ttyUSB3', serialNumber: 'A10K1', vendorId: '0403', productId: '6001' }),
    ];
    expect(await reopened).toBe('Reconnected on /dev/ttyUSB3');
    expect(session.path).toBe('/dev/ttyUSB3');
    session.write('\r');
    await expect.poll(() => binding.lastPort.writtenText).toBe('\r');
  });

  it('gives a reconnected port the DTR and RTS the user set during the session', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    await session.setSignals({ dtr: false });
    const reconnecting = waitForState(session, 'reconnecting');
    binding.lastPort.unplug();
    await reconnecting;
    const reopened = waitForState(session, 'open');
    await reopened;
    expect(binding.lastPort.setCalls).toEqual([{ brk: false, dtr: false, rts: true }]);
    expect(session.signals).toEqual({ dtr: false, rts: true });
  });

  it('fails with the last reason when the adapter never comes back', async () => {
    const impatientPorts = new SerialPorts({
      binding,
      reconnect: { pollIntervalMs: 1, giveUpAfterMs: 50 },
    });
    const session = await impatientPorts.open({ path: '/dev/ttyUSB0' });
    const failed = waitForState(session, 'failed');
    binding.ports = [];
    binding.lastPort.unplug();
    expect(await failed).toMatch(/^Gave up reconnecting: Could not open \/dev\/ttyUSB0: no such port/);
  });

  it('fails at once on a disconnect when auto-reconnect is off', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', autoReconnect: false });
    const failed = waitForState(session, 'failed');
    binding.lastPort.unplug();
    expect(await failed).toMatch(/^Disconnected/);
  });

  it('reopens a failed session on request once the adapter is back', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', autoReconnect: false });
    const failed = waitForState(session, 'failed');
    binding.lastPort.unplug();
    await failed;
    await session.reopen();
    expect(session.state).toBe('open');
    session.write('\r');
    await expect.poll(() => binding.lastPort.writtenText).toBe('\r');
  });

  it('frees the port on disconnect, keeps the session without reconnecting, and connects again on request', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', gateway: 'kona-17' });
    const firstPort = binding.lastPort;
    const firstLog = session.logPath;
    const states: string[] = [];
    session.on('state', (state, reason) => states.push(`${state}: ${reason ?? ''}`));
    await session.disconnect();
    expect(firstPort.isOpen).toBe(false);
    expect(session.state).toBe('failed');
    expect(states).toEqual([`failed: ${disconnectedByUser()}`]);
    expect(binding.opened).toHaveLength(1);
    await session.reopen();
    expect(session.state).toBe('open');
    expect(binding.opened).toHaveLength(2);
    expect(binding.lastPort.isOpen).toBe(true);
    expect(session.logPath).not.toBe(firstLog);
  });

  it('refuses to reopen a session that has not failed', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    await expect(session.reopen()).rejects.toThrow(
      'Only a failed session can be reopened (this one is open)',
    );
  });

  it('frees the port and stops reconnecting on close', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const port = binding.lastPort;
    const closed = new Promise<void>((resolve) => session.on('closed', resolve));
    await session.close();
    await closed;
    expect(port.isOpen).toBe(false);
    expect(session.state).toBe('closed');
    expect(serialPorts.sessions).toEqual([]);
  });

  it('stops reconnecting when closed while reconnecting', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const reconnecting = waitForState(session, 'reconnecting');
    binding.ports = [];
    binding.lastPort.unplug();
    await reconnecting;
    binding.ports = [
      createPortInfo({ path: '/dev/ttyUSB0', serialNumber: 'A10K1', vendorId: '0403', productId: '6001' }),
    ];
    // close() resolves only after the reconnect loop has ended, so nothing can reopen the port afterwards.
    await session.close();
    expect(binding.opened.filter((port) => port.isOpen)).toEqual([]);
    expect(session.state).toBe('closed');
  });

  it('holds a break and restores the line keeping DTR and RTS', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', rts: false });
    await session.sendBreak(5);
    expect(binding.lastPort.setCalls.slice(1)).toEqual([
      { brk: true, dtr: true, rts: false },
      { brk: false, dtr: true, rts: false },
    ]);
  });

  it('pastes line by line with the configured newline', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', txNewline: 'lf' });
    await session.pasteLines('uci show network\r\nuci commit\npartial', 1);
    expect(binding.lastPort.written.map((chunk) => chunk.toString('latin1'))).toEqual([
      'uci show network\n',
      'uci commit\n',
      'partial',
    ]);
  });

  it('waits the paste delay after each line before sending the next', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    const written = () => binding.lastPort.written.map((chunk) => chunk.toString('latin1'));
    vi.useFakeTimers();
    try {
      const pasting = session.pasteLines('opkg update\nopkg list\nexit', 200);
      await vi.advanceTimersByTimeAsync(0);
      expect(written()).toEqual(['opkg update\r']);
      await vi.advanceTimersByTimeAsync(199);
      expect(written()).toEqual(['opkg update\r']);
      await vi.advanceTimersByTimeAsync(1);
      expect(written()).toEqual(['opkg update\r', 'opkg list\r']);
      await vi.advanceTimersByTimeAsync(200);
      await pasting;
      expect(written()).toEqual(['opkg update\r', 'opkg list\r', 'exit']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects a paste delay that is out of range', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0' });
    await expect(session.pasteLines('ls', -1)).rejects.toThrow(/cannot be negative/);
  });

  it('logs what the terminal showed, each line with its time to the millisecond, to a file named after the gateway', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', gateway: 'kona-17' });
    const data = collectData(session);
    binding.lastPort.receive('booting\r\nlogin: ');
    await expect.poll(() => data.text).toBe('booting\r\nlogin: ');
    await session.close();
    expect(session.logPath).toBe(join(logsDir, 'kona-17_2026-11-22_10-00-00.log'));
    expect(await readFile(session.logPath!, 'utf8')).toBe('[10:00:00.000] booting\r\n[10:00:00.000] login: ');
  });

  it('opens the port without a log, and says why, when the logs folder cannot be written', async () => {
    const unwritable = new SerialPorts({
      binding,
      logsDir: join(logsDir, 'kona-17.log', 'logs'),
      clock: { ...SYSTEM_CLOCK, now: () => FIXED_TIME.getTime() },
    });
    await writeFile(join(logsDir, 'kona-17.log'), 'a file where the folder should be');
    const session = await unwritable.open({ path: '/dev/ttyUSB0', gateway: 'kona-17' });
    try {
      expect(session.state).toBe('open');
      expect(session.logPath).toBeUndefined();
      expect(session.logProblem).toMatch(/^Not logged: no log file could be made in .*ENOTDIR/);
    } finally {
      await unwritable.closeAll();
    }
  });

  it('writes no log when logging is off', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', logging: false });
    expect(session.logPath).toBeUndefined();
  });

  it('titles the session with the gateway and framing', async () => {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', gateway: 'kona-17', baudRate: 9_600 });
    expect(session.title).toBe('kona-17 · 9600 8N1');
    expect(session.kind).toBe('serial');
  });
});
