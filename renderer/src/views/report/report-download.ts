import { appClock } from '../../lib/clock';

/** The bytes of a base64 document (the report as `report:export` returns it). */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/** Where the first opening of the day is kept across reloads and restarts (a time, not a secret). */
const FIRST_OPENED_KEY = 'fieldkit:first-opened-today';

/**
 * When Field Kit was first opened today, to the minute, kept in `storage` so that a reload or a restart during the
 * visit keeps it: the report's default "Visit started". Midnight, the earlier default, put a false arrival time on
 * every report; the technician still sets the real arrival.
 */
export function firstOpenedToday(
  now: number,
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
): number {
  const day = new Date(now).toDateString();
  try {
    const kept = JSON.parse(storage?.getItem(FIRST_OPENED_KEY) ?? 'null') as {
      day?: unknown;
      at?: unknown;
    } | null;
    if (kept && kept.day === day && typeof kept.at === 'number' && kept.at <= now) return kept.at;
  } catch {
    // Unreadable: start again from now.
  }
  const at = Math.floor(now / 60_000) * 60_000;
  try {
    storage?.setItem(FIRST_OPENED_KEY, JSON.stringify({ day, at }));
  } catch {
    // Storage refused (full, or disabled): the default holds for this run only.
  }
  return at;
}

/** The report's default visit start: when Field Kit was first opened today (see firstOpenedToday). */
export const APP_OPENED_AT = firstOpenedToday(
  appClock.now(),
  typeof localStorage === 'undefined' ? undefined : localStorage,
);
