/**
 * Times as numbers of milliseconds since the epoch, checked and written without ever throwing (shown to a person
 * through electron/shared/format): `Date` holds only
 * ±8.64e15 ms, and past that `toISOString` and `Intl.DateTimeFormat` throw `RangeError: Invalid time value` while
 * `toLocaleString` answers "Invalid Date". A server (or a file) can send any number.
 */

/** The first time a server may name: the epoch (1970-01-01T00:00:00Z); the API has nothing older. */
export const EARLIEST_SERVER_TIME_MS = 0;
/** The last time a server may name: the end of year 9999 UTC, the last a four-digit year writes. */
export const LATEST_SERVER_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** Furthest from the epoch a `Date` reaches, either way (ECMAScript's time value range). */
const DATE_LIMIT_MS = 8.64e15;

/** What a time that is missing or beyond what a `Date` holds reads as. */
export const UNKNOWN_TIME = 'unknown time';

/** True for a whole number of milliseconds from EARLIEST_SERVER_TIME_MS to LATEST_SERVER_TIME_MS. */
export function isServerTime(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= EARLIEST_SERVER_TIME_MS &&
    value <= LATEST_SERVER_TIME_MS
  );
}

/** True for a number a `Date` can hold (and so format without throwing). */
export function isDateTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= DATE_LIMIT_MS;
}

/** The ISO 8601 form of a time (`2026-11-25T14:48:00.000Z`), or undefined when it is missing or out of range. */
export function toIsoTime(at: number | null | undefined): string | undefined {
  return isDateTime(at) ? new Date(at).toISOString() : undefined;
}
