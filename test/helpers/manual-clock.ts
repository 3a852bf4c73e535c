import type { Clock } from '../../electron/shared/clock';

/** The instant the simulator's tests start at: fixed, so that tokens and dates in answers are stable. */
export const SIMULATED_START_MS = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The one fake clock of the tests: time and timers move only when the test advances it. */
export class ManualClock implements Clock {
  time: number;
  timers: { at: number; callback: () => void }[] = [];

  constructor(startMs = 0) {
    this.time = startMs;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const timer = { at: this.time + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer !== handle);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer = this.setTimeout(resolve, ms);
      signal?.addEventListener(
        'abort',
        () => {
          this.clearTimeout(timer);
          reject(signal.reason as Error);
        },
        { once: true },
      );
    });
  }

  /** Moves time forward by `ms` and runs every timer now due, in due order. */
  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((candidate) => candidate.at <= this.time);
    due.sort((left, right) => left.at - right.at);
    for (const timer of due) {
      this.clearTimeout(timer);
      timer.callback();
    }
  }
}
