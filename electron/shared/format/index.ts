/**
 * The formatter of the current locale, which every screen, notice and message uses: `format.dateTime(at)`,
 * `format.bytes(size)`. The current locale starts as this computer's (`navigator.language` in the renderer,
 * `Intl`'s default in main) in its time zone, and changes with setFormatLocale, which the language setting will
 * call.
 */

import { formatterFor, type Formatter, type FormatterOptions } from './formatter';

export type { Formatter, FormatterOptions } from './formatter';
export { formatterFor } from './formatter';
export { DATE_TIME_FIELD_PATTERN } from './date-field';
export { UNKNOWN_DATE } from './date-time';
export { UNKNOWN_DURATION, UNKNOWN_NUMBER } from './numbers';

/** The browser's language where there is one (the renderer); undefined (Intl's default) in main. */
const systemLocale = (globalThis as { navigator?: { language?: unknown } }).navigator?.language;

let current: Formatter = formatterFor({
  locale: typeof systemLocale === 'string' ? systemLocale : undefined,
});

/**
 * Makes `format` write for `options.locale` and `options.timeZone` from now on (left out: this computer's).
 * What is already on screen keeps its text until it is drawn again.
 */
export function setFormatLocale(options: FormatterOptions): void {
  current = formatterFor(options);
}

/** The formatter of the current locale and zone; each call goes to the one setFormatLocale last chose. */
export const format: Formatter = {
  get locale() {
    return current.locale;
  },
  get timeZone() {
    return current.timeZone;
  },
  dateTime: (at, options) => current.dateTime(at, options),
  date: (at) => current.date(at),
  time: (at, options) => current.time(at, options),
  relative: (at, now) => current.relative(at, now),
  timeZoneLabel: (at) => current.timeZoneLabel(at),
  dateTimeField: (at) => current.dateTimeField(at),
  parseDateTimeField: (text) => current.parseDateTimeField(text),
  number: (value, digits) => current.number(value, digits),
  percent: (fraction, digits) => current.percent(fraction, digits),
  bytes: (count) => current.bytes(count),
  decibelMilliwatts: (value) => current.decibelMilliwatts(value),
  decibels: (value) => current.decibels(value),
  duration: (ms) => current.duration(ms),
};
