/**
 * The app's language and the locale of its times and numbers move together: applyLanguage is the one place
 * that changes them (the language setting in the renderer, `app:language` in main).
 */

import { setFormatLocale } from './format';
import { formatLocaleFor, setLanguage, type DisplayLanguage } from './i18n';

/**
 * Messages in `language` from now on, and times and numbers in its locale — the computer's own (`systemLocale`)
 * when it is of that language, so its region's conventions stay.
 */
export function applyLanguage(language: DisplayLanguage, systemLocale: string | undefined): void {
  setLanguage(language);
  setFormatLocale({ locale: formatLocaleFor(language, systemLocale), language });
}
