import type { Client } from 'ssh2';
import type { Duplex } from 'node:stream';
import { SessionLog } from '../terminal-core';
import type { KnownHosts } from './known-hosts';
import {
  ReverseTunnels,
  RootPasswordRequiredError,
  type GatewayLogin,
  type OpenReverseRequest,
  type TunnelCommandRunner,
  type TunnelRecord,
} from './reverse-tunnel';
import { GATEWAY_USER, SshConnector } from './ssh-connection';
import { SshSession } from './ssh-session';
import type { Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

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
  /** The gateway's name (and MAC) for the session log's file name; default its id, else the title. */
  logName?: string;
  /** Prefix each line shown with its local time (see SshSessionOptions.timestamps). */
  timestamps?: boolean;
}

/** The SSH service's dependencies: everything outside plain computation is injected. */
export interface SshServiceDependencies {
  /** Sends a gateway command through the API session (`reverseSsh`, `stopReverseSsh`). */
  runCommand: TunnelCommandRunner;
  knownHosts: KnownHosts;
  /** The keychain's root password for a gateway, if stored. */
  credentials?: { rootPassword(gatewayId: string): Promise<string | undefined> };
  /**
   * Time of the timestamps and logs, and of the tunnel wait: its timeout (`now`) and the pauses between probes
   * (`sleep`), which tests run without waiting; its timers time each probe, a closing link's grace and the logs'
   * write delay. Default SYSTEM_CLOCK.
   */
  clock?: Clock;
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

/**
 * Opens SSH terminals to gateways: through a reverse tunnel on a relay (ReverseTunnels) or directly on the local
 * network, and keeps the sessions not yet closed. Every host key is checked against `knownHosts` (relay pinned by
 * `host:port`, gateway by `gateway:<id>`; SshConnector); keepalive is always on.
 */
export class SshService {
  private readonly sessions = new Set<SshSession>();
  /** The tunnel of each reverse session, so two sessions never pick the same relay port. */
  private readonly tunnels = new Map<SshSession, TunnelRecord>();
  private readonly connector: SshConnector;
  private readonly reverseTunnels: ReverseTunnels;

  constructor(private readonly deps: SshServiceDependencies) {
    this.connector = new SshConnector({
      knownHosts: deps.knownHosts,
      ...(deps.createClient ? { createClient: deps.createClient } : {}),
      ...(deps.connectSocket ? { connectSocket: deps.connectSocket } : {}),
      ...(deps.keepaliveIntervalMs !== undefined ? { keepaliveIntervalMs: deps.keepaliveIntervalMs } : {}),
      ...(deps.keepaliveCountMax !== undefined ? { keepaliveCountMax: deps.keepaliveCountMax } : {}),
      ...(deps.readyTimeoutMs !== undefined ? { readyTimeoutMs: deps.readyTimeoutMs } : {}),
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
    this.reverseTunnels = new ReverseTunnels({
      runCommand: (gatewayId, command, body) => deps.runCommand(gatewayId, command, body),
      connector: this.connector,
      takenPorts: () => this.takenPorts(),
      ...(deps.clock ? { clock: deps.clock } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      ...(deps.tunnelTimeoutMs !== undefined ? { tunnelTimeoutMs: deps.tunnelTimeoutMs } : {}),
      ...(deps.forwardTimeoutMs !== undefined ? { forwardTimeoutMs: deps.forwardTimeoutMs } : {}),
    });
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
    const session = this.createSession({
      kind: 'reverse',
      title: request.title ?? t('terminals:titleReverse', { name: request.gatewayId }),
      gatewayId: request.gatewayId,
      ...(request.logName ? { logName: request.logName } : {}),
      cols: request.cols,
      rows: request.rows,
      ...(request.timestamps ? { timestamps: true } : {}),
      connect: (size, signal, retry) => {
        if (retry?.password) Object.assign(login, { rootPassword: retry.password, isEntered: true });
        return this.reverseTunnels.connect({ request, login, tunnel }, size, signal);
      },
      onClose: () => this.reverseTunnels.stop(request.gatewayId, tunnel),
    });
    this.tunnels.set(session, tunnel);
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
      title: request.title ?? t('terminals:titleDirect', { name: request.gatewayId ?? request.host }),
      ...(request.gatewayId ? { gatewayId: request.gatewayId } : {}),
      ...(request.logName ? { logName: request.logName } : {}),
      cols: request.cols,
      rows: request.rows,
      ...(request.timestamps ? { timestamps: true } : {}),
      connect: async (size, signal, retry) => {
        password = retry?.password ?? password;
        const link = await this.connector.connect(
          {
            host: request.host,
            port,
            username: request.username ?? GATEWAY_USER,
            password,
          },
          keyId,
          { kind: 'host', name: `${request.host}:${port}` },
          signal,
        );
        return this.connector.openShell([link], size);
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

  private createSession({
    logName,
    ...options
  }: Omit<
    ConstructorParameters<typeof SshSession>[0],
    'openLog' | 'highWatermark' | 'lowWatermark' | 'receiveWindowBytes' | 'clock'
  > & { logName?: string }): SshSession {
    const { logsDir, clock } = this.deps;
    const session = new SshSession({
      ...options,
      ...(clock ? { clock } : {}),
      ...(logsDir
        ? {
            openLog: () =>
              SessionLog.tryOpen({
                logsDir,
                gateway: logName ?? options.gatewayId ?? options.title,
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
      this.tunnels.delete(session);
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
    throw new RootPasswordRequiredError(t('terminals:rootPasswordNeeded', { gateway: gatewayId }));
  }

  private *takenPorts(): Iterable<number> {
    for (const tunnel of this.tunnels.values()) if (tunnel.port !== undefined) yield tunnel.port;
  }
}
