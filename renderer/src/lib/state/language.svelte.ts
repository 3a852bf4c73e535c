/**
 * The language the app shows: the technician's choice in Settings, or this computer's (`navigator.languages`).
 * Changing it redraws every message and time where it stands — open terminals, wizards and the visit keep their
 * state — because `t` and `format` read `#version` through the locale-read hook. Main is told, so its messages
 * and notices follow.
 */

import { applyLanguage } from '../../../../electron/shared/locale';
import {
  currentLanguage,
  isLanguage,
  PSEUDO_LANGUAGE,
  resolveLanguage,
  setLocaleReadHook,
  type DisplayLanguage,
  type LanguageSetting,
} from '../../../../electron/shared/i18n';
import type { IpcClient } from '../ipc';

/** Where the choice is kept (localStorage in the app, a map in tests). */
type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

const STORAGE_KEY = 'fieldKit.language';

/** The renderer's language setting, and what it resolves to on this computer. */
export class LanguageState {
  /** Bumped on each change; every `t` and `format` call reads it, so what they wrote redraws. */
  #version = $state(0);
  /** The pseudo-locale is never offered, but may be set (tests, translators checking a layout). */
  #setting = $state<LanguageSetting | typeof PSEUDO_LANGUAGE>('system');
  readonly #storage: SettingsStorage | undefined;
  readonly #preferred: () => readonly string[];
  #client: IpcClient | undefined;
  /** Bumped each time main has taken the language: what main wrote (notices) is worth reading again. */
  mainVersion = $state(0);

  constructor(
    storage: SettingsStorage | undefined = globalThis.localStorage,
    preferred: () => readonly string[] = () => globalThis.navigator?.languages ?? [],
  ) {
    this.#storage = storage;
    this.#preferred = preferred;
    const stored = storage?.getItem(STORAGE_KEY);
    if (isLanguage(stored) || stored === PSEUDO_LANGUAGE) this.#setting = stored;
    setLocaleReadHook(() => void this.#version);
    this.#apply();
  }

  /** The setting: a language, or 'system'. */
  get setting(): LanguageSetting | typeof PSEUDO_LANGUAGE {
    return this.#setting;
  }

  /** The language this computer prefers, as the app would show it with the setting at 'system'. */
  get systemLanguage(): DisplayLanguage {
    return resolveLanguage(this.#preferred());
  }

  /** Tells main the language now and after each change (its messages and notices follow it). */
  connect(client: IpcClient): void {
    this.#client = client;
    void this.#tellMain();
  }

  /** Shows the app in `setting` from now on, without a reload, and remembers it. */
  choose(setting: LanguageSetting): void {
    this.#setting = setting;
    this.#storage?.setItem(STORAGE_KEY, setting);
    this.#apply();
    void this.#tellMain();
  }

  #apply(): void {
    const language = this.#setting === 'system' ? this.systemLanguage : this.#setting;
    applyLanguage(language, this.#preferred()[0]);
    if (typeof document !== 'undefined') document.documentElement.lang = language;
    this.#version += 1;
  }

  async #tellMain(): Promise<void> {
    // A main that does not answer keeps English messages; the screen's own words are already switched.
    const answer = await this.#client?.invoke('app:language', {
      language: currentLanguage(),
      systemLocale: this.#preferred()[0],
    });
    if (answer?.ok) this.mainVersion += 1;
  }
}

/** The app's one language state (App.svelte connects it to main; Settings changes it). */
export const language = new LanguageState();
