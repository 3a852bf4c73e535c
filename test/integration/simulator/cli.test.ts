import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { spawnSimulator } from '../../helpers/simulator-process';
import { readTerminal } from '../serial/terminal-reader';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function runCli(flags: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', ...flags], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** The first line an SSH server sends on `port` (its identification string). */
function readBanner(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no SSH banner within 10 s')));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\n')) {
        socket.destroy();
        resolve(received.split('\r\n')[0]!);
      }
    });
    socket.once('error', reject);
  });
}

describe('simulator CLI', () => {
  it('prints the listening line and serves the demo accounts', async () => {
    const simulator = await spawnSimulator([
      '--host',
      '127.0.0.1',
      '--gateways',
      '4',
      '--devices',
      '8',
      '--seed',
      '1',
    ]);
    try {
      expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(simulator.output).toContain(`OAM simulator listening on ${simulator.url}`);
      const login = await fetch(`${simulator.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ username: 'provider@fieldkit.demo', password: 'demo-provider' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await simulator.stop();
    }
  });

  it('exits with status 2 and names the flag when a flag is bad', () => {
    const result = runCli(['--gateways', 'many']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--gateways must be a whole number');
  });

  it('refuses a host that is not loopback', () => {
    const result = runCli(['--host', '0.0.0.0']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('loopback');
  });

  it('prints the same fixture as JSON for the same seed', () => {
    const first = runCli(['--print-fixture', '--seed', '5', '--gateways', '3', '--devices', '4']);
    const second = runCli(['--print-fixture', '--seed', '5', '--gateways', '3', '--devices', '4']);
    const fixture = JSON.parse(first.stdout);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    expect(fixture.gateways).toHaveLength(3);
    expect(fixture.gateways[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        rootPassword: expect.any(String),
        bspVersion: expect.any(String),
      }),
    );
    expect(Object.keys(fixture)).toEqual(
      expect.arrayContaining([
        'accounts',
        'providerId',
        'customers',
        'gateways',
        'devices',
        'converters',
        'performance',
        'relay',
      ]),
    );
    expect(fixture.relay).toEqual({
      host: '127.0.0.1',
      port: null,
      username: 'relay',
      password: 'demo-relay',
    });
  });

  it('gives the relay port in the fixture when --relay-port names one', () => {
    const result = runCli(['--print-fixture', '--gateways', '2', '--relay-port', '40222']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).relay).toEqual(
      expect.objectContaining({ host: '127.0.0.1', port: 40222 }),
    );
  });

  it('starts the relay with --ssh on a free port and prints where it is and how to log in', async () => {
    const simulator = await spawnSimulator(['--gateways', '2', '--ssh', '--relay-port', '0']);
    try {
      await vi.waitFor(() => expect(simulator.output.join('\n')).toContain('SSH relay on'), {
        timeout: 10_000,
      });
      const printed = /SSH relay on 127\.0\.0\.1:(\d+) \(user relay, password demo-relay\)/.exec(
        simulator.output.join('\n'),
      );
      expect(printed).not.toBeNull();
      const port = Number(printed![1]);
      expect(port).toBeGreaterThan(0);
      const banner = await readBanner(port);
      expect(banner).toMatch(/^SSH-2\.0-/);
    } finally {
      await simulator.stop();
    }
  });

  it("links a gateway's serial console at the --serial path, behind its login prompt", async () => {
    const fixture = JSON.parse(runCli(['--print-fixture', '--gateways', '2']).stdout);
    const gateway = fixture.gateways[0];
    const directory = await mkdtemp(join(tmpdir(), 'cli-serial-'));
    const linkPath = join(directory, 'console');
    const simulator = await spawnSimulator(['--gateways', '2', '--serial', `${gateway.id}=${linkPath}`]);
    const serialPorts = new SerialPorts({});
    try {
      await vi.waitFor(
        () =>
          expect(simulator.output).toContain(
            `Serial console of ${gateway.id} on ${linkPath} (root / ${gateway.rootPassword})`,
          ),
        { timeout: 10_000 },
      );
      const session = await serialPorts.open({ path: linkPath, logging: false });
      const terminal = readTerminal(session);
      session.write('\r');
      await terminal.waitForText(`${gateway.name} login: `);
    } finally {
      await serialPorts.closeAll();
      await simulator.stop();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
