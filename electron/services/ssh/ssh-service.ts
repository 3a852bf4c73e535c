import { connect as connectTcp } from 'node:net';
import type { Duplex } from 'node:stream';
import ssh2 from 'ssh2';
import type { Client, ClientChannel, ConnectConfig } from 'ssh2';
import { SessionLog } from '../terminal';
import { HostKeyChangedError } from './host-key-errors';
import type { HostKeyVerdict, KnownHosts } from './known-hosts';
import { SessionClosedError, SshSession, type SshLink, type SshLinkEnd } from './ssh-session';
import { RECEIVE_WINDOW_MIN_BYTES, ReceiveWindow } from './receive-window';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import type { CommandRequest } from '../../shared/api/commands';

/**
 * `options` of the reverseSsh command: the gateway's ssh client checks the relay every 30 s and gives up
 * after 3 missed answers, so a tunnel to a dead relay ends within ~90 s instead of lingering.
 */
export const REVERSE_SSH_OPTIONS = '-o ServerAliveInterval=30 -o ServerAliveCountMax=3';
/** How long to wait for the gateway's tunnel to appear on the relay before giving up. */
export const TUNNEL_TIMEOUT_MS = 45_000;
/** First and longest pause between tunnel probes (doubling in between). */
export const TUNNEL_PROBE_DELAYS_MS = { first: 200, max: 3_000 };
/**
 * How long the relay may take to open a connection to a relay port (a probe) before it counts as unanswered: a
 * tunnel whose gateway went silent can hold its port and never answer.
 */
export const FORWARD_TIMEOUT_MS = 5_000;
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
/** The user a gateway shell logs in as (docs/api.md, "Gateway shell"). */
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

/**
 * The steps of opening a reverse-SSH session, in order. A reconnect first tries the last tunnel again
 * (`reuse-tunnel`, then `gateway-login`); when that tunnel no longer leads to the gateway it is stopped
 * (`stop-tunnel`) and a new one asked for as on the first open.
 */
export type ReverseSshStep =
  'relay' | 'reuse-tunnel' | 'stop-tunnel' | 'request-tunnel' | 'wait-for-tunnel' | 'gateway-login';

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

/** The gateway commands the SSH service sends: open and close the reverse tunnel. */
export type TunnelCommandName = 'reverseSsh' | 'stopReverseSsh';

/** The SSH service's dependencies: everything outside plain computation is injected. */
export interface SshServiceDependencies {
  /** Sends a gateway command through the API session (`reverseSsh`, `stopReverseSsh`). */
  runCommand<Name extends TunnelCommandName>(
    gatewayId: string,
    command: Name,
    body: CommandRequest<Name>,
  ): Promise<unknown>;
  knownHosts: KnownHosts;
  /** The keychain's root password for a gateway, if stored. */
  credentials?: { rootPassword(gatewayId: string): Promise<string | undefined> };
  /**
   * Time of the timestamps and logs, and of the tunnel wait: its timeout (`now`) and the pauses between probes
   * (`sleep`), which tests run without waiting. Default SYSTEM_CLOCK.
   */
  clock?: Pick<Clock, 'now' | 'sleep'>;
  /** Session logs go here (on by default); absent: no logs. */
  logsDir?: string;
  createClient?: () => Client;
  /** Opens the TCP connection to the relay or a gateway (default: net.connect with TCP_NODELAY). */
  connectSocket?: (host: string, port: number) => Duplex;
  random?: () => number;
  tunnelTimeoutMs?: number;
  /** How long one probe of a relay port may take (default FORWARD_TIMEOUT_MS). */
  forwardTimeoutMs?: number;
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
  /** True from the moment the client closed (before `lost` resolves, and before ssh2 fails what was pending). */
  isClosed(): boolean;
}

/** What one probe of a relay port found. */
type ForwardProbe =
  | { outcome: 'open'; stream: Duplex }
  /** Nothing listens there (the relay refused the connection). */
  | { outcome: 'refused' }
  /** Something holds the port but did not answer within the forward timeout. */
  | { outcome: 'unanswered' }
  /** The relay link itself is gone. */
  | { outcome: 'lost' };

/** The tunnel a reverse session asked for, kept across reconnects. */
interface TunnelRecord {
  /** The relay port of the last tunnel asked for. */
  port: number | undefined;
  /** A reverseSsh was sent: closing must send stopReverseSsh. */
  hasRequested: boolean;
  /** While a reverseSsh waits for its answer: resolves once it has one (either way). */
  request: Promise<void> | undefined;
}

/** Words for what a reverse connect was doing, for a message when the relay link went away meanwhile. */
const STEP_ACTIVITIES: Record<ReverseSshStep, string> = {
  relay: 'starting on the relay',
  'reuse-tunnel': 'trying the last tunnel again',
  'stop-tunnel': 'stopping the last tunnel',
  'request-tunnel': 'asking the gateway for a tunnel',
  'wait-for-tunnel': "waiting for the gateway's tunnel",
  'gateway-login': 'logging in to the gateway',
};

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
    const clock = deps.clock ?? SYSTEM_CLOCK;
    this.sleep = (milliseconds) => clock.sleep(milliseconds);
  }

  /** Sessions not yet closed. */
  get openSessions(): SshSession[] {
    return [...this.sessions];
  }

  /**
   * Asks the gateway for a reverse tunnel to the relay and opens a root shell through it. Resolves with
   * the open session; rejects with HostKeyChangedError, TunnelTimeoutError, RootPasswordRequiredError
   * or an Error whose message says which step failed (a relay link lost on the way fails at once, naming the
   * relay). The session's reconnect tries the last tunnel first and, when it no longer leads to the gateway, stops
   * it and asks for a new one; every step is bounded, so a reconnect ends. Closing the session sends
   * stopReverseSsh last, also while a (re)connect is under way: that connect sends no reverseSsh after it.
   */
  async openReverse(request: OpenReverseRequest): Promise<SshSession> {
    // What the next connect logs in with: a reconnect may bring a new password (the gateway refused this one).
    const login: GatewayLogin = {
      rootPassword: await this.findRootPassword(request.gatewayId, request.rootPassword),
      isEntered: request.rootPassword !== undefined,
    };
    const tunnel: TunnelRecord = { port: undefined, hasRequested: false, request: undefined };
    const session: SshSession = this.createSession({
      kind: 'reverse',
      title: request.title ?? `${request.gatewayId} (reverse SSH)`,
      gatewayId: request.gatewayId,
      cols: request.cols,
      rows: request.rows,
      ...(request.timestamps ? { timestamps: true } : {}),
      connect: (size, signal, retry) => {
        if (retry?.password) Object.assign(login, { rootPassword: retry.password, isEntered: true });
        return this.connectReverse({ request, login, tunnel, session }, size, signal);
      },
      onClose: () => this.stopTunnel(request.gatewayId, tunnel),
    });
    await this.openOrDiscard(session);
    return session;
  }

  /** Opens a shell on a gateway reachable directly (host:22 on the local network). */
  async openDirect(request: OpenDirectRequest): Promise<SshSession> {
    const port = request.port ?? 22;
    const keyId = request.gatewayId ? `gateway:${request.gatewayId}` : `${request.host}:${port}`;
    let password = request.password;
    const session = this.createSession({
      kind: 'direct',
      title: request.title ?? `${request.gatewayId ?? request.host} (SSH)`,
      ...(request.gatewayId ? { gatewayId: request.gatewayId } : {}),
      cols: request.cols,
      rows: request.rows,
      ...(request.timestamps ? { timestamps: true } : {}),
      connect: async (size, signal, retry) => {
        password = retry?.password ?? password;
        const link = await this.connectClient(
          {
            host: request.host,
            port,
            username: request.username ?? GATEWAY_USER,
            password,
          },
          keyId,
          `${request.host}:${port}`,
          signal,
        );
        return this.openShell([link], size);
      },
    });
    await this.openOrDiscard(session);
    return session;
  }

  /**
   * The explicit "replace key" action after a HostKeyChangedError: pins `fingerprint` for `keyId` only when it is the
   * key that refusal showed (HostKeyNotRefusedError otherwise).
   */
  async replaceHostKey(keyId: string, fingerprint: string): Promise<void> {
    await this.deps.knownHosts.replaceRefusedKey(keyId, fingerprint);
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

  /**
   * One (re)connect of a reverse session: the relay, then the last tunnel again if there was one, else (or when it
   * no longer leads to the gateway) a new tunnel. Every step is bounded; it stops at its next step when the session
   * closes, and at once, saying so, when the relay link goes away.
   */
  private async connectReverse(
    context: ReverseContext,
    size: { cols: number; rows: number },
    signal: AbortSignal,
  ): Promise<SshLink> {
    const { request, tunnel } = context;
    const { relay } = request;
    const relayName = `the relay ${relay.host}:${relay.port}`;
    throwIfClosed(signal);
    request.onProgress?.('relay', `Connecting to ${relayName}`);
    throwIfClosed(signal);
    const relayLink = await this.connectClient(
      { host: relay.host, port: relay.port, username: relay.username, password: relay.password },
      `${relay.host}:${relay.port}`,
      relayName,
      signal,
    );
    const steps = new ConnectSteps(relayLink, signal, request.onProgress);
    try {
      // After a drop the gateway's tunnel may have survived: reuse it before asking for a new one.
      const reused = tunnel.port === undefined ? undefined : await this.reuseTunnel(context, steps, size);
      return reused ?? (await this.openNewTunnel(context, steps, size));
    } catch (error) {
      endClient(relayLink);
      throw error;
    }
  }

  /**
   * Logs in through the last tunnel; undefined when it no longer leads to the gateway (nothing listens on its
   * port, or what does never answers, or the gateway behind it does not complete a login), after stopping it
   * when it still holds its port.
   */
  private async reuseTunnel(
    context: ReverseContext,
    steps: ConnectSteps,
    size: { cols: number; rows: number },
  ): Promise<SshLink | undefined> {
    const { request, tunnel } = context;
    const port = tunnel.port!;
    steps.report('reuse-tunnel', `Trying the tunnel on relay port ${port} again`);
    const probe = await this.probe(steps, port);
    if (probe.outcome === 'refused') return undefined;
    let problem = `nothing answered on relay port ${port}`;
    if (probe.outcome === 'open') {
      steps.report('gateway-login', `Logging in to gateway ${request.gatewayId} as ${GATEWAY_USER}`);
      try {
        return await this.logIn(context, steps, probe.stream, size);
      } catch (error) {
        // A wrong password or a changed host key is the answer; a link that died on the way is not.
        if (
          steps.hasEnded ||
          error instanceof RootPasswordRequiredError ||
          error instanceof HostKeyChangedError
        )
          throw error;
        problem = (error as Error).message;
      }
    }
    steps.report(
      'stop-tunnel',
      `The tunnel on relay port ${port} does not lead to gateway ${request.gatewayId} (${problem}); stopping it`,
    );
    // A stop the gateway does not confirm does not keep it from opening a new tunnel: go on either way.
    await steps.race(this.deps.runCommand(request.gatewayId, 'stopReverseSsh', {}).catch(() => undefined));
    return undefined;
  }

  /** Picks a free relay port, asks the gateway for a tunnel there, waits for it and logs in through it. */
  private async openNewTunnel(
    context: ReverseContext,
    steps: ConnectSteps,
    size: { cols: number; rows: number },
  ): Promise<SshLink> {
    const { request, tunnel, session } = context;
    const { gatewayId, relay } = request;
    steps.enter('looking for a free relay port');
    const port = await this.chooseRevPort(steps, request.portRange);
    tunnel.port = port;
    this.revPorts.set(session, port);
    steps.report('request-tunnel', `Asking gateway ${gatewayId} to open a tunnel on relay port ${port}`);
    // No await between the last check and sending: once the session is closing, no reverseSsh leaves. And the
    // request is on record before it leaves (runCommand may let a close in at once), for a close that comes while it
    // is on its way.
    tunnel.hasRequested = true;
    let answered: () => void = () => undefined;
    const onItsWay = new Promise<void>((resolve) => (answered = resolve));
    tunnel.request = onItsWay;
    const asked = this.requestTunnel(gatewayId, relay, port).finally(() => {
      answered();
      if (tunnel.request === onItsWay) tunnel.request = undefined;
    });
    await steps.race(asked);
    steps.report('wait-for-tunnel', `Waiting for the tunnel on relay port ${port}`);
    const stream = await this.waitForTunnel(steps, gatewayId, relay, port);
    steps.report('gateway-login', `Logging in to gateway ${gatewayId} as ${GATEWAY_USER}`);
    return await this.logIn(context, steps, stream, size);
  }

  /** Logs in to the gateway through `stream` and opens the shell; a refused password asks for the password again. */
  private async logIn(
    context: ReverseContext,
    steps: ConnectSteps,
    stream: Duplex,
    size: { cols: number; rows: number },
  ): Promise<SshLink> {
    const { request, login } = context;
    const { gatewayId } = request;
    const gatewayLink = await steps
      .race(
        this.connectClient(
          { sock: stream, username: GATEWAY_USER, password: login.rootPassword },
          `gateway:${gatewayId}`,
          `the gateway ${gatewayId}`,
          steps.signal,
        ),
        endClient,
      )
      .catch((error: unknown) => {
        if (!(error instanceof AuthenticationRefusedError)) throw error;
        // Asking again is the way out: a stored password that went stale would otherwise lock the user out.
        const tried = login.isEntered ? 'the root password entered' : 'the root password kept for it';
        throw new RootPasswordRequiredError(
          `Gateway ${gatewayId} refused ${tried}. Enter the one on its label.`,
          { cause: error },
        );
      });
    try {
      return await steps.race(this.openShell([steps.relayLink, gatewayLink], size), (link) => link.end());
    } catch (error) {
      endClient(gatewayLink);
      throw error;
    }
  }

  /**
   * The close hook of a reverse session: stops its tunnel so that stopReverseSsh is the last command the gateway
   * gets for it. A reverseSsh still on its way may open its tunnel after a stop that overtook it, so then the stop
   * goes out at once (a tunnel still opening is cancelled where the server can) and again once it has answered.
   */
  private async stopTunnel(gatewayId: string, tunnel: TunnelRecord): Promise<void> {
    if (!tunnel.hasRequested) return;
    const stop = () => this.deps.runCommand(gatewayId, 'stopReverseSsh', {}).then(() => undefined);
    const pending = tunnel.request;
    if (!pending) {
      await stop();
      return;
    }
    await stop().catch(() => undefined);
    await pending;
    await stop();
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

  /**
   * A relay port nobody listens on: random candidates from the range (none another session of this app uses),
   * each probed through the relay. A port whose listener does not answer counts as in use: a dead tunnel holds it.
   */
  private async chooseRevPort(steps: ConnectSteps, range: [number, number] | undefined): Promise<number> {
    const [first, last] = range ?? DEFAULT_REV_PORT_RANGE;
    const size = last - first + 1;
    const start = Math.floor((this.deps.random ?? Math.random)() * size);
    const taken = new Set(this.revPorts.values());
    for (let offset = 0; offset < Math.min(size, MAX_PORT_CANDIDATES); offset += 1) {
      const port = first + ((start + offset) % size);
      if (taken.has(port)) continue;
      const probe = await this.probe(steps, port);
      if (probe.outcome === 'refused') return port;
      if (probe.outcome === 'open') probe.stream.destroy();
    }
    throw new Error(`No free port on the relay between ${first} and ${last}.`);
  }

  /**
   * Probes 127.0.0.1:port through the relay with growing pauses; resolves with the first stream that opens.
   * Rejects with TunnelTimeoutError after the tunnel timeout, and at once when the relay link goes away.
   */
  private async waitForTunnel(
    steps: ConnectSteps,
    gatewayId: string,
    endpoint: RelayEndpoint,
    port: number,
  ): Promise<Duplex> {
    const timeoutMs = this.deps.tunnelTimeoutMs ?? TUNNEL_TIMEOUT_MS;
    const clock = this.deps.clock ?? SYSTEM_CLOCK;
    const now = () => clock.now();
    const startedAt = now();
    let delay = TUNNEL_PROBE_DELAYS_MS.first;
    for (;;) {
      const probe = await this.probe(steps, port);
      if (probe.outcome === 'open') return probe.stream;
      const elapsed = now() - startedAt;
      if (elapsed >= timeoutMs) break;
      await steps.race(this.sleep(Math.min(delay, timeoutMs - elapsed)));
      delay = Math.min(delay * 2, TUNNEL_PROBE_DELAYS_MS.max);
    }
    throw new TunnelTimeoutError(
      `Gateway ${gatewayId} did not open its tunnel on the relay ${endpoint.host}:${endpoint.port} ` +
        `(port ${port}) within ${Math.round(timeoutMs / 1000)} s. It may be offline or unable to reach the relay.`,
    );
  }

  /**
   * One probe of relay port `port`, bounded by the forward timeout; rejects (with the relay's message) instead of
   * answering `lost` when the relay link is gone.
   */
  private async probe(steps: ConnectSteps, port: number): Promise<ForwardProbe> {
    const probe = await steps.race(
      probeForward(steps.relayLink, port, this.deps.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS),
      (late) => {
        if (late.outcome === 'open') late.stream.destroy();
      },
    );
    if (probe.outcome === 'lost') return steps.whenEnded();
    return probe;
  }

  /**
   * Connects and logs in with the host key checked against known hosts; rejects with a plain message, or with
   * SessionClosedError (the client ended) as soon as `signal` aborts.
   */
  private connectClient(
    config: ConnectConfig,
    keyId: string,
    what: string,
    signal?: AbortSignal,
  ): Promise<ConnectedClient> {
    const client = this.deps.createClient?.() ?? new ssh2.Client();
    const socket =
      (config.sock as Duplex | undefined) ??
      this.deps.connectSocket?.(config.host ?? '', config.port ?? 22) ??
      // TCP_NODELAY, as OpenSSH sets for interactive sessions: a keystroke is not held back until the previous
      // packet is acknowledged (Nagle's algorithm).
      connectTcp({ host: config.host ?? '', port: config.port ?? 22, noDelay: true });
    const link = { client, socket };
    let verdict: HostKeyVerdict | undefined;
    let refusal: Error | undefined;
    let lastError: Error | undefined;
    let isClosed = false;
    const lost = new Promise<string>((resolve) => {
      client.on('error', (error) => {
        lastError = error;
      });
      client.on('close', () => {
        isClosed = true;
        resolve(lastError ? `Lost ${what}: ${lastError.message}` : `The connection to ${what} was closed.`);
      });
    });
    return new Promise((resolve, reject) => {
      const stopListening = () => {
        client.off('ready', onReady);
        client.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
      };
      const onError = (error: Error & { level?: string }) => {
        stopListening();
        endClient(link);
        reject(refusal ?? describeConnectError(error, what, config.username ?? ''));
      };
      const onReady = () => {
        stopListening();
        if (!verdict) {
          endClient(link);
          reject(new Error(`${what} was not verified.`));
          return;
        }
        resolve({ client, socket, verdict, lost, isClosed: () => isClosed });
      };
      const onAbort = () => {
        stopListening();
        endClient(link);
        reject(new SessionClosedError());
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
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

/** Asks the relay for a connection to its 127.0.0.1:`port`; a stream that opens after `timeoutMs` is closed. */
function probeForward(link: ConnectedClient, port: number, timeoutMs: number): Promise<ForwardProbe> {
  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (probe: ForwardProbe): boolean => {
      if (isSettled) return false;
      isSettled = true;
      clearTimeout(timer);
      resolve(probe);
      return true;
    };
    const timer = setTimeout(() => settle({ outcome: 'unanswered' }), timeoutMs);
    try {
      link.client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, stream) => {
        // ssh2 fails the channels still opening when the link closes, right after it says so.
        if (error) settle(link.isClosed() ? { outcome: 'lost' } : { outcome: 'refused' });
        else if (!settle({ outcome: 'open', stream })) stream.destroy();
      });
    } catch {
      // ssh2 throws "Not connected" once the link is down.
      settle({ outcome: 'lost' });
    }
  });
}

function throwIfClosed(signal: AbortSignal): void {
  if (signal.aborted) throw new SessionClosedError();
}

/** The root password a reverse session logs in to its gateway with, and whether the user typed it. */
interface GatewayLogin {
  rootPassword: string;
  isEntered: boolean;
}

/** What a reverse connect works with. */
interface ReverseContext {
  request: OpenReverseRequest;
  login: GatewayLogin;
  tunnel: TunnelRecord;
  session: SshSession;
}

/**
 * The steps of one reverse connect over one relay link. Each ends at once when the session closes (with
 * SessionClosedError) or the relay link goes away (with a message about the relay and the step it was at), so no
 * step waits on a link that is gone and none starts after the user closed the tab.
 */
class ConnectSteps {
  readonly #ended: Promise<never>;
  #failure: Error | undefined;
  /** What the flow is doing, for the message when the relay link goes away meanwhile. */
  #activity = 'starting on the relay';

  constructor(
    readonly relayLink: ConnectedClient,
    readonly signal: AbortSignal,
    private readonly onProgress: OpenReverseRequest['onProgress'],
  ) {
    this.#ended = new Promise<never>((_resolve, reject) => {
      const end = (error: Error) => {
        this.#failure ??= error;
        reject(this.#failure);
      };
      if (signal.aborted) end(new SessionClosedError());
      signal.addEventListener('abort', () => end(new SessionClosedError()), { once: true });
      void relayLink.lost.then((reason) =>
        end(new Error(`${reason.replace(/\.$/, '')} (while ${this.#activity}).`)),
      );
    });
    // Only the steps racing it report the failure; unobserved it is no error.
    this.#ended.catch(() => undefined);
  }

  /** True once the session closed or the relay link went away. */
  get hasEnded(): boolean {
    return this.#failure !== undefined;
  }

  /** Tells the caller's progress callback, then throws if the flow ended (the callback may have closed the tab). */
  report(step: ReverseSshStep, detail: string): void {
    this.#activity = STEP_ACTIVITIES[step];
    this.check();
    this.onProgress?.(step, detail);
    this.check();
  }

  /** Says what the flow does next without a progress step of its own (for the message if the relay goes away). */
  enter(activity: string): void {
    this.#activity = activity;
  }

  /** Throws why the flow ended, if it did. */
  check(): void {
    if (this.#failure) throw this.#failure;
  }

  /** Rejects with why the flow ended, once it does. */
  whenEnded(): Promise<never> {
    return this.#ended;
  }

  /**
   * `work`, or why the flow ended, whichever comes first; `dispose` gets what `work` brings if it comes too late
   * (a stream or client nobody would close otherwise).
   */
  race<T>(work: Promise<T>, dispose?: (late: T) => void): Promise<T> {
    return Promise.race([work, this.#ended]).catch((error: unknown) => {
      if (dispose && this.hasEnded) work.then(dispose, () => undefined);
      throw error;
    });
  }
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
