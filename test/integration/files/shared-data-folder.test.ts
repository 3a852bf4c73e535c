// `npm run host` pointed at a data folder other users may write to: it must not start, and must say why.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-shared-data-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Runs the host's command line on `dataDir` until it exits; resolves its status and what it wrote. */
function runHost(dataDir: string): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  // Without a session bus the keychain probe fails at once: the host runs session-only and touches no keyring.
  const { DBUS_SESSION_BUS_ADDRESS: _bus, ...environment } = process.env;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/host/cli.ts', '--port', '0', '--no-build', '--data-dir', dataDir],
    { cwd: ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout.push(line);
    // A host that started is the failure under test: stop it so the test ends and says what it printed.
    if (line.startsWith('Field Kit UI: ')) child.kill('SIGTERM');
  });
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a data folder other users may write to', () => {
  it('stops the browser host at start, saying why and what to do', async () => {
    const dataDir = join(folder, 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    await writeFile(join(dataDir, 'profiles.json'), '{"planted":true}');

    const { code, stdout, stderr } = await runHost(dataDir);

    expect(stdout).toEqual([]);
    expect(code).toBe(1);
    expect(stderr.join('\n')).toContain(
      `Field Kit will not use its data folder ${dataDir}: other users may write to it (mode 777)`,
    );
    expect(stderr.join('\n')).toContain(`chmod 700 "${dataDir}"`);
  });
});
