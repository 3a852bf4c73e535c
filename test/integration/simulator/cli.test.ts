import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnSimulator } from '../../helpers/simulator-process';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function runCli(flags: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', ...flags], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
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
      ]),
    );
  });
});
