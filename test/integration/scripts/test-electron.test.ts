import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let emptyDist: string;

beforeAll(async () => {
  emptyDist = await mkdtemp(join(tmpdir(), 'fieldkit-no-electron-'));
});

afterAll(async () => {
  await rm(emptyDist, { recursive: true, force: true });
});

/** Runs scripts/test-electron.mjs to its end; answers its exit status and what it printed. */
function runLauncher(environment: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'test-electron.mjs')], {
      cwd: ROOT,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('npm run test:electron without the Electron runtime', () => {
  it('says so in one line and exits with 2 (not run), neither 0 (passed) nor 1 (failed)', async () => {
    // Electron's own override of where its runtime lives, pointed at an empty folder: missing on every machine.
    const { status, output } = await runLauncher({ ...process.env, ELECTRON_OVERRIDE_DIST_PATH: emptyDist });
    expect(status).toBe(2);
    expect(output.trim().split('\n')).toEqual([
      'test:electron not run: Electron runtime not installed (`npx install-electron` fetches it into node_modules/electron/dist)',
    ]);
  });
});
