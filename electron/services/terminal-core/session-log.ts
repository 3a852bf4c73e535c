import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from '../files/private-files';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/** The default log file name: gateway, local date and local time (`<gateway>_<YYYY-MM-DD>_<HH-mm-ss>.log`). */
export const SESSION_LOG_PATTERN_DEFAULT = '{gateway}_{date}_{time}.log';

const MAX_NAME_ATTEMPTS = 100;
/** Appended bytes are written together once this many are waiting… */
const WRITE_BATCH_BYTES = 256 * 1024;
/** …or this long after the first of them, whichever comes first (a flood is one write per batch, not per chunk). */
const WRITE_DELAY_MS = 250;

/** Where and how to open a session log. */
export interface SessionLogOptions {
  logsDir: string;
  gateway: string;
  clock?: Pick<Clock, 'now'>;
  /** Tokens: `{gateway}`, `{date}` (YYYY-MM-DD), `{time}` (HH-mm-ss), `{timestamp}` (ms since the epoch). */
  pattern?: string;
}

/**
 * Writes a session log to `<logsDir>/<gateway>_<YYYY-MM-DD>_<HH-mm-ss>.log` (filename tokens).
 * The folder is 0700 (tightened if looser) and each file 0600: a log holds what the screen showed. Never
 * overwrites a file (a clash gets `-2`, `-3`… before the extension); a write failure stops the log and is
 * kept in `error`, it never throws into the terminal session.
 */
export class SessionLog {
  readonly path: string;
  #stream: WriteStream;
  #isClosed = false;
  #error: Error | undefined;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #hasContent = false;

  private constructor(path: string, stream: WriteStream) {
    this.path = path;
    this.#stream = stream;
    stream.on('error', (error) => {
      this.#error = error;
      this.#isClosed = true;
    });
  }

  /** Creates the logs folder if needed and a new, empty log file named from the pattern. */
  static async open(options: SessionLogOptions): Promise<SessionLog> {
    const now = new Date((options.clock ?? SYSTEM_CLOCK).now());
    const fileName = formatLogFileName(options.pattern ?? SESSION_LOG_PATTERN_DEFAULT, options.gateway, now);
    await ensurePrivateFolder(options.logsDir);
    const dot = fileName.lastIndexOf('.');
    const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
    const extension = dot > 0 ? fileName.slice(dot) : '';
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
      const candidate = join(options.logsDir, attempt === 1 ? fileName : `${stem}-${attempt}${extension}`);
      // 'wx' creates the file or fails: an earlier log with the same name is never truncated.
      const stream = createWriteStream(candidate, { flags: 'wx', mode: PRIVATE_FILE_MODE });
      const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
        stream.once('open', () => resolve(undefined));
        stream.once('error', resolve);
      });
      if (!error) return new SessionLog(candidate, stream);
      if (error.code !== 'EEXIST') throw error;
    }
    throw new Error(`Could not create a session log named like ${fileName} in ${options.logsDir}`);
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
        problem: `Not logged: no log file could be made in ${options.logsDir} (${describeError(error)}).`,
      };
    }
  }

  /** Why the log is missing or stopped (for the status bar), or undefined while it is fine. */
  static describeProblem(log: SessionLog | undefined, openProblem: string | undefined): string | undefined {
    if (openProblem) return openProblem;
    const error = log?.error;
    return error ? `The log stopped: ${describeError(error)}.` : undefined;
  }

  /** The write error that stopped this log, if any. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Appends bytes as received (written in batches, in order); ignored once the log is closed or failed. */
  append(chunk: Uint8Array): void {
    if (this.#isClosed || chunk.byteLength === 0) return;
    this.#hasContent = true;
    // Kept as is until the batch is written: terminal sessions never reuse a chunk (TerminalSession).
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes >= WRITE_BATCH_BYTES) this.#flush();
    else this.#flushTimer ??= setTimeout(() => this.#flush(), WRITE_DELAY_MS);
  }

  /** Writes what is waiting and closes the file; safe to call more than once. */
  async close(): Promise<void> {
    if (this.#stream.closed) return;
    this.#flush();
    this.#isClosed = true;
    await new Promise<void>((resolve) => {
      this.#stream.once('close', () => resolve());
      this.#stream.end();
    });
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
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#pendingBytes === 0 || this.#isClosed) return;
    // Corked, the chunks go to the file in one writev without being copied into one buffer first.
    this.#stream.cork();
    for (const chunk of this.#pending) this.#stream.write(chunk);
    this.#stream.uncork();
    this.#pending = [];
    this.#pendingBytes = 0;
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

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
