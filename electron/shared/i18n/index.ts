/**
 * The one message catalogue, in main and in the renderer alike: `t('gateways:listTitle')`,
 * `t('gateways:count', { count: 3 })`. Messages are i18next JSON (docs/adr/0012-message-catalogue.md):
 * `{{name}}` placeholders, plurals as `key_one`/`key_other`/… chosen by `Intl.PluralRules`. The current language
 * starts as English and changes with setLanguage; translatorFor gives a fixed language (a report exported in
 * French from an app showing German).
 */

import i18next, { type i18n } from 'i18next';
import { CATALOGUE, NAMESPACES, type MessageKey, type Messages } from './catalogue';
import { LANGUAGES, PSEUDO_LANGUAGE, type DisplayLanguage } from './languages';
import { noteLocaleRead } from './locale-reads';
import { pseudoLocalize } from './pseudo';

export type { MessageKey } from './catalogue';
export * from './languages';
export { setLocaleReadHook } from './locale-reads';

/** What a message's placeholders are filled with; `count` also chooses the plural form. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** Writes messages in one language. */
export type Translator = (key: MessageKey, params?: MessageParams) => string;

function createCatalogue(): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources: CATALOGUE,
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES, PSEUDO_LANGUAGE],
    ns: [...NAMESPACES],
    defaultNS: 'common',
    keySeparator: false,
    nsSeparator: ':',
    // Svelte and the report's renderer escape what they draw; escaping here would show "&amp;".
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}

const catalogue = createCatalogue();
let current: DisplayLanguage = 'en';

/**
 * Makes the pseudo-locale's messages the first time it is asked for: 3,000 messages cost ~20 ms, which no start
 * should pay for a language only tests and translators use.
 */
function load(language: DisplayLanguage): DisplayLanguage {
  if (language === PSEUDO_LANGUAGE && !catalogue.hasResourceBundle(PSEUDO_LANGUAGE, 'common'))
    for (const [namespace, messages] of Object.entries(CATALOGUE.en)) {
      const pseudo = Object.fromEntries(
        Object.entries(messages).map(([key, text]) => [key, pseudoLocalize(text)]),
      );
      catalogue.addResourceBundle(PSEUDO_LANGUAGE, namespace, pseudo);
    }
  return language;
}

/** The language messages are written in now. */
export function currentLanguage(): DisplayLanguage {
  noteLocaleRead();
  return current;
}

/**
 * Writes every message in `language` from now on. Use applyLanguage (shared/locale.ts), which moves `format`
 * along with it.
 */
export function setLanguage(language: DisplayLanguage): void {
  current = load(language);
}

/** The message `key` in the current language, its placeholders filled from `params`. */
export function t(key: MessageKey, params?: MessageParams): string {
  noteLocaleRead();
  return catalogue.t(key, { ...params, lng: current });
}

/**
 * True when the catalogue has `key` (`namespace:key`, a plural named without its ending): for keys built from data
 * (an API value, a record read back from disk) before they are written, since i18next answers a missing key with
 * the key itself.
 */
export function isMessageKey(key: string): key is MessageKey {
  const separator = key.indexOf(':');
  const namespace = key.slice(0, separator);
  if (separator < 0 || !Object.hasOwn(CATALOGUE.en, namespace)) return false;
  const messages = CATALOGUE.en[namespace as keyof Messages];
  const base = key.slice(separator + 1);
  return (
    Object.hasOwn(messages, base) ||
    Object.hasOwn(messages, `${base}_one`) ||
    Object.hasOwn(messages, `${base}_other`)
  );
}

/** Writes messages in `language` whatever the current language is (a report's chosen language). */
export function translatorFor(language: DisplayLanguage): Translator {
  load(language);
  return (key, params) => catalogue.t(key, { ...params, lng: language });
}
