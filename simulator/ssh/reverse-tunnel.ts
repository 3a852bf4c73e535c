import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { z } from 'zod';
import { joinStreams } from './stream-pipe';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];
const PortSchema = z.number().int().min(1).max(65_535);

/** The body of a `reverseSsh` command, as the simulated gateway checks it. */
export const ReverseTunnelRequestSchema = z.object({
  sshHost: z.string().refine((host) => LOOPBACK_HOSTS.includes(host), {
    message: 'the simulator opens tunnels only to a loopback relay (127.0.0.1)',
  }),
  sshPort: PortSchema,
  sshRevPort: PortSchema,
  username: z.string().min(1),
  password: z.string(),
  options: z.string(),
});
/** A validated `reverseSsh` request. */
export type ReverseTunnelRequest = z.infer<typeof ReverseTunnelRequestSchema>;

/** `-o Key=Value` options a gateway accepts in `options`; anything else is refused, never passed on. */
export const ALLOWED_TUNNEL_OPTIONS = [
  'ServerAliveInterval',
  'ServerAliveCountMax',
  'ConnectTimeout',
  'TCPKeepAlive',
];

/** Time a tunnel may take to log in and get its remote forward accepted. */
export const TUNNEL_OPEN_TIMEOUT_MS = 15_000;

const CANCEL_FORWARD_TIMEOUT_MS = 2_000;

/** An open reverse tunnel of a simulated gateway; emits 'closed' once when it ends for any reason. */
export interface ReverseTunnel extends EventEmitter {
  readonly isClosed: boolean;
  close(): Promise<void>;
}

/**
 * Parses `options` (`-o Key=Value` pairs separated by spaces, or `-oKey=Value`) into a map; throws an
 * Error naming the first token that is not an allowed option.
 */
export function parseTunnelOptions(options: string): Map<string, string> {
  const tokens = options.trim() === '' ? [] : options.trim().split(/\s+/);
  const parsed = new Map<string, string>();
  for (let index = 0; index < tokens.length; index += 1) {
    let token = tokens[index] ?? '';
    if (token === '-o') {
      index += 1;
      token = tokens[index] ?? '';
    } else if (token.startsWith('-o')) {
      token = token.slice(2);
    } else {
      throw new Error(`unsupported reverseSsh option "${token}": only -o Key=Value is accepted`);
    }
    const match = /^([A-Za-z]+)=([A-Za-z0-9]+)$/.exec(token);
    if (!match || !ALLOWED_TUNNEL_OPTIONS.includes(match[1] ?? '')) {
      throw new Error(
        `unsupported reverseSsh option "${token}": allowed are ${ALLOWED_TUNNEL_OPTIONS.join(', ')}`,
      );
    }
    parsed.set(match[1] ?? '', match[2] ?? '');
  }
  return parsed;
}

/** The message a tunnel cancelled while opening rejects with (a stopReverseSsh overtook its reverseSsh). */
export const TUNNEL_CANCELLED_MESSAGE = 'stopReverseSsh arrived while the tunnel was opening';

/**
 * Opens a reverse tunnel with ssh2's client: logs in to the relay and asks it to listen on
 * 127.0.0.1:`sshRevPort`, forwarding each connection to 127.0.0.1:`targetPort`. Resolves once the
 * relay accepted the forward; rejects with a message saying which step failed. When `signal` aborts before then,
 * it rejects with TUNNEL_CANCELLED_MESSAGE once the relay no longer holds the forward (or never got it).
 */
export function openSsh2Tunnel(
  request: ReverseTunnelRequest,
  targetPort: number,
  signal?: AbortSignal,
): Promise<ReverseTunnel> {
  const options = parseTunnelOptions(request.options);
  const aliveSeconds = Number(options.get('ServerAliveInterval') ?? 0);
  const tunnel = new TunnelHandle();
  const client = new ssh2.Client();
  // TCP_NODELAY on both legs of the tunnel, as on the relay's side (see SshListener).
  const socket = connectTcp({ port: request.sshPort, host: request.sshHost, noDelay: true });
  tunnel.onClose = async () => {
    // Cancel the forward first, so the relay has dropped the tunnel by the time close() resolves.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CANCEL_FORWARD_TIMEOUT_MS);
      try {
        client.unforwardIn('127.0.0.1', request.sshRevPort, () => {
          clearTimeout(timer);
          resolve();
        });
      } catch {
        // The link is already down: nothing to cancel.
        clearTimeout(timer);
        resolve();
      }
    });
    client.end();
    // A relay that went silent never completes the goodbye: do not wait for it forever.
    setTimeout(() => socket.destroy(), CANCEL_FORWARD_TIMEOUT_MS).unref();
  };
  client.on('close', () => tunnel.markClosed());
  client.on('tcp connection', (_info, accept) => {
    const socket = connectTcp({ port: targetPort, host: '127.0.0.1', noDelay: true });
    joinStreams(accept(), socket);
  });
  return new Promise((resolve, reject) => {
    let isSettled = false;
    const fail = (message: string) => {
      if (isSettled) return;
      isSettled = true;
      signal?.removeEventListener('abort', onAbort);
      client.end();
      reject(new Error(message));
    };
    // Before the forward was asked for, ending the client is enough; after, the answer decides (below).
    let hasAskedForward = false;
    const cancel = () => {
      if (isSettled) return;
      fail(TUNNEL_CANCELLED_MESSAGE);
      socket.destroy();
    };
    const onAbort = () => {
      if (!hasAskedForward) cancel();
      // A relay that never answers the forward is not waited for: cutting the link drops the forward too.
      else setTimeout(cancel, CANCEL_FORWARD_TIMEOUT_MS).unref();
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    client.on('error', (error: Error & { level?: string }) => {
      const message = describeLoginError(request, error);
      if (error.level === 'client-timeout') {
        if (isSettled) return;
        isSettled = true;
        client.end();
        reject(timeoutError(message));
      } else {
        fail(message);
      }
    });
    client.on('close', () => fail(`the relay ${request.sshHost}:${request.sshPort} closed the connection`));
    client.on('ready', () => {
      if (isSettled) return;
      hasAskedForward = true;
      client.forwardIn('127.0.0.1', request.sshRevPort, (error) => {
        if (error) {
          fail(
            `the relay ${request.sshHost}:${request.sshPort} refused to listen on 127.0.0.1:${request.sshRevPort} (not permitted or in use)`,
          );
          return;
        }
        if (isSettled) return;
        isSettled = true;
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) {
          // The relay listens already: take the forward back before saying the tunnel did not open.
          void tunnel.close().then(() => reject(new Error(TUNNEL_CANCELLED_MESSAGE)));
          return;
        }
        resolve(tunnel);
      });
    });
    client.connect({
      sock: socket,
      username: request.username,
      password: request.password,
      readyTimeout: Number(options.get('ConnectTimeout') ?? 0) * 1000 || TUNNEL_OPEN_TIMEOUT_MS,
      keepaliveInterval: aliveSeconds * 1000,
      keepaliveCountMax: Number(options.get('ServerAliveCountMax') ?? 3),
      // The gateway's side, like `ssh -o StrictHostKeyChecking=no`: the app pins the relay's key, not the gateway.
      hostVerifier: () => true,
    });
  });
}

/**
 * Opens a reverse tunnel by running the real OpenSSH client
 * (`ssh -N -R 127.0.0.1:<rev>:127.0.0.1:<target>`, password through `SSH_ASKPASS`). Resolves when ssh
 * reports the remote forward accepted; rejects with ssh's reason when it exits first or takes too long, and with
 * TUNNEL_CANCELLED_MESSAGE once ssh has exited when `signal` aborts before then.
 */
export async function openOpenSshTunnel(
  request: ReverseTunnelRequest,
  targetPort: number,
  signal?: AbortSignal,
): Promise<ReverseTunnel> {
  const options = parseTunnelOptions(request.options);
  const directory = await mkdtemp(join(tmpdir(), 'fieldkit-tunnel-'));
  const askPass = join(directory, 'askpass.sh');
  await writeFile(askPass, '#!/bin/sh\nprintf "%s\\n" "$FIELDKIT_TUNNEL_PASSWORD"\n');
  await chmod(askPass, 0o700);
  const args = [
    '-v',
    '-N',
    '-F',
    '/dev/null',
    // An explicit bind address: OpenSSH sends "localhost" otherwise, which `PermitListen 127.0.0.1:<port>` refuses.
    '-R',
    `127.0.0.1:${request.sshRevPort}:127.0.0.1:${targetPort}`,
    '-p',
    String(request.sshPort),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'ExitOnForwardFailure=yes',
    '-o',
    'PreferredAuthentications=password',
    '-o',
    'NumberOfPasswordPrompts=1',
    ...[...options].flatMap(([key, value]) => ['-o', `${key}=${value}`]),
    `${request.username}@${request.sshHost}`,
  ];
  const child = spawn('ssh', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      SSH_ASKPASS: askPass,
      SSH_ASKPASS_REQUIRE: 'force',
      DISPLAY: ':0',
      FIELDKIT_TUNNEL_PASSWORD: request.password,
    },
  });
  const tunnel = new TunnelHandle();
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-16_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(async () => {
    await rm(directory, { recursive: true, force: true });
    tunnel.markClosed();
  });
  tunnel.onClose = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      finish(timeoutError(`ssh did not open the tunnel within ${TUNNEL_OPEN_TIMEOUT_MS} ms`));
      void tunnel.close();
    }, TUNNEL_OPEN_TIMEOUT_MS);
    const onData = () => {
      if (stderr.includes('remote forward success for: listen')) finish();
    };
    const onExit = () => finish(new Error(describeOpenSshFailure(request, stderr)));
    const onAbort = () => {
      finish(new Error(TUNNEL_CANCELLED_MESSAGE), tunnel.close());
    };
    function finish(error?: Error, closing?: Promise<void>) {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      if (error) void (closing ?? Promise.resolve()).then(() => reject(error));
      else resolve(tunnel);
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

class TunnelHandle extends EventEmitter implements ReverseTunnel {
  isClosed = false;
  onClose: () => Promise<void> = async () => undefined;

  markClosed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.emit('closed');
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    const closed = new Promise<void>((resolve) => this.once('closed', () => resolve()));
    await this.onClose();
    await closed;
  }
}

/** An Error named 'TimeoutError': the simulator answers it with 408 instead of 400. */
function timeoutError(message: string): Error {
  const error = new Error(message);
  error.name = 'TimeoutError';
  return error;
}

function describeLoginError(request: ReverseTunnelRequest, error: Error & { level?: string }): string {
  const relay = `${request.sshHost}:${request.sshPort}`;
  if (error.level === 'client-authentication')
    return `the relay ${relay} refused the login of ${request.username}`;
  if (error.level === 'client-timeout') return `the relay ${relay} did not answer in time`;
  return `cannot reach the relay ${relay}: ${error.message}`;
}

function describeOpenSshFailure(request: ReverseTunnelRequest, stderr: string): string {
  const relay = `${request.sshHost}:${request.sshPort}`;
  if (stderr.includes('Permission denied'))
    return `the relay ${relay} refused the login of ${request.username}`;
  if (stderr.includes('remote port forwarding failed')) {
    return `the relay ${relay} refused to listen on 127.0.0.1:${request.sshRevPort} (not permitted or in use)`;
  }
  if (stderr.includes('Connection refused')) return `cannot reach the relay ${relay}: connection refused`;
  const lastError = stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('debug1:') && !line.startsWith('OpenSSH_'))
    .at(-1);
  return `ssh to the relay ${relay} failed${lastError ? `: ${lastError.trim()}` : ''}`;
}
