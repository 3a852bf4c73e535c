import type { CommandRequest } from '../../shared/api/commands';
import type { Duplex } from 'node:stream';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { HostKeyChangedError } from './host-key-errors';
import { t } from '../../shared/i18n';
import { AuthenticationRefusedError, GATEWAY_USER, type SshConnector } from './ssh-connection';
import type { SshLink } from './ssh-session';
import {
  ConnectSteps,
  probeForward,
  throwIfClosed,
  type ForwardProbe,
  type ReverseSshStep,
} from './reverse-connect-steps';

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
/** Relay ports tried when the profile names no range (unprivileged, outside common ephemeral ranges). */
export const DEFAULT_REV_PORT_RANGE: [number, number] = [20_000, 29_999];
/** Candidate ports probed before giving up on finding a free one. */
export const MAX_PORT_CANDIDATES = 20;

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
  /** The gateway's name (and MAC) for the session log's file name; default its id. */
  logName?: string;
  /** Prefix each line shown with its local time (see SshSessionOptions.timestamps). */
  timestamps?: boolean;
  /** Told each step of the (re)connection, in words for a status line. */
  onProgress?(step: ReverseSshStep, detail: string): void;
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

/** The tunnel a reverse session asked for, kept across reconnects. */
export interface TunnelRecord {
  /** The relay port of the last tunnel asked for. */
  port: number | undefined;
  /** A reverseSsh was sent: closing must send stopReverseSsh. */
  hasRequested: boolean;
  /** While a reverseSsh waits for its answer: resolves once it has one (either way). */
  request: Promise<void> | undefined;
}

/** The gateway commands the tunnel protocol sends: open and close the reverse tunnel. */
export type TunnelCommandName = 'reverseSsh' | 'stopReverseSsh';

/** Sends one of those commands to a gateway through the API session. */
export type TunnelCommandRunner = <Name extends TunnelCommandName>(
  gatewayId: string,
  command: Name,
  body: CommandRequest<Name>,
) => Promise<unknown>;

/** What ReverseTunnels needs: the API session, the ssh2 side and time (tests shorten the waits). */
export interface ReverseTunnelsOptions {
  /** Sends a gateway command through the API session (`reverseSsh`, `stopReverseSsh`). */
  runCommand: TunnelCommandRunner;
  connector: SshConnector;
  /** The relay ports the app's other reverse sessions use, so two sessions never pick the same one. */
  takenPorts(): Iterable<number>;
  /**
   * The tunnel wait's timeout (`now`), the pauses between probes (`sleep`) and each probe's time limit (the
   * timers). Default SYSTEM_CLOCK.
   */
  clock?: Clock;
  random?: () => number;
  tunnelTimeoutMs?: number;
  /** How long one probe of a relay port may take (default FORWARD_TIMEOUT_MS). */
  forwardTimeoutMs?: number;
}

/**
 * The reverse-tunnel protocol: reverseSsh → wait for the tunnel on the relay → SSH to the gateway through it, the
 * last tunnel tried again on a reconnect, and stopReverseSsh as the last word on close.
 */
export class ReverseTunnels {
  readonly #clock: Clock;

  constructor(private readonly options: ReverseTunnelsOptions) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /**
   * One (re)connect of a reverse session: the relay, then the last tunnel again if there was one, else (or when it
   * no longer leads to the gateway) a new tunnel. Every step is bounded; it stops at its next step when the session
   * closes, and at once, saying so, when the relay link goes away.
   */
  async connect(
    context: ReverseContext,
    size: { cols: number; rows: number },
    signal: AbortSignal,
  ): Promise<SshLink> {
    const { request, tunnel } = context;
    const { relay } = request;
    const relayName = `${relay.host}:${relay.port}`;
    throwIfClosed(signal);
    request.onProgress?.('relay', t('terminals:progressRelay', { relay: relayName }));
    throwIfClosed(signal);
    const relayLink = await this.options.connector.connect(
      { host: relay.host, port: relay.port, username: relay.username, password: relay.password },
      relayName,
      { kind: 'relay', name: relayName },
      signal,
    );
    const steps = new ConnectSteps(relayLink, signal, request.onProgress);
    try {
      // After a drop the gateway's tunnel may have survived: reuse it before asking for a new one.
      const reused = tunnel.port === undefined ? undefined : await this.reuseTunnel(context, steps, size);
      return reused ?? (await this.openNewTunnel(context, steps, size));
    } catch (error) {
      this.options.connector.endClient(relayLink);
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
    steps.report('reuse-tunnel', t('terminals:progressReuseTunnel', { port }));
    const probe = await this.probe(steps, port);
    if (probe.outcome === 'refused') return undefined;
    let problem = t('terminals:tunnelNoAnswer', { port });
    if (probe.outcome === 'open') {
      steps.report(
        'gateway-login',
        t('terminals:progressGatewayLogin', { gateway: request.gatewayId, user: GATEWAY_USER }),
      );
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
      t('terminals:progressStopTunnel', { port, gateway: request.gatewayId, problem }),
    );
    // A stop the gateway does not confirm does not keep it from opening a new tunnel: go on either way.
    await steps.race(this.options.runCommand(request.gatewayId, 'stopReverseSsh', {}).catch(() => undefined));
    return undefined;
  }

  /** Picks a free relay port, asks the gateway for a tunnel there, waits for it and logs in through it. */
  private async openNewTunnel(
    context: ReverseContext,
    steps: ConnectSteps,
    size: { cols: number; rows: number },
  ): Promise<SshLink> {
    const { request, tunnel } = context;
    const { gatewayId, relay } = request;
    steps.enter('find-port');
    const port = await this.chooseRevPort(steps, request.portRange);
    tunnel.port = port;
    steps.report('request-tunnel', t('terminals:progressRequestTunnel', { gateway: gatewayId, port }));
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
    steps.report('wait-for-tunnel', t('terminals:progressWaitTunnel', { port }));
    const stream = await this.waitForTunnel(steps, gatewayId, relay, port);
    steps.report(
      'gateway-login',
      t('terminals:progressGatewayLogin', { gateway: gatewayId, user: GATEWAY_USER }),
    );
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
        this.options.connector.connect(
          { sock: stream, username: GATEWAY_USER, password: login.rootPassword },
          `gateway:${gatewayId}`,
          { kind: 'gateway', name: gatewayId },
          steps.signal,
        ),
        this.options.connector.endClient,
      )
      .catch((error: unknown) => {
        if (!(error instanceof AuthenticationRefusedError)) throw error;
        // Asking again is the way out: a stored password that went stale would otherwise lock the user out.
        const refused = login.isEntered
          ? t('terminals:rootPasswordEnteredRefused', { gateway: gatewayId })
          : t('terminals:rootPasswordKeptRefused', { gateway: gatewayId });
        throw new RootPasswordRequiredError(refused, { cause: error });
      });
    try {
      return await steps.race(
        this.options.connector.openShell([steps.relayLink, gatewayLink], size),
        (link) => link.end(),
      );
    } catch (error) {
      this.options.connector.endClient(gatewayLink);
      throw error;
    }
  }

  /**
   * The close hook of a reverse session: stops its tunnel so that stopReverseSsh is the last command the gateway
   * gets for it. A reverseSsh still on its way may open its tunnel after a stop that overtook it, so then the stop
   * goes out at once (a tunnel still opening is cancelled where the server can) and again once it has answered.
   */
  async stop(gatewayId: string, tunnel: TunnelRecord): Promise<void> {
    if (!tunnel.hasRequested) return;
    const stop = () => this.options.runCommand(gatewayId, 'stopReverseSsh', {}).then(() => undefined);
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
      await this.options.runCommand(gatewayId, 'reverseSsh', {
        options: REVERSE_SSH_OPTIONS,
        sshRevPort,
        username: relay.username,
        password: relay.password,
        sshHost: relay.host,
        sshPort: relay.port,
      });
    } catch (error) {
      throw new Error(
        t('terminals:tunnelRequestFailed', { gateway: gatewayId, reason: (error as Error).message }),
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
    const start = Math.floor((this.options.random ?? Math.random)() * size);
    const taken = new Set(this.options.takenPorts());
    for (let offset = 0; offset < Math.min(size, MAX_PORT_CANDIDATES); offset += 1) {
      const port = first + ((start + offset) % size);
      if (taken.has(port)) continue;
      const probe = await this.probe(steps, port);
      if (probe.outcome === 'refused') return port;
      if (probe.outcome === 'open') probe.stream.destroy();
    }
    throw new Error(t('terminals:relayNoFreePort', { first, last }));
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
    const timeoutMs = this.options.tunnelTimeoutMs ?? TUNNEL_TIMEOUT_MS;
    const now = () => this.#clock.now();
    const startedAt = now();
    let delay = TUNNEL_PROBE_DELAYS_MS.first;
    for (;;) {
      const probe = await this.probe(steps, port);
      if (probe.outcome === 'open') return probe.stream;
      const elapsed = now() - startedAt;
      if (elapsed >= timeoutMs) break;
      await steps.race(this.#clock.sleep(Math.min(delay, timeoutMs - elapsed)));
      delay = Math.min(delay * 2, TUNNEL_PROBE_DELAYS_MS.max);
    }
    throw new TunnelTimeoutError(
      t('terminals:tunnelTimeout', {
        gateway: gatewayId,
        relay: `${endpoint.host}:${endpoint.port}`,
        port,
        seconds: Math.round(timeoutMs / 1000),
      }),
    );
  }

  /**
   * One probe of relay port `port`, bounded by the forward timeout; rejects (with the relay's message) instead of
   * answering `lost` when the relay link is gone.
   */
  private async probe(steps: ConnectSteps, port: number): Promise<ForwardProbe> {
    const probe = await steps.race(
      probeForward(steps.relayLink, port, this.options.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS, this.#clock),
      (late) => {
        if (late.outcome === 'open') late.stream.destroy();
      },
    );
    if (probe.outcome === 'lost') return steps.whenEnded();
    return probe;
  }
}

/** The root password a reverse session logs in to its gateway with, and whether the user typed it. */
export interface GatewayLogin {
  rootPassword: string;
  isEntered: boolean;
}

/** What a reverse connect works with. */
export interface ReverseContext {
  request: OpenReverseRequest;
  login: GatewayLogin;
  tunnel: TunnelRecord;
}
