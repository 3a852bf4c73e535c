import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog, LOG_FILE } from '../../../electron/main/file-log';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-file-log-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Resolves once main.log holds `text` (the log writes in the background and never reports). */
async function waitForLine(path: string, text: string): Promise<string> {
  for (let attempt = 0; attempt < 1_000; attempt += 1) {
    const content = await readFile(path, 'utf8').catch(() => '');
    if (content.includes(text)) return content;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`main.log never held ${text}`);
}

describe('createFileLog', () => {
  it('writes main.log 0600 in a 0700 folder', async () => {
    const logsDir = join(folder, 'logs');
    createFileLog(logsDir).info('started');
    await waitForLine(join(logsDir, LOG_FILE), 'INFO started');
    expect((await stat(logsDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(logsDir, LOG_FILE))).mode & 0o777).toBe(0o600);
  });

  it('tightens a main.log and folder an earlier version left readable by everyone', async () => {
    const logsDir = join(folder, 'logs');
    await mkdir(logsDir, { mode: 0o755 });
    await chmod(logsDir, 0o755);
    await writeFile(join(logsDir, LOG_FILE), 'old line\n', { mode: 0o644 });
    await chmod(join(logsDir, LOG_FILE), 0o644);
    createFileLog(logsDir).error('it failed', new Error('boom'));
    const content = await waitForLine(join(logsDir, LOG_FILE), 'ERROR it failed: Error: boom');
    expect(content.startsWith('old line\n')).toBe(true);
    expect((await stat(logsDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(logsDir, LOG_FILE))).mode & 0o777).toBe(0o600);
  });
});
