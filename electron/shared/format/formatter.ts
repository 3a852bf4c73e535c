/**
 * The one way the app writes times, numbers and sizes, in main and in the renderer alike: a Formatter made for a
 * locale and a time zone, on `Intl`. Screens use `format` (index.ts), the formatter of the current locale; nothing
 * else in the app calls `toLocaleString`, `Intl.DateTimeFormat` or builds a date by hand (a unit test scans the
 * source). See docs/architecture.md, "Times, numbers and sizes".
 */

import { DateTimeWriter, UNKNOWN_DATE, type SecondsOption } from './date-time';
import { readDateTimeField, writeDateTimeField } from './date-field';
import { NumberWriter, UNKNOWN_DURATION, UNKNOWN_NUMBER } from './numbers';
import { UNKNOWN_TIME } from '../time';
import { resolveLanguage, translatorFor, type DisplayLanguage, type MessageKey } from '../i18n';

/** Which locale and zone a Formatter writes for; left out, this computer's. */
export interface FormatterOptions {
  /** A BCP 47 language tag ("en-GB", "fr-FR"); one `Intl` does not know falls back to this computer's. */
  locale?: string;
  /** An IANA time zone ("Europe/Paris"); one `Intl` does not know falls back to this computer's. */
  timeZone?: string;
  /** The language of its words ("unknown time", "Times in …"); left out, the locale's. */
  language?: DisplayLanguage;
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
  const key = `${options.locale ?? ''}|${options.timeZone ?? ''}|${options.language ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const locale = resolveLocale(options.locale);
    const language = options.language ?? resolveLanguage([locale]);
    formatter = createFormatter(locale, resolveTimeZone(options.timeZone), language);
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

/** The catalogue's words for what the writers return when a value is unknown (they write English). */
const UNKNOWN_WORDS: ReadonlyMap<string, MessageKey> = new Map([
  [UNKNOWN_TIME, 'common:unknownTime'],
  [UNKNOWN_DATE, 'common:unknownDate'],
  [UNKNOWN_DURATION, 'common:unknownDuration'],
  [UNKNOWN_NUMBER, 'common:unknown'],
] as const);

function createFormatter(locale: string, timeZone: string, language: DisplayLanguage): Formatter {
  const dates = new DateTimeWriter(locale, timeZone);
  const numbers = new NumberWriter(locale);
  const words = translatorFor(language);
  const said = (text: string): string => {
    const key = UNKNOWN_WORDS.get(text);
    return key ? words(key) : text;
  };
  return {
    locale,
    timeZone,
    dateTime: (at, options) => said(dates.dateTime(at, options)),
    date: (at) => said(dates.date(at)),
    time: (at, options) => said(dates.time(at, options)),
    relative: (at, now) => said(dates.relative(at, now)),
    timeZoneLabel: (at) => words('common:timesIn', { zone: dates.timeZoneName(at) }),
    dateTimeField: (at) => writeDateTimeField(dates, at),
    parseDateTimeField: (text) => readDateTimeField(dates, text),
    number: (value, digits) => said(numbers.number(value, digits)),
    percent: (fraction, digits) => said(numbers.percent(fraction, digits)),
    bytes: (count) => said(numbers.bytes(count)),
    decibelMilliwatts: (value) => said(numbers.decibelMilliwatts(value)),
    decibels: (value) => said(numbers.decibels(value)),
    duration: (ms) => said(numbers.duration(ms)),
  };
}
