/** A source of time the simulator reads instead of Date, so tests can advance time instead of sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `ms` have passed on this clock (rejects with the signal's reason when aborted). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock: `Date.now()` and real timers. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

interface Sleeper {
  dueAt: number;
  resolve: () => void;
}

/** A clock that only moves when told to; sleepers wake in due order as `advance` passes them. */
export class FakeClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];

  constructor(startMs = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper: Sleeper = { dueAt: this.current + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((other) => other !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Moves time forward by `ms` and wakes every sleeper that is now due. */
  advance(ms: number): void {
    this.current += ms;
    const due = this.sleepers.filter((sleeper) => sleeper.dueAt <= this.current);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.dueAt > this.current);
    due.sort((left, right) => left.dueAt - right.dueAt).forEach((sleeper) => sleeper.resolve());
  }

  /** How many sleepers are waiting (lets a test wait until a request has reached its wait). */
  get pendingSleepers(): number {
    return this.sleepers.length;
  }
}
