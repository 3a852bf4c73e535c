/**
 * The formatter of the current locale, which every screen, notice and message uses: `format.dateTime(at)`,
 * `format.bytes(size)`. The current locale starts as this computer's (`navigator.language` in the renderer,
 * `Intl`'s default in main) in its time zone, and changes with setFormatLocale, which the language setting will
 * call.
 */

import { formatterFor, type Formatter, type FormatterOptions } from './formatter';
import { noteLocaleRead } from '../i18n/locale-reads';

export type { Formatter, FormatterOptions } from './formatter';
export { formatterFor } from './formatter';
export { DATE_TIME_FIELD_PATTERN } from './date-field';
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

/** The current formatter, its use noted so a reactive screen redraws when the language changes. */
function used(): Formatter {
  noteLocaleRead();
  return current;
}

/** The formatter of the current locale and zone; each call goes to the one setFormatLocale last chose. */
export const format: Formatter = {
  get locale() {
    return used().locale;
  },
  get timeZone() {
    return used().timeZone;
  },
  dateTime: (at, options) => used().dateTime(at, options),
  date: (at) => used().date(at),
  time: (at, options) => used().time(at, options),
  relative: (at, now) => used().relative(at, now),
  timeZoneLabel: (at) => used().timeZoneLabel(at),
  dateTimeField: (at) => used().dateTimeField(at),
  parseDateTimeField: (text) => used().parseDateTimeField(text),
  number: (value, digits) => used().number(value, digits),
  percent: (fraction, digits) => used().percent(fraction, digits),
  bytes: (count) => used().bytes(count),
  decibelMilliwatts: (value) => used().decibelMilliwatts(value),
  decibels: (value) => used().decibels(value),
  duration: (ms) => used().duration(ms),
};
