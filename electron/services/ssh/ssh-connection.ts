import { connect as connectTcp } from 'node:net';
import type { Duplex } from 'node:stream';
import ssh2 from 'ssh2';
import type { Client, ClientChannel, ConnectConfig } from 'ssh2';
import { HostKeyChangedError } from './host-key-errors';
import type { HostKeyVerdict, KnownHosts } from './known-hosts';
import { RECEIVE_WINDOW_MIN_BYTES, ReceiveWindow } from './receive-window';
import { SessionClosedError, type SshLink, type SshLinkEnd } from './ssh-session';
import { t, type MessageKey } from '../../shared/i18n';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/** SSH keepalive on every link the app opens: a silent drop is noticed within interval × count. */
export const KEEPALIVE_INTERVAL_MS = 10_000;
/** Unanswered keepalives before a link counts as dropped. */
export const KEEPALIVE_COUNT_MAX = 3;
/** How long an SSH handshake and login may take. */
export const READY_TIMEOUT_MS = 20_000;
/** How long a closing client may take to say goodbye before its socket is destroyed. */
export const CLIENT_END_GRACE_MS = 3_000;
/** The user a gateway shell logs in as (docs/api.md, "Gateway shell"). */
export const GATEWAY_USER = 'root';

/** Who a link goes to, as its messages name it: the relay, a gateway (by id) or a host (direct SSH). */
export interface SshPeer {
  kind: 'relay' | 'gateway' | 'host';
  /** `host:port` of the relay or host, the gateway's id. */
  name: string;
}

/** What happened on a link, each said per kind of peer (a whole sentence each, for the languages' grammar). */
type LinkEvent =
  'lost' | 'closed' | 'unverified' | 'passwordRefused' | 'handshakeTimeout' | 'unreachable' | 'failed';

const LINK_MESSAGES: Record<SshPeer['kind'], Record<LinkEvent, MessageKey>> = {
  relay: {
    lost: 'terminals:relayLost',
    closed: 'terminals:relayClosed',
    unverified: 'terminals:relayUnverified',
    passwordRefused: 'terminals:relayPasswordRefused',
    handshakeTimeout: 'terminals:relayHandshakeTimeout',
    unreachable: 'terminals:relayUnreachable',
    failed: 'terminals:relayFailed',
  },
  gateway: {
    lost: 'terminals:gatewayLost',
    closed: 'terminals:gatewayClosed',
    unverified: 'terminals:gatewayUnverified',
    passwordRefused: 'terminals:gatewayPasswordRefused',
    handshakeTimeout: 'terminals:gatewayHandshakeTimeout',
    unreachable: 'terminals:gatewayUnreachable',
    failed: 'terminals:gatewayFailed',
  },
  host: {
    lost: 'terminals:hostLost',
    closed: 'terminals:hostClosed',
    unverified: 'terminals:hostUnverified',
    passwordRefused: 'terminals:hostPasswordRefused',
    handshakeTimeout: 'terminals:hostHandshakeTimeout',
    unreachable: 'terminals:hostUnreachable',
    failed: 'terminals:hostFailed',
  },
};

/** A link's message about `peer`, in the language shown now. */
function say(peer: SshPeer, event: LinkEvent, params: Record<string, string> = {}): string {
  return t(LINK_MESSAGES[peer.kind][event], { name: peer.name, ...params });
}

/** How an SshConnector opens and keeps its links (defaults: the constants above, ssh2 and net.connect). */
export interface SshConnectorOptions {
  knownHosts: KnownHosts;
  createClient?: () => Client;
  /** Opens the TCP connection to the relay or a gateway (default: net.connect with TCP_NODELAY). */
  connectSocket?: (host: string, port: number) => Duplex;
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  readyTimeoutMs?: number;
  /** The timer of a closing client's grace period (CLIENT_END_GRACE_MS); default SYSTEM_CLOCK. */
  clock?: Pick<Clock, 'setTimeout'>;
}

/** An SSH server refused the user name and password (ssh2's `client-authentication` failure). */
export class AuthenticationRefusedError extends Error {
  override readonly name = 'AuthenticationRefusedError';
}

/** A logged-in ssh2 client, its host key checked. */
export interface ConnectedClient {
  client: Client;
  /** The stream under the client: ours, so a link whose peer went silent can still be torn down. */
  socket: Duplex;
  verdict: HostKeyVerdict;
  /** Resolves with the reason the client went away (error text, or a plain "closed"). */
  lost: Promise<string>;
  /** True from the moment the client closed (before `lost` resolves, and before ssh2 fails what was pending). */
  isClosed(): boolean;
}

/**
 * The ssh2 side of the SSH service: logs in with every host key checked against known hosts (keepalive always
 * on) and opens a shell at the end of a chain of links.
 */
export class SshConnector {
  /** Ends a client politely, and for good after the grace period (endClient on this connector's clock). */
  readonly endClient: (link: { client: Client; socket: Duplex }) => void;

  constructor(private readonly options: SshConnectorOptions) {
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.endClient = (link) => endClient(link, clock);
  }

  /**
   * Connects and logs in with the host key checked against known hosts; rejects with a plain message, or with
   * SessionClosedError (the client ended) as soon as `signal` aborts.
   */
  connect(
    config: ConnectConfig,
    keyId: string,
    peer: SshPeer,
    signal?: AbortSignal,
  ): Promise<ConnectedClient> {
    const client = this.options.createClient?.() ?? new ssh2.Client();
    const socket =
      (config.sock as Duplex | undefined) ??
      this.options.connectSocket?.(config.host ?? '', config.port ?? 22) ??
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
        resolve(lastError ? say(peer, 'lost', { reason: lastError.message }) : say(peer, 'closed'));
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
        this.endClient(link);
        reject(refusal ?? describeConnectError(error, peer, config.username ?? ''));
      };
      const onReady = () => {
        stopListening();
        if (!verdict) {
          this.endClient(link);
          reject(new Error(say(peer, 'unverified')));
          return;
        }
        resolve({ client, socket, verdict, lost, isClosed: () => isClosed });
      };
      const onAbort = () => {
        stopListening();
        this.endClient(link);
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
        readyTimeout: this.options.readyTimeoutMs ?? READY_TIMEOUT_MS,
        keepaliveInterval: this.options.keepaliveIntervalMs ?? KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: this.options.keepaliveCountMax ?? KEEPALIVE_COUNT_MAX,
        hostVerifier: (key: Buffer, verify: (isValid: boolean) => void) => {
          this.options.knownHosts.verify(keyId, key).then(
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

  /** Opens the shell on the last of `links` (relay first); ending the link ends them all, last first. */
  openShell(links: ConnectedClient[], size: { cols: number; rows: number }): Promise<SshLink> {
    const shellClient = links[links.length - 1]!.client;
    const endAll = () => [...links].reverse().forEach(this.endClient);
    return new Promise((resolve, reject) => {
      // A small first window, so a flood's first megabytes do not arrive ahead of the first keystroke's echo.
      ReceiveWindow.openWithSmallWindow(shellClient, RECEIVE_WINDOW_MIN_BYTES, () =>
        shellClient.shell({ term: 'xterm-256color', cols: size.cols, rows: size.rows }, (error, channel) => {
          if (error) {
            endAll();
            reject(new Error(t('terminals:shellRefused', { reason: error.message })));
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

/**
 * Ends a client politely, and for good after a grace period (on `clock`) if the other side never answers the
 * goodbye. Destroying a socket that already closed does nothing.
 */
export function endClient(link: { client: Client; socket: Duplex }, clock: Pick<Clock, 'setTimeout'>): void {
  link.client.end();
  clock.setTimeout(() => link.socket.destroy(), CLIENT_END_GRACE_MS);
}

function whenLinkEnds(channel: ClientChannel, links: ConnectedClient[]): Promise<SshLinkEnd> {
  let exitReason: string | undefined;
  channel.on('exit', (code: number | null, signal?: string) => {
    exitReason =
      code === null || code === undefined
        ? t('terminals:shellExitedSignal', { signal: signal ?? t('common:unknown') })
        : t('terminals:shellExitedCode', { code: String(code) });
  });
  const channelClosed = new Promise<SshLinkEnd>((resolve) =>
    channel.on('close', () => {
      if (exitReason !== undefined) resolve({ reason: exitReason, isRemoteExit: true });
    }),
  );
  // A gateway that reboots sends the exit status and then drops the link: that is still an exit.
  const dropped = Promise.race(links.map((link) => link.lost)).then((reason) =>
    exitReason === undefined ? { reason, isRemoteExit: false } : { reason: exitReason, isRemoteExit: true },
  );
  return Promise.race([channelClosed, dropped]);
}

function describeConnectError(error: Error & { level?: string }, peer: SshPeer, username: string): Error {
  if (error instanceof HostKeyChangedError) return error;
  const reason = error.message;
  switch (error.level) {
    case 'client-authentication':
      return new AuthenticationRefusedError(say(peer, 'passwordRefused', { username }), { cause: error });
    case 'client-timeout':
      return new Error(say(peer, 'handshakeTimeout'), { cause: error });
    case 'client-socket':
      return new Error(say(peer, 'unreachable', { reason }), { cause: error });
    default:
      return new Error(say(peer, 'failed', { reason }), { cause: error });
  }
}
