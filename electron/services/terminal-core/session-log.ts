import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from '../files/private-files';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/** The default log file name: gateway, local date and local time (`<gateway>_<YYYY-MM-DD>_<HH-mm-ss>.log`). */
export const SESSION_LOG_PATTERN_DEFAULT = '{gateway}_{date}_{time}.log';

const MAX_NAME_ATTEMPTS = 100;
/** Appended bytes are written together once this many are waiting… */
const WRITE_BATCH_BYTES = 256 * 1024;
/** …or this long after the first of them, whichever comes first (a flood is one write per batch, not per chunk). */
const WRITE_DELAY_MS = 250;

/** A session log's file rotates once it holds this many bytes (16 MiB)… */
export const MAX_LOG_FILE_BYTES = 16 * 1024 * 1024;
/** …and this many files are kept per log, the newest under the log's own name: 128 MiB at most. */
export const MAX_LOG_FILES = 8;

/** Where and how to open a session log. */
export interface SessionLogOptions {
  logsDir: string;
  gateway: string;
  /** The time in the file's name, and the timer of the write delay (default SYSTEM_CLOCK). */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** Tokens: `{gateway}`, `{date}` (YYYY-MM-DD), `{time}` (HH-mm-ss), `{timestamp}` (ms since the epoch). */
  pattern?: string;
  /** Size cap per file and files kept (defaults MAX_LOG_FILE_BYTES and MAX_LOG_FILES). */
  rotation?: { maxFileBytes?: number; maxFiles?: number };
}

/**
 * Writes a session log to `<logsDir>/<gateway>_<YYYY-MM-DD>_<HH-mm-ss>.log` (filename tokens).
 * The folder is 0700 (tightened if looser) and each file 0600: a log holds what the screen showed. Never
 * overwrites a file (a clash gets `-2`, `-3`… before the extension); a write failure stops the log and is
 * kept in `error`, it never throws into the terminal session.
 *
 * Rotation: a file holds at most `maxFileBytes` (MAX_LOG_FILE_BYTES); then it becomes `<name>.1.log` (an older
 * `.1` becomes `.2`, and so on) and `path` starts afresh, so `path` always holds the newest part and at most
 * `maxFiles` (MAX_LOG_FILES) files are kept, the oldest deleted. The bytes are split exactly at the cap: the
 * parts read oldest first are the session's last bytes, whole and in order.
 */
export class SessionLog {
  readonly path: string;
  #stream: WriteStream;
  #isClosed = false;
  #isClosing = false;
  #closed: Promise<void> | undefined;
  /** Bytes handed to the current file. */
  #fileBytes = 0;
  #rotating: Promise<void> | undefined;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  #error: Error | undefined;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #flushTimer: unknown;
  readonly #clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  #hasContent = false;

  private constructor(
    path: string,
    stream: WriteStream,
    clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
    rotation: SessionLogOptions['rotation'] = {},
  ) {
    this.path = path;
    this.#clock = clock;
    this.#stream = stream;
    this.#maxFileBytes = Math.max(1, rotation.maxFileBytes ?? MAX_LOG_FILE_BYTES);
    this.#maxFiles = Math.max(1, rotation.maxFiles ?? MAX_LOG_FILES);
    this.#watch(stream);
  }

  #watch(stream: WriteStream): void {
    stream.on('error', (error) => {
      this.#error = error;
      this.#isClosed = true;
    });
  }

  /** Creates the logs folder if needed and a new, empty log file named from the pattern. */
  static async open(options: SessionLogOptions): Promise<SessionLog> {
    const clock = options.clock ?? SYSTEM_CLOCK;
    const now = new Date(clock.now());
    const fileName = formatLogFileName(options.pattern ?? SESSION_LOG_PATTERN_DEFAULT, options.gateway, now);
    await ensurePrivateFolder(options.logsDir);
    const dot = fileName.lastIndexOf('.');
    const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
    const extension = dot > 0 ? fileName.slice(dot) : '';
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
      const candidate = join(options.logsDir, attempt === 1 ? fileName : `${stem}-${attempt}${extension}`);
      const opened = await openNewFile(candidate);
      if (!(opened instanceof Error)) return new SessionLog(candidate, opened, clock, options.rotation);
      if (opened.code !== 'EEXIST') throw opened;
    }
    throw new Error(t('terminals:logNameTaken', { name: fileName, folder: options.logsDir }));
  }

  /**
   * Opens a log like `open`, or says why none could be made: a session then runs without its log rather than
   * not at all (a technician on a roof needs the shell more than its log).
   */
  static async tryOpen(options: SessionLogOptions): Promise<{ log: SessionLog } | { problem: string }> {
    try {
      return { log: await SessionLog.open(options) };
    } catch (error) {
      return {
        problem: t('terminals:logNotMade', { folder: options.logsDir, reason: describeError(error) }),
      };
    }
  }

  /** Why the log is missing or stopped (for the status bar), or undefined while it is fine. */
  static describeProblem(log: SessionLog | undefined, openProblem: string | undefined): string | undefined {
    if (openProblem) return openProblem;
    const error = log?.error;
    return error ? t('terminals:logStopped', { reason: describeError(error) }) : undefined;
  }

  /** The write error that stopped this log, if any. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Appends bytes as received (written in batches, in order); ignored once the log is closed or failed. */
  append(chunk: Uint8Array): void {
    if (this.#isClosed || this.#isClosing || chunk.byteLength === 0) return;
    this.#hasContent = true;
    // Kept as is until the batch is written: terminal sessions never reuse a chunk (TerminalSession).
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes >= WRITE_BATCH_BYTES) this.#flush();
    else this.#flushTimer ??= this.#clock.setTimeout(() => this.#flush(), WRITE_DELAY_MS);
  }

  /** Writes what is waiting (rotating as it must) and closes the file; safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= this.#finish();
    return this.#closed;
  }

  async #finish(): Promise<void> {
    this.#isClosing = true;
    this.#clock.clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    for (;;) {
      if (this.#rotating) await this.#rotating;
      else if (this.#pendingBytes === 0 || this.#isClosed) break;
      else this.#flush();
    }
    this.#isClosed = true;
    if (!this.#stream.closed) await endStream(this.#stream);
  }

  /**
   * Closes the file and deletes it when nothing was ever appended: for a log opened before a port that then would
   * not open, so that a failed open leaves no empty log behind. Never rejects (a file that cannot be removed
   * stays, empty).
   */
  async discardIfEmpty(): Promise<void> {
    await this.close().catch(() => {});
    if (!this.#hasContent) await rm(this.path, { force: true }).catch(() => {});
  }

  #flush(): void {
    this.#clock.clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#pendingBytes === 0 || this.#isClosed || this.#rotating) return;
    let room = this.#maxFileBytes - this.#fileBytes;
    const batch: Uint8Array[] = [];
    while (this.#pending.length > 0 && room > 0) {
      const head = this.#pending[0]!;
      const piece = head.byteLength <= room ? head : head.subarray(0, room);
      if (piece === head) this.#pending.shift();
      else this.#pending[0] = head.subarray(room);
      batch.push(piece);
      room -= piece.byteLength;
      this.#pendingBytes -= piece.byteLength;
      this.#fileBytes += piece.byteLength;
    }
    // Corked, the chunks go to the file in one writev without being copied into one buffer first.
    this.#stream.cork();
    for (const chunk of batch) this.#stream.write(chunk);
    this.#stream.uncork();
    if (this.#fileBytes >= this.#maxFileBytes) {
      this.#rotating = this.#rotate().finally(() => {
        this.#rotating = undefined;
        if (!this.#isClosing) this.#flush();
      });
    }
  }

  /** Closes the full file, shifts the older parts up by one (dropping the oldest) and opens `path` afresh. */
  async #rotate(): Promise<void> {
    await endStream(this.#stream);
    if (this.#error) return;
    const part = (index: number) => {
      const name = basename(this.path);
      const dot = name.lastIndexOf('.');
      const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
      return join(dirname(this.path), `${stem}.${index}${extension}`);
    };
    try {
      await rm(this.#maxFiles > 1 ? part(this.#maxFiles - 1) : this.path, { force: true });
      for (let index = this.#maxFiles - 2; index >= 1; index--)
        await rename(part(index), part(index + 1)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
      if (this.#maxFiles > 1) await rename(this.path, part(1));
      const opened = await openNewFile(this.path);
      if (opened instanceof Error) throw opened;
      this.#stream = opened;
      this.#watch(opened);
      this.#fileBytes = 0;
    } catch (error) {
      this.#error = error instanceof Error ? error : new Error(String(error));
      this.#isClosed = true;
    }
  }
}

/** Builds a log file name from a pattern; the gateway is reduced to file-name-safe characters. */
export function formatLogFileName(pattern: string, gateway: string, now: Date): string {
  if (/[/\\]/.test(pattern) || pattern.includes('..')) {
    throw new Error(`A log file name pattern may not contain '/', '\\' or '..': ${pattern}`);
  }
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const date = `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}-${pad(now.getMinutes())}-${pad(now.getSeconds())}`;
  const safeGateway = gateway.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'session';
  const name = pattern
    .replaceAll('{gateway}', safeGateway)
    .replaceAll('{date}', date)
    .replaceAll('{time}', time)
    .replaceAll('{timestamp}', String(now.getTime()));
  if (name.trim() === '') throw new Error('A log file name pattern must produce a name');
  return name;
}

/** Creates `path` (0600), failing if it exists: the open stream, or the error. */
async function openNewFile(path: string): Promise<WriteStream | NodeJS.ErrnoException> {
  // 'wx' creates the file or fails: an earlier log with the same name is never truncated.
  const stream = createWriteStream(path, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    stream.once('open', () => resolve(undefined));
    stream.once('error', resolve);
  });
  return error ?? stream;
}

/** Ends a stream and resolves once it is closed (everything written, or its error reported). */
function endStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    stream.once('close', () => resolve());
    stream.end();
  });
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
