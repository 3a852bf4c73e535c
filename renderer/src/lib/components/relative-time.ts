import { formatLocalTime, isDateTime, UNKNOWN_TIME } from '../../../../electron/shared/time';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Says how long ago (or how far ahead) `time` is from `now` in words a technician reads at a glance:
 * "just now", "5 min ago", "3 h ago", "2 days ago", "in 4 min". Both in milliseconds since the epoch; a time a
 * `Date` cannot hold reads "unknown time".
 */
export function formatRelativeTime(time: number, now: number): string {
  if (!isDateTime(time) || !isDateTime(now)) return UNKNOWN_TIME;
  const difference = now - time;
  const distance = Math.abs(difference);
  if (distance < MINUTE_MS) return 'just now';
  let text: string;
  if (distance < HOUR_MS) text = `${Math.floor(distance / MINUTE_MS)} min`;
  else if (distance < DAY_MS) text = `${Math.floor(distance / HOUR_MS)} h`;
  else {
    const days = Math.floor(distance / DAY_MS);
    text = `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  return difference >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * The absolute local date and time of `time`, with seconds (what the tooltip and the report show); "unknown time"
 * when it is missing or beyond what a `Date` holds. Never throws.
 */
export function formatAbsoluteTime(time: number | null | undefined): string {
  return formatLocalTime(time, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}
