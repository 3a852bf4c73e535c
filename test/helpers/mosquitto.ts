import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const READY_TIMEOUT_MS = 10_000;
const START_ATTEMPTS = 5;
const run = promisify(execFile);

/** A running Mosquitto broker on 127.0.0.1. */
export interface MosquittoBroker {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** Everything the broker logged so far (for failure messages). */
  log(): string;
  /** Stops the broker, waits for it to exit and removes its temp folder. */
  stop(): Promise<void>;
}

/** How to start the broker: anonymous, or one user with a password (password_file made by mosquitto_passwd). */
export interface MosquittoOptions {
  user?: { username: string; password: string };
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `/usr/sbin/mosquitto -c <cfg>` with `listener <port> 127.0.0.1` on a free port and resolves once it
 * logs that it is running. Retries on another port when the chosen one was taken meanwhile.
 */
export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoBroker> {
  const directory = await mkdtemp(join(tmpdir(), 'mosquitto-'));
  const lines = ['user root', 'persistence false', 'log_dest stderr', 'log_type all'];
  if (options.user) {
    const passwordFile = join(directory, 'passwords');
    await run('mosquitto_passwd', ['-b', '-c', passwordFile, options.user.username, options.user.password]);
    lines.push('allow_anonymous false', `password_file ${passwordFile}`);
  } else {
    lines.push('allow_anonymous true');
  }
  let lastLog = '';
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const port = await findFreePort();
    const configPath = join(directory, 'mosquitto.conf');
    await writeFile(configPath, [...lines, `listener ${port} 127.0.0.1`, ''].join('\n'));
    const child = spawn('/usr/sbin/mosquitto', ['-c', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (output += chunk));
    const isRunning = await waitForRunning(child, () => output);
    if (isRunning) {
      return {
        host: '127.0.0.1',
        port,
        log: () => output,
        stop: async () => {
          await stopChild(child);
          await rm(directory, { recursive: true, force: true });
        },
      };
    }
    lastLog = output;
    await stopChild(child);
  }
  await rm(directory, { recursive: true, force: true });
  throw new Error(`Mosquitto did not start after ${START_ATTEMPTS} attempts:\n${lastLog}`);
}

function waitForRunning(child: ChildProcess, output: () => string): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (/mosquitto version \S+ running/.test(output())) finish(true);
    };
    const finish = (value: boolean) => {
      clearTimeout(timer);
      child.stderr?.off('data', check);
      child.off('exit', onExit);
      resolve(value);
    };
    const onExit = () => finish(false);
    const timer = setTimeout(() => finish(false), READY_TIMEOUT_MS);
    child.stderr?.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
