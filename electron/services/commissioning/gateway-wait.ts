import type { Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';
import { CancelledError, GatewayUnreachableError, isUnresponsive } from './gateway-errors';
import type { GatewayCommander } from './types';

/** First pause between probes of a silent gateway. */
export const WAIT_INITIAL_DELAY_MS = 2_000;
/** Longest pause between probes (the backoff doubles up to this). */
export const WAIT_MAX_DELAY_MS = 15_000;
/** Default time a gateway is given to come back (a reboot or an upgrade takes minutes). */
export const GATEWAY_RETURN_TIMEOUT_MS = 10 * 60_000;
/** Upper bound on probes, whatever the deadline (every loop is bounded). */
const MAX_PROBES = 10_000;

/**
 * What the UI shows while waiting: ONE line saying what is awaited (`message`, which holds no count or time that
 * would go stale), and `deadlineAt`, when the wait gives up, from which the UI counts down the time left. `attempt`
 * and `waitedMs` are as of this notice, for logs and tests.
 */
export interface WaitingNotice {
  attempt: number;
  waitedMs: number;
  deadlineAt: number;
  message: string;
}

/** How to wait for a gateway. */
export interface WaitForGatewayOptions {
  clock: Clock;
  signal?: AbortSignal;
  /** Give up after this long (default GATEWAY_RETURN_TIMEOUT_MS). */
  timeoutMs?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Time limit of one probe command. */
  probeTimeoutMs?: number;
  /** Why we are waiting, e.g. "it is rebooting after the upgrade". */
  reason?: string;
  onWaiting?: (notice: WaitingNotice) => void;
}

/**
 * Probes the gateway (getBspStatus, a cheap read) with exponential backoff until it answers, and resolves with
 * how long that took. A refusal (400/404…) also proves the gateway answers. Rejects with
 * GatewayUnreachableError when the deadline passes and CancelledError when the signal aborts.
 */
export async function waitForGateway(
  commander: GatewayCommander,
  gatewayId: string,
  options: WaitForGatewayOptions,
): Promise<{ waitedMs: number; attempts: number }> {
  const { clock, signal } = options;
  const startedAt = clock.now();
  const deadlineAt = startedAt + (options.timeoutMs ?? GATEWAY_RETURN_TIMEOUT_MS);
  let delayMs = options.initialDelayMs ?? WAIT_INITIAL_DELAY_MS;
  const maxDelayMs = options.maxDelayMs ?? WAIT_MAX_DELAY_MS;
  let lastError: unknown;
  for (let attempt = 1; attempt <= MAX_PROBES; attempt++) {
    if (signal?.aborted) throw new CancelledError(t('wizards:cancelledWaiting'));
    const waitedMs = clock.now() - startedAt;
    // One notice per wait, not per probe: each probe would only repeat it (the UI counts down to the deadline).
    if (attempt === 1) {
      options.onWaiting?.({
        attempt,
        waitedMs,
        deadlineAt,
        message: options.reason
          ? t('wizards:waitingForGatewayBecause', { reason: options.reason })
          : t('wizards:waitingForGateway'),
      });
    }
    try {
      await commander.command(gatewayId, 'getBspStatus', {}, { signal, timeoutMs: options.probeTimeoutMs });
      return { waitedMs: clock.now() - startedAt, attempts: attempt };
    } catch (error) {
      if (signal?.aborted) throw new CancelledError(t('wizards:cancelledWaiting'));
      if (!isUnresponsive(error) && !isServerHiccup(error))
        return { waitedMs: clock.now() - startedAt, attempts: attempt };
      lastError = error;
    }
    const remainingMs = deadlineAt - clock.now();
    if (remainingMs <= 0) break;
    try {
      await clock.sleep(Math.min(delayMs, remainingMs), signal);
    } catch {
      throw new CancelledError(t('wizards:cancelledWaiting'));
    }
    delayMs = Math.min(maxDelayMs, delayMs * 2);
  }
  throw new GatewayUnreachableError(gatewayId, clock.now() - startedAt, lastError);
}

function isServerHiccup(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 500;
}
