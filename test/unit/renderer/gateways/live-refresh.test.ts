import { describe, expect, it } from 'vitest';
import {
  FOLLOW_INTERVAL_MS,
  LiveRefresh,
  REFRESH_BACKOFF_FIRST_MS,
  REFRESH_BACKOFF_MAX_MS,
  REFRESH_INTERVAL_MS,
} from '../../../../renderer/src/views/gateways/live-refresh';
import { ManualClock } from '../../../helpers/manual-clock';

/** Lets the refresher's awaited read settle (promise callbacks only; no time passes). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function setUp(answers: boolean[] = [], isVisible = () => true) {
  const clock = new ManualClock();
  const readAt: number[] = [];
  const refresher = new LiveRefresh({
    clock,
    isVisible,
    refresh: async () => {
      readAt.push(clock.now());
      return answers.shift() ?? true;
    },
  });
  /** Moves the clock one step at a time, letting each read settle, so that every timer it sets also fires. */
  const advance = async (ms: number, step = 1_000) => {
    for (let passed = 0; passed < ms; passed += step) {
      clock.advance(Math.min(step, ms - passed));
      await settle();
    }
  };
  return { clock, readAt, refresher, advance };
}

describe('LiveRefresh', () => {
  it('reads again every REFRESH_INTERVAL_MS while all is well', async () => {
    const { readAt, refresher, advance } = setUp();
    refresher.start();
    await advance(3 * REFRESH_INTERVAL_MS);
    expect(readAt).toEqual([REFRESH_INTERVAL_MS, 2 * REFRESH_INTERVAL_MS, 3 * REFRESH_INTERVAL_MS]);
  });

  it('backs off while the server fails, doubling up to the maximum, and returns to the interval after a success', async () => {
    const { readAt, refresher, advance } = setUp([false, false, false, false, false, false, true]);
    refresher.start();
    await advance(400_000);
    const gaps = readAt.slice(1).map((time, index) => time - readAt[index]!);
    expect(gaps.slice(0, 7)).toEqual([
      REFRESH_BACKOFF_FIRST_MS,
      2 * REFRESH_BACKOFF_FIRST_MS,
      4 * REFRESH_BACKOFF_FIRST_MS,
      8 * REFRESH_BACKOFF_FIRST_MS,
      REFRESH_BACKOFF_MAX_MS,
      REFRESH_BACKOFF_MAX_MS,
      REFRESH_INTERVAL_MS,
    ]);
    expect(refresher.status.failures).toBe(0);
  });

  it('reads at once on refreshNow and counts the next interval from that read', async () => {
    const { readAt, refresher, advance } = setUp();
    refresher.start();
    await advance(4_000);
    await refresher.refreshNow();
    await advance(REFRESH_INTERVAL_MS);
    expect(readAt).toEqual([4_000, 4_000 + REFRESH_INTERVAL_MS]);
  });

  it('reads once more after the running read when refreshNow comes during it, never two at a time', async () => {
    const clock = new ManualClock();
    let running = 0;
    let most = 0;
    let reads = 0;
    const pending: Array<() => void> = [];
    const refresher = new LiveRefresh({
      clock,
      refresh: () => {
        reads++;
        most = Math.max(most, ++running);
        return new Promise<boolean>((resolve) =>
          pending.push(() => {
            running--;
            resolve(true);
          }),
        );
      },
    });
    refresher.start();
    void refresher.refreshNow();
    void refresher.refreshNow();
    void refresher.refreshNow();
    pending.shift()!();
    await settle();
    expect(reads).toBe(2);
    pending.shift()!();
    await settle();
    expect([reads, most]).toEqual([2, 1]);
  });

  it('follows a change every FOLLOW_INTERVAL_MS until endFollow, then goes back to the interval', async () => {
    const { clock, readAt, refresher, advance } = setUp();
    refresher.start();
    refresher.follow(60_000);
    await advance(3 * FOLLOW_INTERVAL_MS);
    expect(readAt).toEqual([1, 2, 3].map((step) => step * FOLLOW_INTERVAL_MS));
    refresher.endFollow();
    const endedAt = clock.now();
    await advance(REFRESH_INTERVAL_MS);
    expect(readAt.slice(3)).toEqual([endedAt + REFRESH_INTERVAL_MS]);
  });

  it('stops following when its time is up', async () => {
    const { readAt, refresher, advance } = setUp();
    refresher.start();
    refresher.follow(5 * FOLLOW_INTERVAL_MS);
    await advance(5 * FOLLOW_INTERVAL_MS + 2 * REFRESH_INTERVAL_MS);
    const gaps = readAt.slice(1).map((time, index) => time - readAt[index]!);
    expect(gaps.at(-1)).toBe(REFRESH_INTERVAL_MS);
    expect(refresher.isFollowing).toBe(false);
  });

  it('skips timed reads while the page is not visible', async () => {
    let isVisible = false;
    const { readAt, refresher, advance } = setUp([], () => isVisible);
    refresher.start();
    await advance(3 * REFRESH_INTERVAL_MS);
    expect(readAt).toEqual([]);
    isVisible = true;
    await advance(REFRESH_INTERVAL_MS);
    expect(readAt).toEqual([4 * REFRESH_INTERVAL_MS]);
  });

  it('reads nothing more after stop, not even when a read that was running ends', async () => {
    const { clock, readAt, refresher, advance } = setUp();
    refresher.start();
    await advance(REFRESH_INTERVAL_MS);
    refresher.stop();
    await refresher.refreshNow();
    await advance(5 * REFRESH_INTERVAL_MS);
    expect(readAt).toEqual([REFRESH_INTERVAL_MS]);
    expect(clock.timers).toEqual([]);
    expect(refresher.status.nextAt).toBeNull();
  });

  it('says when the last read succeeded and when the next one is due', async () => {
    const { refresher, advance } = setUp([true, false]);
    refresher.start();
    expect(refresher.status).toMatchObject({ lastSuccessAt: null, nextAt: REFRESH_INTERVAL_MS });
    await advance(REFRESH_INTERVAL_MS);
    expect(refresher.status).toMatchObject({
      lastSuccessAt: REFRESH_INTERVAL_MS,
      failures: 0,
      nextAt: 2 * REFRESH_INTERVAL_MS,
    });
    await advance(REFRESH_INTERVAL_MS);
    expect(refresher.status).toMatchObject({
      lastSuccessAt: REFRESH_INTERVAL_MS,
      failures: 1,
      nextAt: 2 * REFRESH_INTERVAL_MS + REFRESH_BACKOFF_FIRST_MS,
    });
  });
});
