import { SYSTEM_CLOCK, type Clock } from '../../../electron/shared/clock';

let current: Clock = SYSTEM_CLOCK;

/**
 * The renderer's one clock: every view, component and state class reads the time and sets its timers through it,
 * never `Date.now()`. It is the wall clock unless a test put another in (`useClock`).
 */
export const appClock: Clock = {
  now: () => current.now(),
  sleep: (ms, signal) => current.sleep(ms, signal),
  setTimeout: (callback, delayMs) => current.setTimeout(callback, delayMs),
  clearTimeout: (handle) => current.clearTimeout(handle),
};

/** Makes `clock` the renderer's clock (a test's ManualClock); returns what puts the previous one back. */
export function useClock(clock: Clock): () => void {
  const previous = current;
  current = clock;
  return () => {
    current = previous;
  };
}

/**
 * Runs `callback` every `intervalMs` on the renderer's clock (the ticks of a countdown, a refresh) until the
 * returned function stops it; a test's ManualClock runs it as it advances.
 */
export function every(intervalMs: number, callback: () => void): () => void {
  let handle: unknown;
  let isStopped = false;
  const tick = () => {
    if (isStopped) return;
    handle = appClock.setTimeout(tick, intervalMs);
    callback();
  };
  handle = appClock.setTimeout(tick, intervalMs);
  return () => {
    isStopped = true;
    appClock.clearTimeout(handle);
  };
}
