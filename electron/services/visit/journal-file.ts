import { createHash } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { canonicalJson } from '../../shared/visit/canonical-json';
import { t } from '../../shared/i18n';
import {
  GENESIS_HASH,
  JournalLineSchema,
  type JournalLine,
  type VisitEntry,
} from '../../shared/visit/journal-entry';
import { PRIVATE_FILE_MODE } from '../files/private-files';

/** Largest journal file read, in bytes: far beyond a day's visit, small enough that reading it cannot exhaust memory. */
export const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;

/** Error codes of a write that failed because the disk is full or failing (not a bug of ours). */
const DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS']);

/**
 * An append that did not reach the disk: nothing was recorded, so the action it records must not be done. The
 * message says so in the technician's words; `code` is the system's error code (`ENOSPC`, `EIO`, …).
 */
export class JournalWriteError extends Error {
  override readonly name = 'JournalWriteError';
  constructor(
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(
      DISK_CODES.has(code)
        ? t(code === 'EIO' ? 'errors:journalDiskError' : 'errors:journalDiskFull')
        : t('errors:journalNotWritten', { code }),
      options,
    );
  }
}

/** An append to a journal that is open read-only (its chain does not verify, or an earlier write could not be undone). */
export class JournalReadOnlyError extends Error {
  override readonly name = 'JournalReadOnlyError';
}

/** The SHA-256 (lowercase hex) of the canonical JSON of a line without its `hash` key: what `hash` must be. */
export function hashOfLine(line: Omit<JournalLine, 'hash'> | Record<string, unknown>): string {
  const { hash: _hash, ...content } = line as Record<string, unknown>;
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

/** The SHA-256 (lowercase hex) of bytes. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where a chain stops verifying, and why, in words that name the entry. */
export interface ChainBreak {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

/** What reading a journal's bytes found: the whole entries, a damaged tail, and where the chain broke. */
export interface JournalReading {
  lines: JournalLine[];
  /** Bytes after the last whole entry that are not an entry (a write cut by power loss); kept aside by the caller. */
  damagedTail?: Uint8Array;
  /** Offset where the damaged tail starts: the journal's good length. */
  goodLength: number;
  /** Set when a whole line does not verify: the journal is read-only. */
  broken?: ChainBreak;
}

/** The line as an entry of the chain, or why it is not one (JSON, shape, sequence, link, hash). */
function checkLine(
  text: string,
  expectedSeq: number,
  previousHash: string,
  visitId: string | undefined,
): { line: JournalLine } | { notEntry: string } | { broken: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { notEntry: 'is not JSON' };
  }
  const parsed = JournalLineSchema.safeParse(raw);
  if (!parsed.success) return { notEntry: 'is not a journal entry' };
  const line = parsed.data;
  const kind = typeof line.entry.kind === 'string' ? line.entry.kind : '?';
  if (hashOfLine(raw as Record<string, unknown>) !== line.hash)
    return { broken: `entry ${line.seq} (${kind}) was changed: its content does not match its hash` };
  if (line.seq > expectedSeq)
    return {
      broken: `entry ${expectedSeq} was removed${line.seq - expectedSeq > 1 ? ` (and ${line.seq - expectedSeq - 1} after it)` : ''}: entry ${line.seq} follows entry ${expectedSeq - 1}`,
    };
  if (line.seq < expectedSeq)
    return { broken: `an entry was added after entry ${expectedSeq - 1}: it repeats number ${line.seq}` };
  if (line.prev !== previousHash)
    return {
      broken: `entry ${line.seq} (${kind}) does not follow entry ${line.seq - 1}: one of them was changed`,
    };
  if (visitId !== undefined && line.visitId !== visitId)
    return { broken: `entry ${line.seq} (${kind}) belongs to another visit` };
  // The raw object is what was hashed: keep it (a later version's fields included), typed as a line.
  return { line: raw as JournalLine };
}

/**
 * Reads and verifies a journal's bytes. Lines are split on `\n`; every line must be an entry whose hash matches its
 * canonical JSON, whose `seq` counts from 0 and whose `prev` is the previous line's hash. Bytes after the last
 * whole entry that are no entry — a last line with no newline, or lines that are not JSON entries with nothing
 * verifying after them — are the damaged tail (a write cut short). Anything else that does not verify is a broken
 * chain, named by its entry. With `tolerateTail: false` (a bundle) a damaged tail is a break too.
 */
export function readJournalBytes(
  bytes: Uint8Array,
  options: { tolerateTail?: boolean } = {},
): JournalReading {
  const tolerateTail = options.tolerateTail ?? true;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lines: JournalLine[] = [];
  let offset = 0;
  let previousHash = GENESIS_HASH;
  let firstBad: { offset: number; line: number; reason: string } | undefined;
  for (let number = 1; offset < text.length; number += 1) {
    const end = text.indexOf(0x0a, offset);
    const whole = end !== -1;
    const lineText = text.subarray(offset, whole ? end : text.length).toString('utf8');
    const next = whole ? end + 1 : text.length;
    const checked = whole
      ? checkLine(lineText, lines.length, previousHash, lines[0]?.visitId)
      : { notEntry: 'was cut short (no end of line)' };
    if ('line' in checked && firstBad === undefined) {
      lines.push(checked.line);
      previousHash = checked.line.hash;
    } else if ('broken' in checked && firstBad === undefined) {
      return { lines, goodLength: offset, broken: { line: number, reason: checked.broken } };
    } else if ('notEntry' in checked) {
      firstBad ??= { offset, line: number, reason: checked.notEntry };
    } else {
      // A whole, verifying-looking entry after a damaged line: not a cut write but a damaged middle.
      return {
        lines,
        goodLength: firstBad!.offset,
        broken: {
          line: firstBad!.line,
          reason: `line ${firstBad!.line} ${firstBad!.reason}, yet entries follow it`,
        },
      };
    }
    offset = next;
  }
  if (firstBad === undefined) return { lines, goodLength: text.length };
  if (!tolerateTail)
    return {
      lines,
      goodLength: firstBad.offset,
      broken: { line: firstBad.line, reason: `line ${firstBad.line} ${firstBad.reason}` },
    };
  return { lines, goodLength: firstBad.offset, damagedTail: Uint8Array.from(text.subarray(firstBad.offset)) };
}

/** Reads at most MAX_JOURNAL_BYTES of a file (a device or a runaway file cannot make this read forever). */
export async function readBounded(path: string, limit = MAX_JOURNAL_BYTES): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size > limit) throw new Error(`${path} is ${size} bytes, more than the ${limit} a journal may hold`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(buffer, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/**
 * One visit's journal file, open for appending. Each `append` writes one line and flushes it to the disk
 * (`fdatasync`) before it resolves: once it has, the entry survives a crash or power loss. Appends are serialised.
 * A write that fails is undone (the file is cut back to its last whole entry) and throws JournalWriteError; when
 * even that fails, the journal turns read-only.
 */
export class JournalFile {
  private handle: FileHandle | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private length: number;
  private lastLine: JournalLine | undefined;
  private readOnly: string | undefined;

  constructor(
    readonly path: string,
    readonly visitId: string,
    existing: { lines: readonly JournalLine[]; length: number; readOnlyReason?: string },
  ) {
    this.length = existing.length;
    this.lastLine = existing.lines.at(-1);
    this.readOnly = existing.readOnlyReason;
  }

  /** Why appends are refused, or undefined while the journal takes them. */
  get readOnlyReason(): string | undefined {
    return this.readOnly;
  }

  /** The hash of the last entry (the chain's head), GENESIS_HASH while empty. */
  get head(): string {
    return this.lastLine?.hash ?? GENESIS_HASH;
  }

  /** Entries in the file. */
  get count(): number {
    return this.lastLine === undefined ? 0 : this.lastLine.seq + 1;
  }

  /** Appends one entry at `at`; resolves with its line once it is on the disk. */
  append(entry: VisitEntry, at: number): Promise<JournalLine> {
    const run = this.queue.then(() => this.write(entry, at));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(entry: VisitEntry, at: number): Promise<JournalLine> {
    if (this.readOnly !== undefined) throw new JournalReadOnlyError(this.readOnly);
    const unsealed = {
      v: 1 as const,
      seq: this.count,
      at,
      visitId: this.visitId,
      prev: this.head,
      entry,
    };
    // Hashed as it will be read back: a value JSON writes differently from how it holds it (a Date, a toJSON)
    // would otherwise be hashed as one thing and stored as another.
    const plain = JSON.parse(JSON.stringify(unsealed)) as Omit<JournalLine, 'hash'>;
    const line = { ...plain, hash: hashOfLine(plain) } as JournalLine;
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    try {
      this.handle ??= await open(this.path, 'a', PRIVATE_FILE_MODE);
      let written = 0;
      // A write may stop short of the whole line (a disk filling up): write the rest, or fail on the next call.
      while (written < bytes.length) {
        const result = await this.handle.write(bytes, written, bytes.length - written, null);
        written += result.bytesWritten;
      }
      await this.handle.datasync();
    } catch (error) {
      await this.undo();
      throw new JournalWriteError((error as NodeJS.ErrnoException).code ?? 'UNKNOWN', { cause: error });
    }
    this.length += bytes.length;
    this.lastLine = line;
    return line;
  }

  /** Cuts the file back to its last whole entry after a failed write; when that fails too, refuses appends. */
  private async undo(): Promise<void> {
    try {
      this.handle ??= await open(this.path, 'a', PRIVATE_FILE_MODE);
      await this.handle.truncate(this.length);
      await this.handle.datasync();
      if ((await stat(this.path)).size !== this.length) throw new Error('the journal did not shrink back');
    } catch {
      this.readOnly = t('errors:journalWriteNotUndone');
    }
  }

  /** Closes the file (pending appends finish first). */
  async close(): Promise<void> {
    await this.queue;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
