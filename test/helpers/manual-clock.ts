import type { Clock } from '../../renderer/src/lib/ipc';

/** A clock whose timers run only when the test advances it. */
export class ManualClock implements Clock {
  time = 0;
  timers: { at: number; callback: () => void }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, delayMs: number): unknown {
    const timer = { at: this.time + delayMs, callback };
    this.timers.push(timer);
    return timer;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer !== handle);
  }
  advance(ms: number): void {
    this.time += ms;
    for (const timer of this.timers.filter((candidate) => candidate.at <= this.time)) {
      this.clearTimeout(timer);
      timer.callback();
    }
  }
}
