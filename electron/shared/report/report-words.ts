/**
 * The language a site report is written in, chosen per export and independent of the app's own: its words (a
 * Translator of that language) and its times (a Formatter of that language in the report's time zone). The model
 * builder writes every word with it and the document components with the same language (the model carries it), so
 * a report exported in French from an app showing German reads French throughout. See docs/site-report.md.
 */

import { formatterFor, type Formatter } from '../format';
import { translatorFor, type DisplayLanguage, type Translator } from '../i18n';

/**
 * The locale each report language writes its times in. Fixed rather than this computer's: a report is read by a
 * customer, and its times must read the same whoever exports it (day before month, 24-hour clock, as page one
 * says). The pseudo-locale writes as British English.
 */
const REPORT_LOCALES: Readonly<Record<DisplayLanguage, string>> = {
  en: 'en-GB',
  fr: 'fr-FR',
  es: 'es-ES',
  de: 'de-DE',
  'en-XA': 'en-GB',
};

/** The words and times of one report. */
export interface ReportWords {
  /** The report's language. */
  readonly language: DisplayLanguage;
  /** Writes the report's messages in its language. */
  readonly translate: Translator;
  /** Writes its times and numbers in its language and time zone. */
  readonly format: Formatter;
}

/** The words and times of a report in `language`, its times in `timeZone` (left out: this computer's). */
export function reportWordsFor(language: DisplayLanguage, timeZone?: string): ReportWords {
  return {
    language,
    translate: translatorFor(language),
    format: formatterFor({ locale: REPORT_LOCALES[language], timeZone, language }),
  };
}

/**
 * A moment of the visit: its clock time ("15:48") when it falls on the day the visit started, else with its date
 * ("26 Nov 2026, 00:12"), so a visit that runs past midnight never shows a time that reads as the wrong day.
 */
export function visitTime(format: Formatter, at: number, visitStartedAt: number): string {
  return format.date(at) === format.date(visitStartedAt) ? format.time(at) : format.dateTime(at);
}
