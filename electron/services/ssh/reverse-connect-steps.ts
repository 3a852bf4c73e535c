import type { Duplex } from 'node:stream';
import type { ConnectedClient } from './ssh-connection';
import { SessionClosedError } from './ssh-session';
import { t, type MessageKey } from '../../shared/i18n';
import type { Clock } from '../../shared/clock';

/**
 * The steps of opening a reverse-SSH session, in order. A reconnect first tries the last tunnel again
 * (`reuse-tunnel`, then `gateway-login`); when that tunnel no longer leads to the gateway it is stopped
 * (`stop-tunnel`) and a new one asked for as on the first open.
 */
export type ReverseSshStep =
  'relay' | 'reuse-tunnel' | 'stop-tunnel' | 'request-tunnel' | 'wait-for-tunnel' | 'gateway-login';

/** What a reverse connect does between its steps: looks for a free relay port (no progress step of its own). */
type ReverseSshActivity = ReverseSshStep | 'find-port';

/** The message when the relay link went away meanwhile, by what a reverse connect was doing. */
const STEP_ACTIVITIES: Record<ReverseSshActivity, MessageKey> = {
  relay: 'terminals:relayLostWhileStarting',
  'reuse-tunnel': 'terminals:relayLostWhileReusing',
  'stop-tunnel': 'terminals:relayLostWhileStopping',
  'request-tunnel': 'terminals:relayLostWhileRequesting',
  'wait-for-tunnel': 'terminals:relayLostWhileWaiting',
  'gateway-login': 'terminals:relayLostWhileLoggingIn',
  'find-port': 'terminals:relayLostWhileFindingPort',
};

/** What one probe of a relay port found. */
export type ForwardProbe =
  | { outcome: 'open'; stream: Duplex }
  /** Nothing listens there (the relay refused the connection). */
  | { outcome: 'refused' }
  /** Something holds the port but did not answer within the forward timeout. */
  | { outcome: 'unanswered' }
  /** The relay link itself is gone. */
  | { outcome: 'lost' };

/**
 * Asks the relay for a connection to its 127.0.0.1:`port`; a stream that opens after `timeoutMs` (on `clock`) is
 * closed.
 */
export function probeForward(
  link: ConnectedClient,
  port: number,
  timeoutMs: number,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
): Promise<ForwardProbe> {
  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (probe: ForwardProbe): boolean => {
      if (isSettled) return false;
      isSettled = true;
      clock.clearTimeout(timer);
      resolve(probe);
      return true;
    };
    const timer = clock.setTimeout(() => settle({ outcome: 'unanswered' }), timeoutMs);
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

/** Throws SessionClosedError once the session's signal has fired. */
export function throwIfClosed(signal: AbortSignal): void {
  if (signal.aborted) throw new SessionClosedError();
}

/**
 * The steps of one reverse connect over one relay link. Each ends at once when the session closes (with
 * SessionClosedError) or the relay link goes away (with a message about the relay and the step it was at), so no
 * step waits on a link that is gone and none starts after the user closed the tab.
 */
export class ConnectSteps {
  readonly #ended: Promise<never>;
  #failure: Error | undefined;
  /** What the flow is doing, for the message when the relay link goes away meanwhile. */
  #activity: ReverseSshActivity = 'relay';

  constructor(
    readonly relayLink: ConnectedClient,
    readonly signal: AbortSignal,
    private readonly onProgress: ((step: ReverseSshStep, detail: string) => void) | undefined,
  ) {
    this.#ended = new Promise<never>((_resolve, reject) => {
      const end = (error: Error) => {
        this.#failure ??= error;
        reject(this.#failure);
      };
      if (signal.aborted) end(new SessionClosedError());
      signal.addEventListener('abort', () => end(new SessionClosedError()), { once: true });
      void relayLink.lost.then((reason) =>
        end(new Error(t(STEP_ACTIVITIES[this.#activity], { reason: reason.replace(/\.$/, '') }))),
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
    this.#activity = step;
    this.check();
    this.onProgress?.(step, detail);
    this.check();
  }

  /** Says what the flow does next without a progress step of its own (for the message if the relay goes away). */
  enter(activity: ReverseSshActivity): void {
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
