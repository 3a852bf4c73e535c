import { SERVER_CHECK_INTERVAL_MS } from '../shared/api/timeouts';
import { SYSTEM_CLOCK, type Clock } from '../shared/clock';

export { SERVER_CHECK_INTERVAL_MS };

/** What one check found. */
export type ServerCheckOutcome = 'resumed' | 'reachable' | 'unreachable';

/** What the watch needs. */
export interface ServerWatchOptions {
  /** One quiet check: see whether the server answers, and resume the remembered session when it does. */
  check: () => Promise<ServerCheckOutcome>;
  /** Told after each check. */
  onOutcome?: (outcome: ServerCheckOutcome) => void;
  intervalMs?: number;
  /**
   * The wait between checks while the server answers; absent, the watch stops once a check found it answering
   * (until `start` or an unreachable outcome starts it again).
   */
  answeringIntervalMs?: number;
  /** Timers and time: the app's Clock (default SYSTEM_CLOCK). `stop` clears the timer, so none outlives the app. */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
}

/**
 * Checks the server: a check every `intervalMs` from `start` while it is unreachable (counted from the start of the
 * previous check, so a slow check does not stretch the interval), and at once on `checkNow`. Once a check resumed
 * the session or found the server answering, goes on every `answeringIntervalMs` when given, else stops; never two
 * checks at a time. An outcome learned elsewhere (`learn`: a request failed to reach the server, or was answered)
 * counts as a check's.
 */
export class ServerWatch {
  private readonly intervalMs: number;
  private readonly answeringIntervalMs: number | undefined;
  /** What the last check (or `learn`) found, null before any. */
  private lastOutcome: ServerCheckOutcome | null = null;
  private readonly clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  private timer: unknown = null;
  private running: Promise<ServerCheckOutcome> | null = null;
  /** Bumped by `stop`, so a check running then does not schedule the next one. */
  private generation = 0;
  /** True from `stop` until `start` or `checkNow`: an outcome learned meanwhile (a request at quit) schedules nothing. */
  private isStopped = false;

  constructor(private readonly options: ServerWatchOptions) {
    this.intervalMs = options.intervalMs ?? SERVER_CHECK_INTERVAL_MS;
    this.answeringIntervalMs = options.answeringIntervalMs;
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** True while a check is scheduled or running. */
  get isWatching(): boolean {
    return this.timer !== null || this.running !== null;
  }

  /** What the last check (or `learn`) found, null before any. */
  get outcome(): ServerCheckOutcome | null {
    return this.lastOutcome;
  }

  /**
   * Starts watching: the first check one interval from now (the answering one when the server was last found
   * answering and one is given); does nothing while a check is scheduled or running.
   */
  start(): void {
    this.isStopped = false;
    if (this.isWatching) return;
    this.schedule(this.nextIntervalMs() ?? this.intervalMs);
  }

  /**
   * Takes an outcome learned without a check (a request found the server unreachable, or got an answer): told
   * as a check's outcome, and the next check is counted from now at the interval that outcome calls for. A check
   * running meanwhile still reports what it finds.
   */
  learn(outcome: ServerCheckOutcome): void {
    this.lastOutcome = outcome;
    this.options.onOutcome?.(outcome);
    if (this.running || this.isStopped) return;
    this.cancelTimer();
    const next = this.nextIntervalMs();
    if (next !== null) this.schedule(next);
  }

  /** Stops watching; a check running now reports nothing. */
  stop(): void {
    this.isStopped = true;
    this.generation++;
    this.cancelTimer();
  }

  /**
   * Checks now (the user asked, the OS said the network is back, the window got the focus), whether watching or
   * not, and resolves with what the check found; a check already running is joined, not doubled. When the server
   * stays unreachable, the watch goes on from this check.
   */
  checkNow(): Promise<ServerCheckOutcome> {
    if (this.running) return this.running;
    this.isStopped = false;
    this.cancelTimer();
    return this.runCheck();
  }

  /** The wait before the next check after the last outcome; null: no further check. */
  private nextIntervalMs(): number | null {
    if (this.lastOutcome === null || this.lastOutcome === 'unreachable') return this.intervalMs;
    return this.answeringIntervalMs ?? null;
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        void this.runCheck();
      },
      Math.max(0, delayMs),
    );
  }

  private runCheck(): Promise<ServerCheckOutcome> {
    const generation = this.generation;
    const startedAt = this.clock.now();
    const running = this.options
      .check()
      .catch((): ServerCheckOutcome => 'unreachable')
      .then((outcome) => {
        this.running = null;
        if (generation !== this.generation) return outcome;
        this.lastOutcome = outcome;
        this.options.onOutcome?.(outcome);
        const next = this.nextIntervalMs();
        if (next !== null && this.timer === null) this.schedule(next - (this.clock.now() - startedAt));
        return outcome;
      });
    this.running = running;
    return running;
  }
}
