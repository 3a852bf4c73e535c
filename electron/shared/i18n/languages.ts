/**
 * The languages the app speaks, how a preference names one, and which locale writes its times and numbers.
 * See docs/adr/0012-message-catalogue.md.
 */

/** The languages with a complete catalogue, English first (the source every other is translated from). */
export const LANGUAGES = ['en', 'fr', 'es', 'de'] as const;
/** A language with a complete catalogue. */
export type Language = (typeof LANGUAGES)[number];

/**
 * The pseudo-locale: English with accents and 40 % longer, bracketed, for finding cut or untranslated text. It is
 * chosen by a system language of `en-XA` (the tag Android and Chromium use for it), never offered in Settings.
 */
export const PSEUDO_LANGUAGE = 'en-XA';
/** What the app can be showing: a catalogue language or the pseudo-locale. */
export type DisplayLanguage = Language | typeof PSEUDO_LANGUAGE;

/** Each language in its own words, as the language setting lists it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  de: 'Deutsch',
};

/** The language setting: one of the languages, or "follow this computer's". */
export type LanguageSetting = Language | 'system';

/** True for a catalogue language. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The first of the computer's preferred languages (BCP 47 tags, best first) the app speaks, English when none:
 * `["de-AT", "en"]` → "de"; `["pt-BR"]` → "en"; `["en-XA"]` → the pseudo-locale.
 */
export function resolveLanguage(preferred: readonly string[]): DisplayLanguage {
  for (const tag of preferred) {
    if (tag.toLowerCase() === PSEUDO_LANGUAGE.toLowerCase()) return PSEUDO_LANGUAGE;
    const primary = tag.split(/[-_]/)[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

/**
 * The locale that writes times and numbers for a language: the computer's own when it is of that language (its
 * region kept: "de-AT" stays "de-AT"), else the bare language ("fr"), which `Intl` completes with its usual region.
 * The pseudo-locale writes as English.
 */
export function formatLocaleFor(language: DisplayLanguage, systemLocale: string | undefined): string {
  const wanted = language === PSEUDO_LANGUAGE ? 'en' : language;
  const systemPrimary = systemLocale?.split(/[-_]/)[0]?.toLowerCase();
  return systemLocale && systemPrimary === wanted ? systemLocale : wanted;
}
