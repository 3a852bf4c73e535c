/**
 * Dates and times of one locale and time zone, written through cached `Intl` objects and never throwing: a time
 * a `Date` cannot hold (NaN, past ±8.64e15 ms, not a number at all) reads as UNKNOWN_TIME.
 */

import { isDateTime, UNKNOWN_TIME } from '../time';

/** What a date (without its time) that is missing or out of range reads as. */
export const UNKNOWN_DATE = 'unknown date';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Relative words stop at this distance: "40 days ago" is still read at a glance, "400 days ago" is not. */
const RELATIVE_LIMIT_MS = 60 * DAY_MS;

/** Which part of a moment to write. */
type DateTimeStyle = 'date' | 'time' | 'time-seconds' | 'date-time' | 'date-time-seconds';

const STYLE_OPTIONS: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  'time-seconds': { timeStyle: 'medium' },
  'date-time': { dateStyle: 'medium', timeStyle: 'short' },
  'date-time-seconds': { dateStyle: 'medium', timeStyle: 'medium' },
};

/** Says whether a time is written with its seconds. */
export interface SecondsOption {
  /** Add the seconds ("22:37:54"): for times read to the second (a status read, a connection line). */
  seconds?: boolean;
}

/**
 * The date-time part of a Formatter: one locale, one zone, its `Intl` objects built once (building one costs far
 * more than using it) and kept for the life of the formatter.
 */
export class DateTimeWriter {
  readonly #styles = new Map<DateTimeStyle, Intl.DateTimeFormat>();
  #relative: Intl.RelativeTimeFormat | undefined;
  #parts: Intl.DateTimeFormat | undefined;
  #offsets: Intl.DateTimeFormat | undefined;

  constructor(
    readonly locale: string,
    readonly timeZone: string,
  ) {}

  /** Date and time without the zone ("26 Nov 2026, 22:37"; en-US "Nov 26, 2026, 10:37 PM"). */
  dateTime(at: number | null | undefined, options: SecondsOption = {}): string {
    return this.#write(at, options.seconds ? 'date-time-seconds' : 'date-time', UNKNOWN_TIME);
  }

  /** The date alone ("26 Nov 2026"). */
  date(at: number | null | undefined): string {
    return this.#write(at, 'date', UNKNOWN_DATE);
  }

  /** The clock time alone ("22:37", "10:37 PM"): for a moment whose day the screen already says. */
  time(at: number | null | undefined, options: SecondsOption = {}): string {
    return this.#write(at, options.seconds ? 'time-seconds' : 'time', UNKNOWN_TIME);
  }

  /**
   * How long ago, or how far ahead, `at` is from `now`: "now" under a minute, then whole minutes, hours and days
   * ("5 minutes ago", "in 3 hours", "yesterday"); past 60 days the date itself, which reads better than a count.
   */
  relative(at: number | null | undefined, now: number): string {
    if (!isDateTime(at) || !isDateTime(now)) return UNKNOWN_TIME;
    const difference = at - now;
    const distance = Math.abs(difference);
    if (distance >= RELATIVE_LIMIT_MS) return this.date(at);
    this.#relative ??= new Intl.RelativeTimeFormat(this.locale, { numeric: 'auto' });
    const sign = difference < 0 ? -1 : 1;
    if (distance < MINUTE_MS) return this.#relative.format(0, 'second');
    if (distance < HOUR_MS) return this.#relative.format(sign * Math.floor(distance / MINUTE_MS), 'minute');
    if (distance < DAY_MS) return this.#relative.format(sign * Math.floor(distance / HOUR_MS), 'hour');
    return this.#relative.format(sign * Math.floor(distance / DAY_MS), 'day');
  }

  /**
   * The zone the times are in, said once per screen or document: "Europe/Paris (UTC+01:00)" with the offset at
   * `at` (it changes with summer time), or "UTC".
   */
  timeZoneName(at: number): string {
    if (this.timeZone === 'UTC' || this.timeZone === 'Etc/UTC') return 'UTC';
    this.#offsets ??= new Intl.DateTimeFormat('en-US', {
      timeZone: this.timeZone,
      timeZoneName: 'longOffset',
    });
    const offset =
      this.#offsets.formatToParts(isDateTime(at) ? at : 0).find((part) => part.type === 'timeZoneName')
        ?.value ?? '';
    // "GMT+01:00" → "UTC+01:00"; a zone on UTC's time at `at` reads "GMT".
    const utcOffset = offset === 'GMT' ? 'UTC+00:00' : offset.replace(/^GMT/, 'UTC');
    return utcOffset ? `${this.timeZone} (${utcOffset})` : this.timeZone;
  }

  /**
   * The fields of `at` in this zone as numbers (year, month 1–12, day, hour 0–23, minute), or undefined for a
   * time a `Date` cannot hold. What the date field and machine stamps are built from.
   */
  fieldsOf(at: number | null | undefined): DateTimeFields | undefined {
    if (!isDateTime(at)) return undefined;
    this.#parts ??= new Intl.DateTimeFormat('en-US', {
      timeZone: this.timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
      era: 'short',
    });
    const found: Record<string, string> = {};
    for (const part of this.#parts.formatToParts(at)) found[part.type] = part.value;
    const year = Number(found.year);
    return {
      // Years before 1 CE ("BC") count down: year 1 BC is 0, 2 BC is -1 (ISO 8601's astronomical numbering).
      year: found.era === 'BC' || found.era === 'B' ? 1 - year : year,
      month: Number(found.month),
      day: Number(found.day),
      hour: Number(found.hour),
      minute: Number(found.minute),
      second: Number(found.second),
    };
  }

  #write(at: number | null | undefined, style: DateTimeStyle, unknown: string): string {
    if (!isDateTime(at)) return unknown;
    let writer = this.#styles.get(style);
    if (!writer) {
      writer = new Intl.DateTimeFormat(this.locale, { ...STYLE_OPTIONS[style], timeZone: this.timeZone });
      this.#styles.set(style, writer);
    }
    return writer.format(at);
  }
}

/** A moment's fields in a time zone, as numbers. */
export interface DateTimeFields {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  /** 0–23. */
  hour: number;
  minute: number;
  second: number;
}
