/** The first wait between two quiet checks of the server (the issue: no more than once every 30 s). */
export const SERVER_CHECK_INTERVAL_MS = 30_000;
/** The longest wait the backoff reaches. */
export const SERVER_CHECK_MAX_INTERVAL_MS = 5 * 60_000;

/** What one check found. */
export type ServerCheckOutcome = 'resumed' | 'reachable' | 'unreachable';

/** What the watch needs. */
export interface ServerWatchOptions {
  /** One quiet check: resume the remembered session, or just see whether the server answers. */
  check: () => Promise<ServerCheckOutcome>;
  /** Told after each check. */
  onOutcome?: (outcome: ServerCheckOutcome) => void;
  intervalMs?: number;
  maxIntervalMs?: number;
  setTimer?: (callback: () => void, delayMs: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Checks the server now and then while the app works without it: the first check `intervalMs` after `start`,
 * then doubling up to `maxIntervalMs` while it stays unreachable. Stops by itself once a check resumed the session
 * or found the server answering; one check at a time, never more often than `intervalMs`.
 */
export class ServerWatch {
  private readonly intervalMs: number;
  private readonly maxIntervalMs: number;
  private readonly setTimer: (callback: () => void, delayMs: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;
  private timer: unknown = null;
  private delayMs: number;
  private isChecking = false;
  /** Bumped by `stop`, so a check running then does not schedule the next one. */
  private generation = 0;

  constructor(private readonly options: ServerWatchOptions) {
    this.intervalMs = options.intervalMs ?? SERVER_CHECK_INTERVAL_MS;
    this.maxIntervalMs = Math.max(this.intervalMs, options.maxIntervalMs ?? SERVER_CHECK_MAX_INTERVAL_MS);
    this.delayMs = this.intervalMs;
    this.setTimer = options.setTimer ?? ((callback, delayMs) => setTimeout(callback, delayMs).unref());
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as NodeJS.Timeout));
  }

  /** True while a check is scheduled or running. */
  get isWatching(): boolean {
    return this.timer !== null || this.isChecking;
  }

  /** Starts watching (from the first interval again); does nothing while a check is scheduled or running. */
  start(): void {
    if (this.isWatching) return;
    this.delayMs = this.intervalMs;
    this.schedule();
  }

  /** Stops watching. */
  stop(): void {
    this.generation++;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.delayMs = this.intervalMs;
  }

  private schedule(): void {
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.runCheck();
    }, this.delayMs);
  }

  private async runCheck(): Promise<void> {
    const generation = this.generation;
    this.isChecking = true;
    let outcome: ServerCheckOutcome;
    try {
      outcome = await this.options.check();
    } catch {
      outcome = 'unreachable';
    } finally {
      this.isChecking = false;
    }
    if (generation !== this.generation) return;
    this.options.onOutcome?.(outcome);
    if (outcome !== 'unreachable') return;
    this.delayMs = Math.min(this.maxIntervalMs, this.delayMs * 2);
    this.schedule();
  }
}
