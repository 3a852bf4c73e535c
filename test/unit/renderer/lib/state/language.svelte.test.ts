import { afterEach, describe, expect, it } from 'vitest';
import { format } from '../../../../../electron/shared/format';
import { setLanguage, t } from '../../../../../electron/shared/i18n';
import { IpcClient } from '../../../../../renderer/src/lib/ipc';
import { LanguageState } from '../../../../../renderer/src/lib/state/language.svelte';
import { createPreloadTransport, type Bridge } from '../../../../../renderer/src/lib/transport';

afterEach(() => setLanguage('en'));

/** A page's storage, as a map the test reads. */
function storageOf(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

/** A client whose calls to main are recorded, each answered null. */
function recordingClient() {
  const crossed: Array<[string, unknown]> = [];
  const bridge: Bridge = {
    invoke: async (channel, input) => {
      crossed.push([channel, input]);
      return { ok: true, value: null };
    },
    on: () => () => undefined,
  };
  return { client: new IpcClient(createPreloadTransport(bridge)), crossed };
}

describe('LanguageState', () => {
  it("starts in the computer's language, English when the app does not speak it", () => {
    new LanguageState(storageOf(), () => ['de-AT', 'en']);
    expect(t('app:settingsTitle')).toBe('Einstellungen');
    expect(format.locale).toBe('de-AT');
    new LanguageState(storageOf(), () => ['pt-BR']);
    expect(t('app:settingsTitle')).toBe('Settings');
  });

  // That a screen redraws in place is seen in Chromium (test/e2e): unit tests run Svelte's server build, where
  // effects do not run.
  it('switches words and times when the language changes, and remembers the choice', () => {
    const storage = storageOf();
    const state = new LanguageState(storage, () => ['de-DE']);
    expect(format.duration(125_000)).toBe('2 Min., 5 Sek.');
    state.choose('fr');
    expect(t('app:settingsTitle')).toBe('Paramètres');
    expect(format.duration(125_000)).toBe('2\u00a0min 5\u202fs');
    expect(storage.values.get('fieldKit.language')).toBe('fr');
    expect(new LanguageState(storage, () => ['de-DE']).setting).toBe('fr');
  });

  it('goes back to following the computer, and ignores a stored value it does not know', () => {
    const storage = storageOf({ 'fieldKit.language': 'klingon' });
    const state = new LanguageState(storage, () => ['es-MX']);
    expect(state.setting).toBe('system');
    expect(t('app:settingsTitle')).toBe('Ajustes');
    state.choose('de');
    state.choose('system');
    expect(t('app:settingsTitle')).toBe('Ajustes');
    expect(storage.values.get('fieldKit.language')).toBe('system');
  });

  it('tells main the language and the computer locale, at once and after each change', async () => {
    const { client, crossed } = recordingClient();
    const state = new LanguageState(storageOf(), () => ['fr-CA']);
    state.connect(client);
    state.choose('es');
    await Promise.resolve();
    expect(crossed).toEqual([
      ['app:language', { language: 'fr', systemLocale: 'fr-CA' }],
      ['app:language', { language: 'es', systemLocale: 'fr-CA' }],
    ]);
  });
});
