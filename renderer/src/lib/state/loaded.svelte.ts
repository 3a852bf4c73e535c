import type { Clock } from '../../../../electron/shared/clock';
import { appClock } from '../clock';
import type { IpcErrorShape, Result, SessionSummary } from '../wire-types';

/** The wait before the first automatic retry of a failed load; each further failure doubles it. */
export const LOAD_RETRY_FIRST_MS = 2_000;
/** The longest wait between automatic retries of a failed load (they go on while the view is open). */
export const LOAD_RETRY_MAX_MS = 60_000;
/**
 * Failures a later try may cure by itself (a server hiccup, an absent or dropped link, a slow answer). The others
 * need someone: a new sign-in (which reloads every view), access, or a changed request.
 */
const RETRYABLE_CODES: ReadonlySet<IpcErrorShape['code']> = new Set([
  'NETWORK',
  'INTERRUPTED',
  'TIMEOUT',
  'API_ERROR',
  'INTERNAL',
]);

/** Where a load stands: not started, under way, done, or failed (with `error`). */
export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/**
 * Who tries a failed load again besides Retry and a change of session (which every load has):
 * - `self` (the default): this state, on the doubling wait, while the view is open;
 * - `owner`: a page that already repeats its reads on a schedule of its own (the gateway page's live refresh)
 *   sets `retryAt` to its next read, so nothing is read twice;
 * - `technician`: nobody on a timer, for a read that sends commands to a gateway (each try is several commands
 *   that may each wait out their timeout): the failure line says to press Retry.
 */
export type LoadRetries = 'self' | 'owner' | 'technician';

/** The timers a load's retries run on (tests pass a ManualClock). */
export type LoadTimers = Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;

/** Every load state of the views open now: a change of session reloads them all at once. */
// A plain Set on purpose: nothing renders from it, so it needs no reactivity.
// eslint-disable-next-line svelte/prefer-svelte-reactivity
const OPEN_LOADS = new Set<LoadState>();

/**
 * Reloads every load that started in a view still open, at once: after a new sign-in, an account switch, the
 * server answering again or the link to main coming back. A load never started (`idle`) stays as it is.
 */
export function reloadEveryLoad(): void {
  for (const load of [...OPEN_LOADS]) load.reloadForSession();
}

/**
 * Who is signed in, as one string that changes when reloading is worth it: another profile, user or customer, or
 * a session coming back from `expired`. Null with no session, and while it is expired (nothing loads then).
 */
export function sessionLoadKey(summary: SessionSummary | null): string | null {
  if (!summary || summary.state === 'expired') return null;
  return [summary.profileId, summary.userId, summary.customerId ?? '', summary.providerId ?? ''].join('|');
}

/**
 * The one recovery behaviour of everything that loads data (docs/architecture.md): a failed load
 * keeps its error, retries by itself on a doubling wait (LOAD_RETRY_FIRST_MS … LOAD_RETRY_MAX_MS) while the view is
 * open (unless `retriesBy` names someone else), offers `retry()` at once, and reloads on a change of session (`reloadEveryLoad`). The owner says when its
 * load begins and ends (`begin`, `succeed`, `fail`); `reload` is how this state starts the owner's load again.
 * `LoadedValue` is the common case of one read; a paged list or a page of several reads reports here itself.
 */
export class LoadState {
  status = $state<LoadStatus>('idle');
  /** Why the last load failed; kept while an automatic retry runs, so the line says why it is trying again. */
  error = $state.raw<IpcErrorShape | null>(null);
  /** Failed loads in a row (0 after a success or a Retry). */
  failures = $state(0);
  /** When the next automatic retry is due (this state's clock), or null when none is. */
  retryAt = $state<number | null>(null);
  readonly #what: string | (() => string);
  readonly #reload: () => void;
  readonly #timers: LoadTimers;
  #timer: unknown = null;

  readonly #retriesBy: LoadRetries;

  /**
   * `what` is a function calling `t` (`() => t('gateways:loadWhat')`) so that the failure line follows a change
   * of language; a plain string stays as it is. `retriesBy` says who tries a failed load again (`LoadRetries`).
   */
  constructor(options: {
    what: string | (() => string);
    reload: () => void;
    timers?: LoadTimers;
    retriesBy?: LoadRetries;
  }) {
    this.#what = options.what;
    this.#reload = options.reload;
    this.#timers = options.timers ?? appClock;
    this.#retriesBy = options.retriesBy ?? 'self';
    OPEN_LOADS.add(this);
  }

  /** What is loaded, in words the failure line uses: "the gateways", "this gateway's alarms". */
  get what(): string {
    return typeof this.#what === 'function' ? this.#what() : this.#what;
  }

  /** True when the last load failed (also while it is being retried). */
  get hasFailed(): boolean {
    return this.error !== null;
  }

  /** True when the failure is one that waits for the technician (or a new session) rather than retrying. */
  get waitsForSomeone(): boolean {
    return this.error !== null && this.retryAt === null && this.status === 'failed';
  }

  /**
   * True when the last load failed in a way a later try may cure, but nothing tries on a timer (`technician`):
   * the failure line then says that Retry is how to try again.
   */
  get isRetriedByHand(): boolean {
    return (
      this.#retriesBy === 'technician' &&
      this.status === 'failed' &&
      this.error !== null &&
      RETRYABLE_CODES.has(this.error.code)
    );
  }

  /** Now, on this state's clock (what the failure line counts down from). */
  now(): number {
    return this.#timers.now();
  }

  /** A load (first, retry or reload) is under way. */
  begin(): void {
    this.#clearTimer();
    this.status = 'loading';
  }

  /** The load answered: the failure, if any, is over. */
  succeed(): void {
    this.#clearTimer();
    this.status = 'loaded';
    this.error = null;
    this.failures = 0;
  }

  /** The load failed: the error is kept, and a retry is scheduled when a later try may cure it. */
  fail(error: IpcErrorShape): void {
    this.#clearTimer();
    this.status = 'failed';
    this.error = error;
    this.failures += 1;
    if (this.#retriesBy !== 'self' || !RETRYABLE_CODES.has(error.code)) return;
    const delay = Math.min(LOAD_RETRY_FIRST_MS * 2 ** (this.failures - 1), LOAD_RETRY_MAX_MS);
    this.retryAt = this.#timers.now() + delay;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null;
      this.retryAt = null;
      this.#reload();
    }, delay);
  }

  /** The Retry button: loads again at once, starting the backoff over. */
  retry(): void {
    this.#clearTimer();
    this.failures = 0;
    this.#reload();
  }

  /** Called by `reloadEveryLoad`: a new session starts every started load over, failed or not. */
  reloadForSession(): void {
    if (this.status === 'idle') return;
    this.retry();
  }

  /** Forgets the failure without loading (the owner's request changed and it loads anew itself). */
  reset(): void {
    this.#clearTimer();
    this.status = 'idle';
    this.error = null;
    this.failures = 0;
  }

  /** The view closed: no more retries, and no reload on a session change. */
  dispose(): void {
    this.#clearTimer();
    OPEN_LOADS.delete(this);
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.retryAt = null;
  }
}

/**
 * One read as runes with the shared recovery: `value` is the last good answer (kept on screen while a reload runs
 * or fails), `state` the load's status and failure. An answer to an older `load()` than the latest is dropped.
 */
export class LoadedValue<T> {
  value = $state.raw<T | null>(null);
  readonly state: LoadState;
  readonly #read: () => Promise<Result<T>>;
  #generation = 0;

  constructor(
    what: string | (() => string),
    read: () => Promise<Result<T>>,
    options: { timers?: LoadTimers; retriesBy?: LoadRetries } = {},
  ) {
    this.#read = read;
    this.state = new LoadState({ what, reload: () => void this.load(), ...options });
  }

  /** Reads now (again); resolves once the answer, or the failure, is in. */
  async load(): Promise<void> {
    const generation = ++this.#generation;
    this.state.begin();
    const answer = await this.#read();
    if (generation !== this.#generation) return;
    if (answer.ok) {
      this.value = answer.value;
      this.state.succeed();
    } else this.state.fail(answer.error);
  }

  /** The view closed: later answers are dropped and nothing retries. */
  dispose(): void {
    this.#generation++;
    this.state.dispose();
  }
}
