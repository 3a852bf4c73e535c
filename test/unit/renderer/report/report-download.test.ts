import { describe, expect, it } from 'vitest';
import { firstOpenedToday } from '../../../../renderer/src/views/report/report-download';

/** A Storage double holding what the renderer would keep in localStorage. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

const MORNING = new Date(2026, 10, 25, 9, 41, 30).getTime();

describe('firstOpenedToday', () => {
  it('is the first opening of the day to the minute, not midnight', () => {
    expect(firstOpenedToday(MORNING, memoryStorage())).toBe(new Date(2026, 10, 25, 9, 41).getTime());
  });

  it('keeps the first opening across a reload later the same day', () => {
    const storage = memoryStorage();
    const first = firstOpenedToday(MORNING, storage);
    expect(firstOpenedToday(MORNING + 3 * 60 * 60 * 1000, storage)).toBe(first);
  });

  it('starts again on another day', () => {
    const storage = memoryStorage();
    firstOpenedToday(MORNING, storage);
    const nextDay = MORNING + 24 * 60 * 60 * 1000;
    expect(firstOpenedToday(nextDay, storage)).toBe(Math.floor(nextDay / 60_000) * 60_000);
  });

  it('starts from now when what was kept is unreadable or there is no storage', () => {
    const storage = memoryStorage();
    storage.setItem('fieldkit:first-opened-today', '{not json');
    expect(firstOpenedToday(MORNING, storage)).toBe(new Date(2026, 10, 25, 9, 41).getTime());
    expect(firstOpenedToday(MORNING, undefined)).toBe(new Date(2026, 10, 25, 9, 41).getTime());
  });
});
