import { connect as connectTcp } from 'node:net';
import type { Duplex } from 'node:stream';
import ssh2 from 'ssh2';
import type { Client, ClientChannel, ConnectConfig } from 'ssh2';
import { SessionLog } from '../terminal';
import { HostKeyChangedError } from './host-key-errors';
import type { HostKeyVerdict, KnownHosts } from './known-hosts';
import { SshSession, type SshLink, type SshLinkEnd } from './ssh-session';
import { RECEIVE_WINDOW_MIN_BYTES, ReceiveWindow } from './receive-window';

/**
 * `options` of the reverseSsh command: the gateway's ssh client checks the relay every 30 s and gives up
 * after 3 missed answers, so a tunnel to a dead relay ends within ~90 s instead of lingering.
 */
export const REVERSE_SSH_OPTIONS = '-o ServerAliveInterval=30 -o ServerAliveCountMax=3';
/** How long to wait for the gateway's tunnel to appear on the relay before giving up. */
export const TUNNEL_TIMEOUT_MS = 45_000;
/** First and longest pause between tunnel probes (doubling in between). */
export const TUNNEL_PROBE_DELAYS_MS = { first: 200, max: 3_000 };
/** SSH keepalive on every link the app opens: a silent drop is noticed within interval × count. */
export const KEEPALIVE_INTERVAL_MS = 10_000;
/** Unanswered keepalives before a link counts as dropped. */
export const KEEPALIVE_COUNT_MAX = 3;
/** How long an SSH handshake and login may take. */
export const READY_TIMEOUT_MS = 20_000;
/** Relay ports tried when the profile names no range (unprivileged, outside common ephemeral ranges). */
export const DEFAULT_REV_PORT_RANGE: [number, number] = [20_000, 29_999];
/** Candidate ports probed before giving up on finding a free one. */
export const MAX_PORT_CANDIDATES = 20;
/** How long a closing client may take to say goodbye before its socket is destroyed. */
export const CLIENT_END_GRACE_MS = 3_000;
/** The user a gateway shell logs in as (DESIGN §4). */
export const GATEWAY_USER = 'root';

/** A relay as the profile and keychain describe it. */
export interface RelayEndpoint {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** What `openReverse` needs. */
export interface OpenReverseRequest {
  gatewayId: string;
  relay: RelayEndpoint;
  /** Inclusive range of relay ports to use (the profile's); default DEFAULT_REV_PORT_RANGE. */
  portRange?: [number, number];
  /** The gateway's root password; asked from `credentials` when absent. */
  rootPassword?: string;
  cols: number;
  rows: number;
  title?: string;
  /** Prefix each line shown with its local time (see SshSessionOptions.timestamps). */
  timestamps?: boolean;
  /** Told each step of the (re)connection, in words for a status line. */
  onProgress?(step: ReverseSshStep, detail: string): void;
}

/** The steps of opening a reverse-SSH session, in order (a reconnect may skip the tunnel ones). */
export type ReverseSshStep = 'relay' | 'request-tunnel' | 'wait-for-tunnel' | 'gateway-login';

/** What `openDirect` needs: a gateway reachable on the local network. */
export interface OpenDirectRequest {
  host: string;
  port?: number;
  username?: string;
  password: string;
  /** When known, the gateway's key is pinned as `gateway:<id>` (the same pin as through a relay). */
  gatewayId?: string;
  cols: number;
  rows: number;
  title?: string;
  /** Prefix each line shown with its local time (see SshSessionOptions.timestamps). */
  timestamps?: boolean;
}

/** The SSH service's dependencies: everything outside plain computation is injected. */
export interface SshServiceDependencies {
  /** Sends a gateway command through the API session (`reverseSsh`, `stopReverseSsh`). */
  runCommand(gatewayId: string, command: string, body: Record<string, unknown>): Promise<unknown>;
  knownHosts: KnownHosts;
  /** The keychain's root password for a gateway, if stored. */
  credentials?: { rootPassword(gatewayId: string): Promise<string | undefined> };
  clock?: () => Date;
  /** Session logs go here (on by default); absent: no logs. */
  logsDir?: string;
  createClient?: () => Client;
  /** Waits between tunnel probes (default setTimeout); with `now`, lets tests run the backoff without waiting. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** Milliseconds, for the tunnel wait's timeout (default Date.now). */
  now?: () => number;
  random?: () => number;
  tunnelTimeoutMs?: number;
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  readyTimeoutMs?: number;
  /** Flow-control watermarks in bytes (default: SSH_HIGH_WATERMARK_DEFAULT / SSH_LOW_WATERMARK_DEFAULT). */
  highWatermark?: number;
  lowWatermark?: number;
  /** Fixes the output the gateway may send ahead of xterm (default: sized by ReceiveWindow from xterm's rate). */
  receiveWindowBytes?: number;
}

/** The gateway never opened its tunnel on the relay in time. */
export class TunnelTimeoutError extends Error {
  override readonly name = 'TunnelTimeoutError';
}

/**
 * The gateway needs a root password from the user: none was given or stored, or the gateway refused the one
 * tried (a stored one gone stale after a password change, or a mistyped one). The UI asks for it.
 */
export class RootPasswordRequiredError extends Error {
  override readonly name = 'RootPasswordRequiredError';
}

/** An SSH server refused the user name and password (ssh2's `client-authentication` failure). */
class AuthenticationRefusedError extends Error {
  override readonly name = 'AuthenticationRefusedError';
}

interface ConnectedClient {
  client: Client;
  /** The stream under the client: ours, so a link whose peer went silent can still be torn down. */
  socket: Duplex;
  verdict: HostKeyVerdict;
  /** Resolves with the reason the client went away (error text, or a plain "closed"). */
  lost: Promise<string>;
}

/**
 * Opens SSH terminals to gateways: through a reverse tunnel on a relay (reverseSsh → wait for the
 * tunnel → SSH through it) or directly on the local network. Every host key is checked against
 * `knownHosts` (relay pinned by `host:port`, gateway by `gateway:<id>`); keepalive is always on.
 */
export class SshService {
  private readonly sessions = new Set<SshSession>();
  /** The relay port each reverse session's tunnel uses, so two sessions never pick the same one. */
  private readonly revPorts = new Map<SshSession, number>();
  private readonly sleep: (milliseconds: number) => Promise<void>;

  constructor(private readonly deps: SshServiceDependencies) {
    this.sleep =
      deps.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)));
  }

  /** Sessions not yet closed. */
  get openSessions(): SshSession[] {
    return [...this.sessions];
  }

  /**
   * Asks the gateway for a reverse tunnel to the relay and opens a root shell through it. Resolves with
   * the open session; rejects with HostKeyChangedError, TunnelTimeoutError, RootPasswordRequiredError
   * or an Error whose message says which step failed.
   */
  async openReverse(request: OpenReverseRequest): Promise<SshSession> {
    const rootPassword = await this.findRootPassword(request.gatewayId, request.rootPassword);
    const { gatewayId, relay } = request;
    let sshRevPort: number | undefined;
    let hasRequestedTunnel = false;
    const session: SshSession = this.createSession({
      kind: 'reverse',
      title: request.title ?? `${gatewayId} (reverse SSH)`,
      gatewayId,
      cols: request.cols,
      rows: request.rows,
      ...(request.timestamps ? { timestamps: true } : {}),
      connect: async (size) => {
        const report = (step: ReverseSshStep, detail: string) => request.onProgress?.(step, detail);
        report('relay', `Connecting to the relay ${relay.host}:${relay.port}`);
        const relayLink = await this.connectClient(
          { host: relay.host, port: relay.port, username: relay.username, password: relay.password },
          `${relay.host}:${relay.port}`,
          `the relay ${relay.host}:${relay.port}`,
        );
        try {
          // After a drop the gateway's tunnel may have survived: reuse it before asking for a new one.
          let stream =
            sshRevPort === undefined ? undefined : await tryForwardOut(relayLink.client, sshRevPort);
          if (!stream) {
            sshRevPort = await this.chooseRevPort(relayLink.client, request.portRange);
            this.revPorts.set(session, sshRevPort);
            hasRequestedTunnel = true;
            report(
              'request-tunnel',
              `Asking gateway ${gatewayId} to open a tunnel on relay port ${sshRevPort}`,
            );
            await this.requestTunnel(gatewayId, relay, sshRevPort);
            report('wait-for-tunnel', `Waiting for the tunnel on relay port ${sshRevPort}`);
            stream = await this.waitForTunnel(relayLink.client, gatewayId, relay, sshRevPort);
          }
          report('gateway-login', `Logging in to gateway ${gatewayId} as ${GATEWAY_USER}`);
          const gatewayLink = await this.connectClient(
            { sock: stream, username: GATEWAY_USER, password: rootPassword },
            `gateway:${gatewayId}`,
            `the gateway ${gatewayId}`,
          ).catch((error: unknown) => {
            if (!(error instanceof AuthenticationRefusedError)) throw error;
            // Asking again is the way out: a stored password that went stale would otherwise lock the user out.
            const tried = request.rootPassword
              ? 'the root password entered'
              : 'the root password kept for it';
            throw new RootPasswordRequiredError(
              `Gateway ${gatewayId} refused ${tried}. Enter the one on its label.`,
              { cause: error },
            );
          });
          return await this.openShell([relayLink, gatewayLink], size);
        } catch (error) {
          endClient(relayLink);
          throw error;
        }
      },
      onClose: async () => {
        if (hasRequestedTunnel) await this.deps.runCommand(gatewayId, 'stopReverseSsh', {});
      },
    });
    await this.openOrDiscard(session);
    return session;
  }

  /** Opens a shell on a gateway reachable directly (host:22 on the local network). */
  async openDirect(request: OpenDirectRequest): Promise<SshSession> {
    const port = request.port ?? 22;
    const keyId = request.gatewayId ? `gateway:${request.gatewayId}` : `${request.host}:${port}`;
    const session = this.createSession({
      kind: 'direct',
      title: request.title ?? `${request.gatewayId ?? request.host} (SSH)`,
      ...(request.gatewayId ? { gatewayId: request.gatewayId } : {}),
      cols: request.cols,
      rows: request.rows,
      ...(request.timestamps ? { timestamps: true } : {}),
      connect: async (size) => {
        const link = await this.connectClient(
          {
            host: request.host,
            port,
            username: request.username ?? GATEWAY_USER,
            password: request.password,
          },
          keyId,
          `${request.host}:${port}`,
        );
        return this.openShell([link], size);
      },
    });
    await this.openOrDiscard(session);
    return session;
  }

  /** The explicit "replace key" action after a HostKeyChangedError: pins `fingerprint` for `keyId`. */
  async replaceHostKey(keyId: string, fingerprint: string): Promise<void> {
    await this.deps.knownHosts.replace(keyId, fingerprint);
  }

  /** Closes every open session (app shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
  }

  private createSession(
    options: Omit<
      ConstructorParameters<typeof SshSession>[0],
      'openLog' | 'highWatermark' | 'lowWatermark' | 'receiveWindowBytes' | 'clock'
    >,
  ): SshSession {
    const { logsDir, clock } = this.deps;
    const session = new SshSession({
      ...options,
      ...(clock ? { clock } : {}),
      ...(logsDir
        ? {
            openLog: () =>
              SessionLog.tryOpen({
                logsDir,
                gateway: options.gatewayId ?? options.title,
                ...(clock ? { clock } : {}),
              }),
          }
        : {}),
      ...(this.deps.highWatermark !== undefined ? { highWatermark: this.deps.highWatermark } : {}),
      ...(this.deps.lowWatermark !== undefined ? { lowWatermark: this.deps.lowWatermark } : {}),
      ...(this.deps.receiveWindowBytes !== undefined
        ? { receiveWindowBytes: this.deps.receiveWindowBytes }
        : {}),
    });
    this.sessions.add(session);
    session.on('closed', () => {
      this.sessions.delete(session);
      this.revPorts.delete(session);
    });
    return session;
  }

  /** A session that never opened is closed (stopping any tunnel it asked for) and its error passed on. */
  private async openOrDiscard(session: SshSession): Promise<void> {
    try {
      await session.open();
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  private async findRootPassword(gatewayId: string, given: string | undefined): Promise<string> {
    if (given !== undefined && given !== '') return given;
    const stored = await this.deps.credentials?.rootPassword(gatewayId);
    if (stored) return stored;
    throw new RootPasswordRequiredError(
      `Enter the root password of gateway ${gatewayId} (it is on the label).`,
    );
  }

  private async requestTunnel(gatewayId: string, relay: RelayEndpoint, sshRevPort: number): Promise<void> {
    try {
      await this.deps.runCommand(gatewayId, 'reverseSsh', {
        options: REVERSE_SSH_OPTIONS,
        sshRevPort,
        username: relay.username,
        password: relay.password,
        sshHost: relay.host,
        sshPort: relay.port,
      });
    } catch (error) {
      throw new Error(
        `The server could not ask gateway ${gatewayId} for a tunnel: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  /** A relay port nobody listens on: random candidates from the range, each probed through the relay. */
  private async chooseRevPort(relay: Client, range: [number, number] | undefined): Promise<number> {
    const [first, last] = range ?? DEFAULT_REV_PORT_RANGE;
    const size = last - first + 1;
    const start = Math.floor((this.deps.random ?? Math.random)() * size);
    const taken = new Set(this.revPorts.values());
    for (let offset = 0; offset < Math.min(size, MAX_PORT_CANDIDATES); offset += 1) {
      const port = first + ((start + offset) % size);
      if (taken.has(port)) continue;
      const stream = await tryForwardOut(relay, port);
      if (!stream) return port;
      stream.destroy();
    }
    throw new Error(`No free port on the relay between ${first} and ${last}.`);
  }

  /** Probes 127.0.0.1:port through the relay with growing pauses; resolves with the first stream that opens. */
  private async waitForTunnel(
    relay: Client,
    gatewayId: string,
    endpoint: RelayEndpoint,
    port: number,
  ): Promise<Duplex> {
    const timeoutMs = this.deps.tunnelTimeoutMs ?? TUNNEL_TIMEOUT_MS;
    const now = this.deps.now ?? Date.now;
    const startedAt = now();
    let delay = TUNNEL_PROBE_DELAYS_MS.first;
    for (;;) {
      const stream = await tryForwardOut(relay, port);
      if (stream) return stream;
      const elapsed = now() - startedAt;
      if (elapsed >= timeoutMs) break;
      await this.sleep(Math.min(delay, timeoutMs - elapsed));
      delay = Math.min(delay * 2, TUNNEL_PROBE_DELAYS_MS.max);
    }
    throw new TunnelTimeoutError(
      `Gateway ${gatewayId} did not open its tunnel on the relay ${endpoint.host}:${endpoint.port} ` +
        `(port ${port}) within ${Math.round(timeoutMs / 1000)} s. It may be offline or unable to reach the relay.`,
    );
  }

  /** Connects and logs in with the host key checked against known hosts; rejects with a plain message. */
  private connectClient(config: ConnectConfig, keyId: string, what: string): Promise<ConnectedClient> {
    const client = this.deps.createClient?.() ?? new ssh2.Client();
    // TCP_NODELAY, as OpenSSH sets for interactive sessions: a keystroke is not held back until the previous
    // packet is acknowledged (Nagle's algorithm).
    const socket =
      (config.sock as Duplex | undefined) ??
      connectTcp({ host: config.host ?? '', port: config.port ?? 22, noDelay: true });
    const link = { client, socket };
    let verdict: HostKeyVerdict | undefined;
    let refusal: Error | undefined;
    let lastError: Error | undefined;
    const lost = new Promise<string>((resolve) => {
      client.on('error', (error) => {
        lastError = error;
      });
      client.on('close', () =>
        resolve(lastError ? `Lost ${what}: ${lastError.message}` : `The connection to ${what} was closed.`),
      );
    });
    return new Promise((resolve, reject) => {
      const onError = (error: Error & { level?: string }) => {
        client.off('ready', onReady);
        endClient(link);
        reject(refusal ?? describeConnectError(error, what, config.username ?? ''));
      };
      const onReady = () => {
        client.off('error', onError);
        if (!verdict) {
          endClient(link);
          reject(new Error(`${what} was not verified.`));
          return;
        }
        resolve({ client, socket, verdict, lost });
      };
      client.once('error', onError);
      client.once('ready', onReady);
      const { host: _host, port: _port, ...rest } = config;
      client.connect({
        ...rest,
        sock: socket,
        readyTimeout: this.deps.readyTimeoutMs ?? READY_TIMEOUT_MS,
        keepaliveInterval: this.deps.keepaliveIntervalMs ?? KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: this.deps.keepaliveCountMax ?? KEEPALIVE_COUNT_MAX,
        hostVerifier: (key: Buffer, verify: (isValid: boolean) => void) => {
          this.deps.knownHosts.verify(keyId, key).then(
            (result) => {
              verdict = result;
              verify(true);
            },
            (error: Error) => {
              refusal = error;
              verify(false);
            },
          );
        },
      });
    });
  }

  private openShell(links: ConnectedClient[], size: { cols: number; rows: number }): Promise<SshLink> {
    const shellClient = links[links.length - 1]!.client;
    const endAll = () => [...links].reverse().forEach(endClient);
    return new Promise((resolve, reject) => {
      // A small first window, so a flood's first megabytes do not arrive ahead of the first keystroke's echo.
      ReceiveWindow.openWithSmallWindow(shellClient, RECEIVE_WINDOW_MIN_BYTES, () =>
        shellClient.shell({ term: 'xterm-256color', cols: size.cols, rows: size.rows }, (error, channel) => {
          if (error) {
            endAll();
            reject(new Error(`The gateway refused a shell: ${error.message}`));
            return;
          }
          resolve({
            channel,
            hostKeys: links.map((link) => link.verdict),
            lost: whenLinkEnds(channel, links),
            end: endAll,
          });
        }),
      );
    });
  }
}

/** Ends a client politely, and for good after a grace period if the other side never answers the goodbye. */
function endClient(link: { client: Client; socket: Duplex }): void {
  link.client.end();
  setTimeout(() => link.socket.destroy(), CLIENT_END_GRACE_MS).unref();
}

function whenLinkEnds(channel: ClientChannel, links: ConnectedClient[]): Promise<SshLinkEnd> {
  let exitStatus: string | undefined;
  channel.on('exit', (code: number | null, signal?: string) => {
    exitStatus = code === null || code === undefined ? `signal ${signal ?? 'unknown'}` : `code ${code}`;
  });
  const channelClosed = new Promise<SshLinkEnd>((resolve) =>
    channel.on('close', () => {
      if (exitStatus !== undefined)
        resolve({ reason: `The shell exited (${exitStatus}).`, isRemoteExit: true });
    }),
  );
  // A gateway that reboots sends the exit status and then drops the link: that is still an exit.
  const dropped = Promise.race(links.map((link) => link.lost)).then((reason) =>
    exitStatus === undefined
      ? { reason, isRemoteExit: false }
      : { reason: `The shell exited (${exitStatus}).`, isRemoteExit: true },
  );
  return Promise.race([channelClosed, dropped]);
}

function tryForwardOut(client: Client, port: number): Promise<Duplex | undefined> {
  return new Promise((resolve) => {
    try {
      client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, stream) =>
        resolve(error ? undefined : stream),
      );
    } catch {
      resolve(undefined);
    }
  });
}

function describeConnectError(error: Error & { level?: string }, what: string, username: string): Error {
  if (error instanceof HostKeyChangedError) return error;
  switch (error.level) {
    case 'client-authentication':
      return new AuthenticationRefusedError(`${capitalise(what)} refused the password for ${username}.`, {
        cause: error,
      });
    case 'client-timeout':
      return new Error(`${capitalise(what)} did not answer the SSH handshake in time.`, { cause: error });
    case 'client-socket':
      return new Error(`Cannot reach ${what}: ${error.message}`, { cause: error });
    default:
      return new Error(`SSH to ${what} failed: ${error.message}`, { cause: error });
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
