/**
 * The one way the app writes times, numbers and sizes, in main and in the renderer alike: a Formatter made for a
 * locale and a time zone, on `Intl`. Screens use `format` (index.ts), the formatter of the current locale; nothing
 * else in the app calls `toLocaleString`, `Intl.DateTimeFormat` or builds a date by hand (a unit test scans the
 * source). See docs/architecture.md, "Times, numbers and sizes".
 */

import { DateTimeWriter, type SecondsOption } from './date-time';
import { readDateTimeField, writeDateTimeField } from './date-field';
import { NumberWriter } from './numbers';

/** Which locale and zone a Formatter writes for; left out, this computer's. */
export interface FormatterOptions {
  /** A BCP 47 language tag ("en-GB", "fr-FR"); one `Intl` does not know falls back to this computer's. */
  locale?: string;
  /** An IANA time zone ("Europe/Paris"); one `Intl` does not know falls back to this computer's. */
  timeZone?: string;
}

/** Writes times, numbers and sizes for one locale and time zone; never throws, whatever it is given. */
export interface Formatter {
  /** The locale it writes for, as `Intl` resolved it ("en-GB"). */
  readonly locale: string;
  /** The time zone its times are in, as `Intl` resolved it ("Europe/Paris"). */
  readonly timeZone: string;
  /** Date and time without the zone: "26 Nov 2026, 22:37" (en-GB), "Nov 26, 2026, 10:37 PM" (en-US). */
  dateTime(at: number | null | undefined, options?: SecondsOption): string;
  /** The date alone: "26 Nov 2026". */
  date(at: number | null | undefined): string;
  /** The clock time alone: "22:37", or "22:37:54" with seconds. */
  time(at: number | null | undefined, options?: SecondsOption): string;
  /** "now", "5 minutes ago", "in 3 hours", "yesterday"; the date past 60 days. */
  relative(at: number | null | undefined, now: number): string;
  /** "Times in Europe/Paris (UTC+01:00)": the line a screen or document says once. */
  timeZoneLabel(at: number): string;
  /** A date field's text ("2026-11-26 14:05") for `at`, in this zone; '' when `at` is no time. */
  dateTimeField(at: number | null | undefined): string;
  /** The moment a date field's text names in this zone, or undefined when it names none. */
  parseDateTimeField(text: string): number | undefined;
  /** A plain number, at most `maximumFractionDigits` decimals (2 unless told). */
  number(value: number | null | undefined, maximumFractionDigits?: number): string;
  /** A fraction as a percentage: 0.42 → "42%". */
  percent(fraction: number | null | undefined, maximumFractionDigits?: number): string;
  /** A size: "999 bytes", "1.5 kB", "2.3 MB". */
  bytes(count: number | null | undefined): string;
  /** A power level: "-97.5 dBm". */
  decibelMilliwatts(value: number | null | undefined): string;
  /** A ratio: "7.5 dB". */
  decibels(value: number | null | undefined): string;
  /** A duration in milliseconds: "45 sec", "2 min 5 sec", "2 days 7 hr". */
  duration(ms: number | null | undefined): string;
}

/** The formatters made so far, by locale and zone: their `Intl` objects are built once. */
const formatters = new Map<string, Formatter>();

/** The Formatter of a locale and zone (cached: asking twice gives the same one). */
export function formatterFor(options: FormatterOptions = {}): Formatter {
  const key = `${options.locale ?? ''}|${options.timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = createFormatter(resolveLocale(options.locale), resolveTimeZone(options.timeZone));
    formatters.set(key, formatter);
  }
  return formatter;
}

function resolveLocale(locale: string | undefined): string {
  try {
    return new Intl.DateTimeFormat(locale).resolvedOptions().locale;
  } catch {
    // RangeError: not a language tag. This computer's locale says more than an exception would.
    return new Intl.DateTimeFormat().resolvedOptions().locale;
  }
}

function resolveTimeZone(timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return new Intl.DateTimeFormat('en-US').resolvedOptions().timeZone;
  }
}

function createFormatter(locale: string, timeZone: string): Formatter {
  const dates = new DateTimeWriter(locale, timeZone);
  const numbers = new NumberWriter(locale);
  return {
    locale,
    timeZone,
    dateTime: (at, options) => dates.dateTime(at, options),
    date: (at) => dates.date(at),
    time: (at, options) => dates.time(at, options),
    relative: (at, now) => dates.relative(at, now),
    timeZoneLabel: (at) => `Times in ${dates.timeZoneName(at)}`,
    dateTimeField: (at) => writeDateTimeField(dates, at),
    parseDateTimeField: (text) => readDateTimeField(dates, text),
    number: (value, digits) => numbers.number(value, digits),
    percent: (fraction, digits) => numbers.percent(fraction, digits),
    bytes: (count) => numbers.bytes(count),
    decibelMilliwatts: (value) => numbers.decibelMilliwatts(value),
    decibels: (value) => numbers.decibels(value),
    duration: (ms) => numbers.duration(ms),
  };
}
