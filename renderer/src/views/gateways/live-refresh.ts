import type { Clock } from '../../../../electron/shared/clock';
import { appClock } from '../../lib/clock';

/** How often a shown page reads its live data again while all is well. */
export const REFRESH_INTERVAL_MS = 10_000;
/** The first wait after a failed refresh; each further failure doubles it, up to REFRESH_BACKOFF_MAX_MS. */
export const REFRESH_BACKOFF_FIRST_MS = 5_000;
/** The longest wait between tries while the server keeps failing. */
export const REFRESH_BACKOFF_MAX_MS = 60_000;
/** How often the page reads again while it follows a change it caused (a reboot going down and coming back). */
export const FOLLOW_INTERVAL_MS = 2_000;

/** Where a LiveRefresh stands, for the page to say when its data was read and when it reads next. */
export interface RefreshStatus {
  /** When the last refresh that succeeded finished (clock time), or null before the first. */
  lastSuccessAt: number | null;
  /** Failed refreshes in a row (0 after a success). */
  failures: number;
  /** When the next refresh is due (clock time), or null while one runs or the refresher is stopped. */
  nextAt: number | null;
  /** True while a refresh runs. */
  isRefreshing: boolean;
}

/** What LiveRefresh needs: the read to repeat, and a clock and visibility test that tests may replace. */
export interface LiveRefreshOptions {
  /** Reads the data again; resolves true when it was read live, false when the server failed. Never rejects. */
  refresh: () => Promise<boolean>;
  clock?: Clock;
  /** False while the page is not shown (a hidden window): timed refreshes are skipped, not run. */
  isVisible?: () => boolean;
  /** Told after every change of status. */
  onStatus?: (status: RefreshStatus) => void;
}

/**
 * Repeats a page's live read: every REFRESH_INTERVAL_MS; after a failure REFRESH_BACKOFF_FIRST_MS, doubling with
 * each further failure up to REFRESH_BACKOFF_MAX_MS; every FOLLOW_INTERVAL_MS while `follow()` is on. Guarantees:
 * one read at a time (a `refreshNow()` during a read runs once it ends), one timer at a time, nothing runs after
 * `stop()`, and a timed read is skipped (and tried again a full interval later) while the page is not visible.
 */
export class LiveRefresh {
  readonly #options: LiveRefreshOptions;
  readonly #clock: Clock;
  #timer: unknown = null;
  #isStopped = true;
  #isRunning = false;
  #isRequested = false;
  #followUntil = 0;
  #status: RefreshStatus = { lastSuccessAt: null, failures: 0, nextAt: null, isRefreshing: false };

  constructor(options: LiveRefreshOptions) {
    this.#options = options;
    this.#clock = options.clock ?? appClock;
  }

  /** Where the refresher stands now. */
  get status(): RefreshStatus {
    return this.#status;
  }

  /** True while reads come every FOLLOW_INTERVAL_MS. */
  get isFollowing(): boolean {
    return this.#clock.now() < this.#followUntil;
  }

  /** Starts the timed reads, the first one interval from now (the page has just read its data). */
  start(): void {
    if (!this.#isStopped) return;
    this.#isStopped = false;
    this.#schedule(this.#delay());
  }

  /** Stops for good: the timer is cleared and a read still running changes nothing more. */
  stop(): void {
    this.#isStopped = true;
    this.#clearTimer();
    this.#setStatus({ nextAt: null });
  }

  /** Reads at once (after the read running now, if one is), then goes on with the timed reads. */
  refreshNow(): Promise<void> {
    if (this.#isStopped) return Promise.resolve();
    if (this.#isRunning) {
      this.#isRequested = true;
      return Promise.resolve();
    }
    return this.#run();
  }

  /** Reads every FOLLOW_INTERVAL_MS for `durationMs` (a change is expected to show), or until `endFollow()`. */
  follow(durationMs: number): void {
    this.#followUntil = this.#clock.now() + durationMs;
    if (!this.#isRunning && !this.#isStopped && this.#status.failures === 0)
      this.#schedule(FOLLOW_INTERVAL_MS);
  }

  /** Back to the usual interval (the change showed). */
  endFollow(): void {
    if (!this.isFollowing) return;
    this.#followUntil = 0;
    if (!this.#isRunning && !this.#isStopped) this.#schedule(this.#delay());
  }

  async #run(): Promise<void> {
    this.#clearTimer();
    this.#isRunning = true;
    this.#setStatus({ isRefreshing: true, nextAt: null });
    const isLive = await this.#options.refresh().catch(() => false);
    this.#isRunning = false;
    if (this.#isStopped) return;
    this.#setStatus(
      isLive
        ? { isRefreshing: false, failures: 0, lastSuccessAt: this.#clock.now() }
        : { isRefreshing: false, failures: this.#status.failures + 1 },
    );
    if (this.#isRequested) {
      this.#isRequested = false;
      return this.#run();
    }
    this.#schedule(this.#delay());
  }

  #delay(): number {
    const { failures } = this.#status;
    if (failures > 0) return Math.min(REFRESH_BACKOFF_FIRST_MS * 2 ** (failures - 1), REFRESH_BACKOFF_MAX_MS);
    return this.isFollowing ? FOLLOW_INTERVAL_MS : REFRESH_INTERVAL_MS;
  }

  #schedule(delayMs: number): void {
    this.#clearTimer();
    this.#setStatus({ nextAt: this.#clock.now() + delayMs });
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = null;
      if (this.#options.isVisible?.() === false) this.#schedule(this.#delay());
      else void this.#run();
    }, delayMs);
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #setStatus(change: Partial<RefreshStatus>): void {
    this.#status = { ...this.#status, ...change };
    this.#options.onStatus?.(this.#status);
  }
}
