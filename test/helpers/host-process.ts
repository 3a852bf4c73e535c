import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { stopChild } from './child-process';
import type { HostChildConfig } from './host-child';
import { openHostSocket } from './host-socket';

/** The line host-child.ts prints once it listens (as `npm run host` does). */
const URL_LINE = /^Field Kit UI: (\S+)$/;

/** A browser host running in a child process (host-child.ts), with a WebSocket client signed in to it. */
export interface HostProcess {
  pid: number;
  /** Calls a channel over the WebSocket and resolves its `{ ok, … }` result. */
  invoke(channel: string, input?: unknown): Promise<unknown>;
  /** True while the process has not exited. */
  isRunning(): boolean;
  /** What the process wrote to stderr so far. */
  errors: string[];
  stop(): Promise<void>;
}

/** Resident and peak resident memory of a process, in MB, from /proc/<pid>/status (VmRSS, VmHWM). */
export async function readMemoryMegabytes(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1]);
  return { rss: kilobytes('VmRSS') / 1024, peak: kilobytes('VmHWM') / 1024 };
}

/**
 * Starts host-child.ts with a fresh data folder, waits for its URL, exchanges the token for the key as a
 * browser would, and opens the WebSocket.
 */
export async function startHostProcess(): Promise<HostProcess> {
  const folder = await mkdtemp(join(tmpdir(), 'fieldkit-host-process-'));
  const config: HostChildConfig = { dataDir: join(folder, 'data'), rendererDir: join(folder, 'renderer') };
  await mkdir(config.rendererDir);
  await writeFile(join(config.rendererDir, 'index.html'), '<!doctype html><title>Field Kit</title>', 'utf8');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'host-child.ts'), JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const errors: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => errors.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = line.match(URL_LINE);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`the host process exited (${code}) before listening:\n${errors.join('\n')}`)),
    );
  });
  const socket = await openHostSocket(url);
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id === undefined) return;
    pending.get(message.id)?.resolve(message.result);
    pending.delete(message.id);
  });
  socket.once('close', () => {
    for (const call of pending.values()) call.reject(new Error('the host closed its WebSocket'));
    pending.clear();
  });
  let nextId = 0;
  return {
    pid: child.pid!,
    errors,
    invoke: (channel, input) =>
      new Promise((resolve, reject) => {
        if (socket.readyState !== WebSocket.OPEN) return reject(new Error('the host closed its WebSocket'));
        const id = ++nextId;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, channel, input }));
      }),
    isRunning: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      socket.close();
      await stopChild(child);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
