import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { autoDetect } from '@serialport/bindings-cpp';
import { runConsoleOnPort } from './console-port';
import type { SerialConsoleGateway, SerialConsoleOptions } from './serial-console';

const SOCAT_READY_TIMEOUT_MS = 10_000;

/** Which gateway's console to attach, and where the app-side pseudo-terminal link goes. */
export interface AttachSerialConsoleOptions extends Omit<SerialConsoleOptions, 'io' | 'gateway'> {
  gateway: SerialConsoleGateway;
  /** The path the app opens, e.g. /tmp/kona-console (a symlink to a /dev/pts device). */
  linkPath: string;
  /** The socat executable; default `socat` on the PATH. */
  socatPath?: string;
}

/** A serial console attached to a pseudo-terminal. */
export interface AttachedSerialConsole {
  readonly linkPath: string;
  /** Stops the console and socat, and removes the temporary folder. */
  close(): Promise<void>;
}

/**
 * Attaches a gateway's serial console to a pseudo-terminal: starts
 * `socat pty,raw,echo=0,link=<linkPath> pty,raw,echo=0,link=<internal>` and runs the console on the internal end.
 * Resolves once both links exist and the console listens; rejects with socat's own words if it cannot start.
 */
export async function attachSerialConsole(
  options: AttachSerialConsoleOptions,
): Promise<AttachedSerialConsole> {
  const directory = await mkdtemp(join(tmpdir(), 'oam-serial-console-'));
  const internalPath = join(directory, 'console');
  const socat = spawn(
    options.socatPath ?? 'socat',
    ['-d', '-d', `pty,raw,echo=0,link=${options.linkPath}`, `pty,raw,echo=0,link=${internalPath}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    await waitForSocat(socat);
    const port = await autoDetect().open({ path: internalPath, baudRate: 115_200 });
    const running = runConsoleOnPort(port, options);
    // If socat dies on its own the internal pty hangs up (reads return 0 forever): stop the console with it.
    socat.once('exit', () => void running.stop());
    return {
      linkPath: options.linkPath,
      async close() {
        await running.stop();
        await stopProcess(socat);
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopProcess(socat);
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}

/** Parses the simulator's `--serial <gatewayId>=<path>` value. */
export function parseSerialAttachment(value: string): { gatewayId: string; linkPath: string } {
  const separator = value.indexOf('=');
  const gatewayId = value.slice(0, separator);
  const linkPath = value.slice(separator + 1);
  if (separator <= 0 || linkPath === '') {
    throw new Error(
      `--serial expects <gatewayId>=<path>, for example --serial kona-1=/tmp/kona-1; got '${value}'`,
    );
  }
  return { gatewayId, linkPath };
}

function waitForSocat(socat: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`socat did not start in time:\n${stderr}`)),
      SOCAT_READY_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('starting data transfer loop')) finish();
    };
    const onExit = (code: number | null) =>
      finish(new Error(`socat exited (${code}) before linking the pty:\n${stderr}`));
    const onError = (error: Error) => finish(new Error(`socat could not be started: ${error.message}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      socat.stderr?.off('data', onData);
      socat.off('exit', onExit);
      socat.off('error', onError);
      // Keep draining stderr so socat never blocks on a full pipe.
      socat.stderr?.resume();
      if (error) reject(error);
      else resolve();
    }
    socat.stderr?.on('data', onData);
    socat.once('exit', onExit);
    socat.once('error', onError);
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
