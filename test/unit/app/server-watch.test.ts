import { describe, expect, it } from 'vitest';
import { ServerWatch, type ServerCheckOutcome } from '../../../electron/app/server-watch';

/** Timers a test fires by hand, recording each delay asked for. */
function manualTimers() {
  const pending: Array<{ callback: () => void; delayMs: number }> = [];
  return {
    delays: [] as number[],
    pending,
    setTimer(callback: () => void, delayMs: number) {
      const timer = { callback, delayMs };
      pending.push(timer);
      this.delays.push(delayMs);
      return timer;
    },
    clearTimer(timer: unknown) {
      pending.splice(pending.indexOf(timer as (typeof pending)[number]), 1);
    },
    async fire() {
      const timer = pending.shift();
      if (!timer) throw new Error('no timer pending');
      timer.callback();
      // Let the check's promise settle.
      for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    },
  };
}

function buildWatch(answers: ServerCheckOutcome[]) {
  const timers = manualTimers();
  const outcomes: ServerCheckOutcome[] = [];
  const watch = new ServerWatch({
    check: async () => answers.shift() ?? 'unreachable',
    onOutcome: (outcome) => outcomes.push(outcome),
    intervalMs: 30_000,
    maxIntervalMs: 100_000,
    setTimer: (callback, delayMs) => timers.setTimer(callback, delayMs),
    clearTimer: (timer) => timers.clearTimer(timer),
  });
  return { watch, timers, outcomes };
}

describe('ServerWatch', () => {
  it('checks no sooner than the interval, then backs off doubling up to the longest wait', async () => {
    const { watch, timers } = buildWatch([]);
    watch.start();
    for (let check = 0; check < 4; check++) await timers.fire();
    expect(timers.delays).toEqual([30_000, 60_000, 100_000, 100_000, 100_000]);
  });

  it('stops by itself once the session is resumed, and reports it', async () => {
    const { watch, timers, outcomes } = buildWatch(['unreachable', 'resumed']);
    watch.start();
    await timers.fire();
    await timers.fire();
    expect(outcomes).toEqual(['unreachable', 'resumed']);
    expect(watch.isWatching).toBe(false);
    expect(timers.pending).toHaveLength(0);
  });

  it('stops once the server answers, so the user can be offered to sign in', async () => {
    const { watch, timers, outcomes } = buildWatch(['reachable']);
    watch.start();
    await timers.fire();
    expect(outcomes).toEqual(['reachable']);
    expect(watch.isWatching).toBe(false);
  });

  it('starts once however often it is asked to', () => {
    const { watch, timers } = buildWatch([]);
    watch.start();
    watch.start();
    expect(timers.pending).toHaveLength(1);
  });

  it('schedules nothing after stop', async () => {
    const { watch, timers } = buildWatch([]);
    watch.start();
    watch.stop();
    expect(timers.pending).toHaveLength(0);
    expect(watch.isWatching).toBe(false);
  });
});
