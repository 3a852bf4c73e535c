import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READY_TIMEOUT_MS = 10_000;

/** Two linked pseudo-terminals made by socat; what is written to one end is read at the other. */
export interface SocatPair {
  readonly directory: string;
  readonly pathA: string;
  readonly pathB: string;
  /** socat's process while it runs (a new one after restart). */
  readonly pid: number | undefined;
  /** Kills socat (both ptys vanish, like an unplugged adapter) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts socat again with the same link paths and waits for both links. */
  restart(): Promise<void>;
  /** Stops socat and removes the temporary folder. */
  cleanup(): Promise<void>;
}

/**
 * Starts `socat -d -d pty,raw,echo=0,link=<a> pty,raw,echo=0,link=<b>` in a new temp dir and resolves once socat
 * reports its transfer loop running and both links exist.
 */
export async function startSocatPair(): Promise<SocatPair> {
  const directory = await mkdtemp(join(tmpdir(), 'socat-pair-'));
  const pathA = join(directory, 'a');
  const pathB = join(directory, 'b');
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${pathA}`, `pty,raw,echo=0,link=${pathB}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await waitForTransferLoop(child);
    await Promise.all([lstat(pathA), lstat(pathB)]);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    directory,
    pathA,
    pathB,
    get pid() {
      return child?.pid;
    },
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    cleanup: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function waitForTransferLoop(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`socat did not start in time:\n${stderr}`)),
      READY_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('starting data transfer loop')) finish();
    };
    const onExit = (code: number | null) => finish(new Error(`socat exited (${code}):\n${stderr}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.stderr?.resume();
      if (error) reject(error);
      else resolve();
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** The far end of a pty pair, read and written directly through the serialport binding. */
export interface RawPortEnd {
  /** Everything read so far. */
  readonly received: Buffer;
  write(data: string | Uint8Array): Promise<void>;
  /** Resolves once `byteCount` bytes in total have been read. */
  waitForBytes(byteCount: number): Promise<Buffer>;
  /** Resolves once the text has been read. */
  waitForText(text: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens a pty path with @serialport/bindings-cpp and keeps reading it into a buffer. */
export async function openRawEnd(path: string): Promise<RawPortEnd> {
  const { autoDetect } = await import('@serialport/bindings-cpp');
  const port = await autoDetect().open({ path, baudRate: 115_200 });
  const chunks: Buffer[] = [];
  let total = 0;
  let received = Buffer.alloc(0);
  let text = '';
  /** Each waiter sees every new piece of text; returning true removes it. */
  const waiters = new Set<(piece: string) => boolean>();
  const notify = (piece: string) => {
    for (const waiter of [...waiters]) if (waiter(piece)) waiters.delete(waiter);
  };
  const reading = (async () => {
    const buffer = Buffer.alloc(65_536);
    while (port.isOpen) {
      try {
        const { bytesRead } = await port.read(buffer, 0, buffer.length);
        chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
        total += bytesRead;
        const piece = buffer.toString('latin1', 0, bytesRead);
        text += piece;
        notify(piece);
      } catch {
        return;
      }
    }
  })();
  const collect = () => {
    if (received.length !== total) received = Buffer.concat(chunks, total);
    return received;
  };
  return {
    get received() {
      return collect();
    },
    async write(data) {
      await port.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data));
    },
    waitForBytes(byteCount) {
      return new Promise((resolve) => {
        const check = () => (total >= byteCount ? (resolve(collect()), true) : false);
        if (!check()) waiters.add(check);
      });
    },
    waitForText(wanted) {
      return new Promise((resolve) => {
        // Search each new piece plus the tail of the one before, never the whole (ever-growing) text.
        let window = text;
        const check = (piece: string) => {
          window += piece;
          if (window.includes(wanted)) {
            resolve();
            return true;
          }
          window = window.slice(-(wanted.length - 1) || window.length);
          return false;
        };
        if (!check('')) waiters.add(check);
      });
    },
    async close() {
      if (port.isOpen) await port.close().catch(() => {});
      await reading;
    },
  };
}
