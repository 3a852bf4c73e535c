import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { ROOT } from '../../../build/stale.mjs';
import { openHostSocket } from '../../helpers/host-socket';

// `npm run host` is `node scripts/host.mjs`: these spawn the launcher itself, so they run the real bundle
// (out/host/cli.mjs, built first when stale) rather than the TypeScript sources.
const LAUNCHER = join(ROOT, 'scripts', 'host.mjs');

let folder: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-launcher-'));
});

afterEach(async () => {
  await Promise.all(children.splice(0).map(stop));
  await rm(folder, { recursive: true, force: true });
});

function launch(flags: string[]): ChildProcess {
  // Without a session bus the keychain probe fails at once: the host runs session-only, as on a bare machine.
  const { DBUS_SESSION_BUS_ADDRESS: _bus, ...environment } = process.env;
  const child = spawn(process.execPath, [LAUNCHER, ...flags], {
    cwd: ROOT,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Every stdout line and the exit code, once the process has ended. */
function finish(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the stdout lines up to and including the `Field Kit UI:` line. */
function linesUntilUrl(child: ChildProcess): Promise<string[]> {
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Field Kit UI: ')) resolve(lines);
    });
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before its URL:\n${stderr}`)));
  });
}

const openSocket = openHostSocket;

function invoke(socket: WebSocket, id: number, channel: string, input?: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
      if (isBinary) return; // event frames
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message.result);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, input }));
  });
}

describe('npm run host (scripts/host.mjs)', () => {
  // Up to a minute: the launcher first rebuilds the bundle when a source changed since the last start.
  it(
    'prints only the URL line on stdout, and the demo server behind it accepts a demo login',
    { timeout: 60_000 },
    async () => {
      const child = launch(['--demo', '--port', '0', '--no-build', '--data-dir', join(folder, 'data')]);
      const lines = await linesUntilUrl(child);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Field Kit UI: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/);
      const socket = await openSocket(lines[0]!.slice('Field Kit UI: '.length));
      try {
        const list = (await invoke(socket, 1, 'profiles:list')) as {
          value: {
            profiles: { id: string; name: string; demoAccounts: { username: string; password: string }[] }[];
          };
        };
        const demo = list.value.profiles[0]!;
        expect(demo.name).toBe('Demo network server');
        const account = demo.demoAccounts[0]!;
        expect(
          await invoke(socket, 2, 'session:login', {
            profileId: demo.id,
            username: account.username,
            password: account.password,
            remember: 'none',
          }),
        ).toMatchObject({ ok: true, value: { username: account.username, state: 'active' } });
      } finally {
        socket.close();
      }
    },
  );

  it('without a keychain answering, says session-only in app:info and in one notice', async () => {
    const child = launch(['--port', '0', '--no-build', '--data-dir', join(folder, 'data')]);
    const [line] = await linesUntilUrl(child);
    const socket = await openSocket(line!.slice('Field Kit UI: '.length));
    try {
      expect(await invoke(socket, 1, 'app:info')).toMatchObject({
        ok: true,
        value: { mode: 'browser', keychain: 'session-only' },
      });
      const notices = (await invoke(socket, 2, 'app:notices')) as { value: { notices: { code: string }[] } };
      expect(notices.value.notices.filter((notice) => notice.code === 'KEYCHAIN_UNAVAILABLE')).toHaveLength(
        1,
      );
    } finally {
      socket.close();
    }
  });

  it('stops with exit status 0 on SIGTERM', async () => {
    const child = launch(['--port', '0', '--no-build', '--data-dir', join(folder, 'data')]);
    await linesUntilUrl(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('prints the usage for --help and exits 0', async () => {
    const result = await finish(launch(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run host -- [flags]');
  });

  it('exits with status 2 naming an argument it does not know', async () => {
    const result = await finish(launch(['stray']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown argument stray');
  });
});
