/**
 * The one way the site report and its preview write times: "25 Nov 2026 15:48" (day, English month abbreviation,
 * year, 24-hour clock) and "15:48" for a time on the visit's day. Neither depends on the machine's locale (no
 * "11/25/2026" that reads as another day elsewhere, no AM/PM); the time zone is said once, on page one.
 */

import { isDateTime, UNKNOWN_TIME } from '../time';

/** Month abbreviations, fixed: ICU's own differ between versions ("Sep" / "Sept"). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Parts {
  year: string;
  month: number;
  day: number;
  hour: string;
  minute: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter per time zone ('' for this machine's): building one costs more than using it. */
function formatterOf(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

function partsOf(at: number, timeZone: string | undefined): Parts {
  const found: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(at))) found[part.type] = part.value;
  return {
    year: found.year ?? '',
    month: Number(found.month),
    day: Number(found.day),
    hour: found.hour ?? '',
    minute: found.minute ?? '',
  };
}

/** The date of a moment: "25 Nov 2026". */
export function formatReportDate(at: number, timeZone?: string): string {
  if (!isDateTime(at)) return 'unknown date';
  const parts = partsOf(at, timeZone);
  return `${parts.day} ${MONTHS[parts.month - 1] ?? '?'} ${parts.year}`;
}

/** A moment with its date: "25 Nov 2026 15:48". */
export function formatReportDateTime(at: number, timeZone?: string): string {
  if (!isDateTime(at)) return UNKNOWN_TIME;
  const parts = partsOf(at, timeZone);
  return `${parts.day} ${MONTHS[parts.month - 1] ?? '?'} ${parts.year} ${parts.hour}:${parts.minute}`;
}

/**
 * A moment of the visit: its clock time ("15:48") when it falls on the day the visit started, else with its date
 * ("26 Nov 2026 00:12"), so a visit that runs past midnight never shows a time that reads as the wrong day.
 */
export function formatVisitTime(at: number, visitStartedAt: number, timeZone?: string): string {
  if (!isDateTime(at)) return UNKNOWN_TIME;
  if (formatReportDate(at, timeZone) !== formatReportDate(visitStartedAt, timeZone))
    return formatReportDateTime(at, timeZone);
  const parts = partsOf(at, timeZone);
  return `${parts.hour}:${parts.minute}`;
}

/**
 * The time zone the times are in, said once: "UTC", or its name with its offset at `at` ("Europe/Berlin,
 * UTC+01:00"). `timeZone` undefined: this machine's.
 */
export function describeTimeZone(at: number, timeZone?: string): string {
  const name = new Intl.DateTimeFormat('en-GB', { timeZone }).resolvedOptions().timeZone;
  if (name === 'UTC' || name === 'Etc/UTC') return 'UTC';
  const offset =
    new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(isDateTime(at) ? at : 0))
      .find((part) => part.type === 'timeZoneName')?.value ?? '';
  // "GMT+01:00" → "UTC+01:00"; a zone on UTC's time reads "GMT".
  const utcOffset = offset === 'GMT' ? 'UTC+00:00' : offset.replace(/^GMT/, 'UTC');
  return utcOffset ? `${name}, ${utcOffset}` : name;
}
