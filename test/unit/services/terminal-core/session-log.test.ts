import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  formatLogFileName,
  MAX_LOG_FILE_BYTES,
  MAX_LOG_FILES,
  SessionLog,
} from '../../../../electron/services/terminal-core/session-log';
import { ManualClock } from '../../../helpers/manual-clock';

const FIXED_TIME = new Date(2026, 10, 22, 9, 5, 7);

describe('SessionLog', () => {
  let logsDir: string;
  beforeEach(async () => {
    logsDir = join(await mkdtemp(join(tmpdir(), 'session-log-')), 'logs');
  });
  afterEach(async () => {
    await rm(join(logsDir, '..'), { recursive: true, force: true });
  });

  it('creates the log 0600 in a 0700 folder, tightening a folder an earlier version left 0755', async () => {
    await mkdir(logsDir, { mode: 0o755 });
    await chmod(logsDir, 0o755);
    const log = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    await log.close();
    expect((await stat(logsDir)).mode & 0o777).toBe(0o700);
    expect((await stat(log.path)).mode & 0o777).toBe(0o600);
  });

  it('names the file from the gateway, the local date and the local time', async () => {
    const log = await SessionLog.open({
      logsDir,
      gateway: 'kona-0042',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    await log.close();
    expect(basename(log.path)).toBe('kona-0042_2026-11-22_09-05-07.log');
  });

  it('writes every appended byte in order', async () => {
    const log = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    log.append(Buffer.from('root@gw:~# '));
    log.append(new Uint8Array([0x00, 0xff, 0x0d, 0x0a]));
    await log.close();
    expect(await readFile(log.path)).toEqual(
      Buffer.concat([Buffer.from('root@gw:~# '), Buffer.from([0, 255, 13, 10])]),
    );
  });

  it('keeps a flood of small appends whole and in order across its write batches', async () => {
    const log = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    const chunks = Array.from({ length: 700 }, (_, index) => Buffer.alloc(1_000, index % 251));
    for (const chunk of chunks) log.append(chunk);
    await log.close();
    expect((await readFile(log.path)).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('rotates at its size cap: the newest part under its own name, at most maxFiles parts kept', async () => {
    const log = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
      rotation: { maxFileBytes: 1_000, maxFiles: 3 },
    });
    const flood = Buffer.from(Array.from({ length: 10_500 }, (_, index) => index % 251));
    for (let offset = 0; offset < flood.length; offset += 700)
      log.append(flood.subarray(offset, offset + 700));
    await log.close();
    expect((await readdir(logsDir)).sort()).toEqual([
      'gw_2026-11-22_09-05-07.1.log',
      'gw_2026-11-22_09-05-07.2.log',
      'gw_2026-11-22_09-05-07.log',
    ]);
    const parts = await Promise.all(
      ['gw_2026-11-22_09-05-07.2.log', 'gw_2026-11-22_09-05-07.1.log', 'gw_2026-11-22_09-05-07.log'].map(
        (name) => readFile(join(logsDir, name)),
      ),
    );
    expect(parts.map((part) => part.length)).toEqual([1_000, 1_000, 500]);
    expect(Buffer.concat(parts).equals(flood.subarray(-2_500))).toBe(true);
    for (const name of await readdir(logsDir))
      expect((await stat(join(logsDir, name))).mode & 0o777).toBe(0o600);
  });

  it('rotates by default at MAX_LOG_FILE_BYTES, keeping MAX_LOG_FILES parts', async () => {
    const log = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    const piece = Buffer.alloc(1024 * 1024, 0x41);
    for (let count = 0; count < 40; count++) log.append(piece);
    await log.close();
    const names = await readdir(logsDir);
    expect(names).toHaveLength(Math.min(MAX_LOG_FILES, Math.ceil((40 * piece.length) / MAX_LOG_FILE_BYTES)));
    for (const name of names)
      expect((await stat(join(logsDir, name))).size).toBeLessThanOrEqual(MAX_LOG_FILE_BYTES);
    expect((await stat(log.path)).size).toBe((40 * piece.length) % MAX_LOG_FILE_BYTES || MAX_LOG_FILE_BYTES);
  });

  it('never overwrites an earlier log opened in the same second', async () => {
    const first = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    first.append(Buffer.from('first'));
    await first.close();
    const second = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    await second.close();
    expect(basename(second.path)).toBe('gw_2026-11-22_09-05-07-2.log');
    expect(await readFile(first.path, 'utf8')).toBe('first');
  });

  it('ignores appends after close', async () => {
    const log = await SessionLog.open({
      logsDir,
      gateway: 'gw',
      clock: new ManualClock(FIXED_TIME.getTime()),
    });
    await log.close();
    log.append(Buffer.from('late'));
    await log.close();
    expect(await readFile(log.path, 'utf8')).toBe('');
  });

  it('keeps path separators in a gateway name out of the file name', () => {
    expect(formatLogFileName('{gateway}_{date}.txt', '../etc/passwd', FIXED_TIME)).toBe(
      'etc-passwd_2026-11-22.txt',
    );
  });

  it('refuses a pattern that would leave the logs folder', () => {
    expect(() => formatLogFileName('../{gateway}.log', 'gw', FIXED_TIME)).toThrow(/may not contain/);
  });
});
