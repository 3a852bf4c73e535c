import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Visits } from '../../../electron/services/visit';

const WRITER = join(import.meta.dirname, 'journal-writer.ts');

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-journal-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts the writer under `bash -c` (so a test can set a limit first) and reads its lines as they come. */
function startWriter(entries: number, noteLength: number, limit = '') {
  const child = spawn(
    'bash',
    [
      '-c',
      `${limit}exec "${process.execPath}" --import tsx "$0" "$1" "$2" "$3"`,
      WRITER,
      dataDir,
      String(entries),
      String(noteLength),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, exited };
}

async function reopen() {
  const visits = new Visits({ dataDir });
  const notices = await visits.load();
  return { visits, notices };
}

describe('the visit journal when its process dies or its disk fills', () => {
  it('keeps every acknowledged entry when the process is killed with SIGKILL mid-stream', async () => {
    const { child, lines, exited } = startWriter(100_000, 200);
    let acked = -1;
    for await (const line of lines) {
      acked = Number(line.split(' ')[1]);
      if (acked >= 300) break;
    }
    child.kill('SIGKILL');
    await exited;

    const { visits, notices } = await reopen();
    const current = visits.current();
    // The entry being written when the signal came may or may not have reached the disk whole; none acked is lost.
    expect(current?.site).toBe('Harbour warehouse roof');
    expect(current!.entryCount).toBeGreaterThanOrEqual(acked + 1);
    expect(notices.filter((notice) => notice.code !== 'VISIT_JOURNAL_DAMAGED_TAIL')).toEqual([]);
    const texts = visits
      .entries(current!.id)
      .flatMap((line) => (line.entry.kind === 'note' ? [line.entry] : []));
    expect(texts.slice(0, acked).map((entry) => Number(String(entry.text).split(' ')[0]))).toEqual(
      Array.from({ length: acked }, (_, index) => index),
    );
    await visits.shutdown();
  });

  it('refuses the append that does not fit on the disk, with a clear message, and loses nothing', async () => {
    // RLIMIT_FSIZE of 64 KiB: a write past it stops short, then fails with EFBIG, as on a full disk.
    const { lines, exited } = startWriter(1_000, 2_000, 'ulimit -f 64 && ');
    const output: string[] = [];
    for await (const line of lines) output.push(line);
    await exited;
    const refused = output.at(-1)!;
    const acked = output.filter((line) => line.startsWith('acked')).length;
    expect(refused).toBe(
      'refused JournalWriteError EFBIG: The visit journal could not be written (the disk is full), so this was not done: nothing may happen on a visit without being recorded. Free some disk space and try again.',
    );
    expect(acked).toBeGreaterThan(10);

    const { visits, notices } = await reopen();
    expect(notices).toEqual([]);
    const current = visits.current()!;
    // The visit-opened entry and every acknowledged note; the failed write left nothing behind.
    expect(current.entryCount).toBe(acked + 1);
    const journal = await readFile(visits.pathsOf(current.id).journal, 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
    await visits.append({ kind: 'note', text: 'after the disk was freed' });
    expect(visits.current()!.entryCount).toBe(acked + 2);
    await visits.shutdown();
  });
});
