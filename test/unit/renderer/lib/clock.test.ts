import { afterEach, describe, expect, it } from 'vitest';
import { appClock, every, useClock } from '../../../../renderer/src/lib/clock';
import { ManualClock } from '../../../helpers/manual-clock';

describe("the renderer's clock", () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it('answers the time of the clock a test put in, and the previous one once put back', () => {
    const clock = new ManualClock(1_000);
    restore = useClock(clock);
    clock.advance(500);
    expect(appClock.now()).toBe(1_500);
    restore();
    restore = undefined;
    expect(appClock.now()).not.toBe(1_500);
  });

  it('ticks `every` interval as the clock advances, and no more once stopped', () => {
    const clock = new ManualClock(0);
    restore = useClock(clock);
    const ticks: number[] = [];
    const stop = every(1_000, () => ticks.push(appClock.now()));
    clock.advance(1_000);
    clock.advance(1_000);
    stop();
    clock.advance(5_000);
    expect(ticks).toEqual([1_000, 2_000]);
  });
});
