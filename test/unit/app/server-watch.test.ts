import { describe, expect, it } from 'vitest';
import {
  SERVER_CHECK_INTERVAL_MS,
  ServerWatch,
  type ServerCheckOutcome,
} from '../../../electron/app/server-watch';
import { ManualClock } from '../../helpers/manual-clock';

/** Lets the check's promise and the watch's reaction to it settle. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

/**
 * A watch over a server that answers from `answersAt` on (never: Infinity); each check takes `checkMs` of clock
 * time, and the times of the checks are recorded.
 */
function buildWatch(options: {
  answersAt?: number;
  checkMs?: number;
  outcomeWhenAnswering?: ServerCheckOutcome;
  answeringIntervalMs?: number;
  /** The server goes away again at this time (never: Infinity). */
  leavesAt?: number;
}) {
  const clock = new ManualClock(0);
  const checkedAt: number[] = [];
  const outcomes: ServerCheckOutcome[] = [];
  const answersAt = options.answersAt ?? Infinity;
  const watch = new ServerWatch({
    check: async () => {
      checkedAt.push(clock.now());
      if (options.checkMs) await clock.sleep(options.checkMs);
      const isAnswering = clock.now() >= answersAt && clock.now() < (options.leavesAt ?? Infinity);
      return isAnswering ? (options.outcomeWhenAnswering ?? 'reachable') : 'unreachable';
    },
    onOutcome: (outcome) => outcomes.push(outcome),
    answeringIntervalMs: options.answeringIntervalMs,
    clock,
  });
  /** Moves the clock one second at a time (so the checks run as they would) for `ms`. */
  const pass = async (ms: number) => {
    for (let second = 0; second < ms / 1000; second++) {
      clock.advance(1000);
      await settle();
    }
  };
  return { clock, watch, checkedAt, outcomes, pass };
}

describe('ServerWatch', () => {
  it('checks an unreachable server every 10 s, with no backoff', async () => {
    const { watch, checkedAt, pass } = buildWatch({});
    watch.start();
    await pass(10 * 60_000);
    expect(checkedAt).toHaveLength(60);
    const gaps = checkedAt.slice(1).map((at, index) => at - checkedAt[index]!);
    expect(new Set(gaps)).toEqual(new Set([SERVER_CHECK_INTERVAL_MS]));
  });

  it('counts the interval from the start of a slow check, so a check that hangs does not stretch it', async () => {
    const { watch, checkedAt, pass } = buildWatch({ checkMs: 4_000 });
    watch.start();
    await pass(60_000);
    const gaps = checkedAt.slice(1).map((at, index) => at - checkedAt[index]!);
    expect(new Set(gaps)).toEqual(new Set([SERVER_CHECK_INTERVAL_MS]));
  });

  it('notices a server that answers again at any moment within one interval, and stops', async () => {
    for (const answersAt of [10_000, 10_001, 33_000, 39_999, 125_000]) {
      const { watch, outcomes, checkedAt, pass } = buildWatch({ answersAt });
      watch.start();
      await pass(200_000);
      expect(outcomes.at(-1)).toBe('reachable');
      expect(checkedAt.at(-1)! - answersAt).toBeLessThanOrEqual(SERVER_CHECK_INTERVAL_MS);
      expect(watch.isWatching).toBe(false);
    }
  });

  it('stops by itself once the session is resumed, and reports it', async () => {
    const { watch, outcomes, pass } = buildWatch({ answersAt: 15_000, outcomeWhenAnswering: 'resumed' });
    watch.start();
    await pass(60_000);
    expect(outcomes).toEqual(['unreachable', 'resumed']);
    expect(watch.isWatching).toBe(false);
  });

  it('checks at once when asked, and the next check comes one interval after it', async () => {
    const { watch, checkedAt, pass } = buildWatch({});
    watch.start();
    await pass(4_000);
    expect(await watch.checkNow()).toBe('unreachable');
    expect(checkedAt).toEqual([4_000]);
    await pass(10_000);
    expect(checkedAt).toEqual([4_000, 14_000]);
  });

  it('joins a check already running instead of starting another', async () => {
    const { watch, checkedAt, clock } = buildWatch({ checkMs: 3_000 });
    const first = watch.checkNow();
    const second = watch.checkNow();
    clock.advance(3_000);
    expect(await Promise.all([first, second])).toEqual(['unreachable', 'unreachable']);
    expect(checkedAt).toHaveLength(1);
  });

  it('starts once however often it is asked to', async () => {
    const { watch, checkedAt, pass } = buildWatch({});
    watch.start();
    watch.start();
    await pass(10_000);
    expect(checkedAt).toHaveLength(1);
  });

  it('checks nothing after stop, and a check running then reports nothing', async () => {
    const { watch, checkedAt, outcomes, clock, pass } = buildWatch({ checkMs: 2_000 });
    void watch.checkNow();
    watch.stop();
    clock.advance(2_000);
    await settle();
    await pass(60_000);
    expect(checkedAt).toHaveLength(1);
    expect(outcomes).toEqual([]);
    expect(watch.isWatching).toBe(false);
  });

  it('goes on checking every answering interval while the server answers, and notices it going away', async () => {
    const { watch, checkedAt, outcomes, pass } = buildWatch({
      answersAt: 0,
      leavesAt: 100_000,
      answeringIntervalMs: 15_000,
    });
    watch.start();
    await pass(130_000);
    expect(checkedAt.slice(0, 7)).toEqual([10_000, 25_000, 40_000, 55_000, 70_000, 85_000, 100_000]);
    expect(outcomes.slice(5, 7)).toEqual(['reachable', 'unreachable']);
    // Away: back to the 10 s checks.
    expect(checkedAt.slice(7)).toEqual([110_000, 120_000, 130_000]);
    expect(watch.isWatching).toBe(true);
  });

  it('tells an outcome learned from a request at once, and counts the next check from it', async () => {
    const { watch, checkedAt, outcomes, pass } = buildWatch({ answersAt: 0, answeringIntervalMs: 15_000 });
    watch.start();
    await pass(12_000);
    expect(outcomes).toEqual(['reachable']);
    watch.learn('unreachable');
    expect(outcomes).toEqual(['reachable', 'unreachable']);
    expect(watch.outcome).toBe('unreachable');
    await pass(10_000);
    expect(checkedAt).toEqual([10_000, 22_000]);
  });

  it('schedules nothing for an outcome learned after stop (a request failing at quit)', async () => {
    const { watch, checkedAt, outcomes, pass } = buildWatch({ answeringIntervalMs: 15_000 });
    watch.start();
    watch.stop();
    watch.learn('unreachable');
    expect(outcomes).toEqual(['unreachable']);
    await pass(60_000);
    expect(checkedAt).toEqual([]);
    expect(watch.isWatching).toBe(false);
  });
});
