import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCatalogue, MESSAGES_DIR } from '../../../../scripts/messages.mjs';
import {
  currentLanguage,
  isMessageKey,
  resolveLanguage,
  setLanguage,
  t,
  translatorFor,
} from '../../../../electron/shared/i18n';
import { pseudoLocalize } from '../../../../electron/shared/i18n/pseudo';

let copies: string[] = [];
afterEach(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  copies = [];
  setLanguage('en');
});

/** A copy of the real catalogue with one file changed by `edit`. */
function brokenCopy(file: string, edit: (messages: Record<string, string>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
  copies.push(dir);
  cpSync(MESSAGES_DIR, dir, { recursive: true });
  const path = join(dir, file);
  const messages = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  edit(messages);
  writeFileSync(path, JSON.stringify(messages));
  return dir;
}

describe('the message catalogue', () => {
  it('has every English message in French, Spanish and German, with the same placeholders', () => {
    expect(checkCatalogue()).toEqual([]);
  });

  it('names a message missing in one language', () => {
    const dir = brokenCopy('de/app.json', (messages) => delete messages.settingsTitle);
    expect(checkCatalogue(dir)).toEqual(['app:settingsTitle: missing in de']);
  });

  it('names a placeholder that differs from English', () => {
    const dir = brokenCopy('fr/app.json', (messages) => {
      messages.settingsProfileSaved = 'Profil « {{nom}} » enregistré.';
    });
    expect(checkCatalogue(dir)).toEqual([
      'app:settingsProfileSaved: fr has placeholders {nom}, English {name}',
    ]);
  });

  it('names a plural form a language needs and lacks', () => {
    const dir = brokenCopy('fr/common.json', (messages) => delete messages.gatewayCount_many);
    expect(checkCatalogue(dir)).toEqual(['common:gatewayCount: fr lacks the plural form _many']);
  });

  it('names an English message without a description for translators, and a translation English lacks', () => {
    const undescribed = brokenCopy('descriptions/app.json', (messages) => delete messages.settingsTitle);
    expect(checkCatalogue(undescribed)).toEqual([
      'descriptions/app.json: "settingsTitle" has no description for translators',
    ]);
    const extra = brokenCopy('es/app.json', (messages) => {
      messages.settingsGone = 'Ya no existe';
    });
    expect(checkCatalogue(extra)).toEqual(['es/app.json: "settingsGone" is not an English message']);
  });
});

describe('t', () => {
  it('writes the current language, switching without anything reloaded', () => {
    expect(t('app:settingsTitle')).toBe('Settings');
    setLanguage('de');
    expect(t('app:settingsTitle')).toBe('Einstellungen');
    expect(currentLanguage()).toBe('de');
  });

  it('chooses the plural form by the language rules', () => {
    const french = translatorFor('fr');
    expect(french('common:gatewayCount', { count: 1 })).toBe('1 passerelle');
    expect(french('common:gatewayCount', { count: 3 })).toBe('3 passerelles');
    expect(french('common:gatewayCount', { count: 1_000_000 })).toBe('1000000 de passerelles');
    expect(t('common:gatewayCount', { count: 1 })).toBe('1 gateway');
  });

  it('leaves a placeholder value as it is: the screen escapes, not the catalogue', () => {
    expect(t('app:settingsProfileSaved', { name: '<b>&' })).toBe('Saved profile “<b>&”.');
  });

  it('knows its keys, a plural by its base name, and nothing a record or the server could invent', () => {
    expect(isMessageKey('app:settingsTitle')).toBe(true);
    expect(isMessageKey('common:gatewayCount')).toBe(true);
    for (const invented of [
      'app:noSuchMessage',
      'app:constructor',
      'nowhere:settingsTitle',
      'settingsTitle',
      '',
    ])
      expect(isMessageKey(invented), invented).toBe(false);
  });

  it('writes a fixed language whatever the current one is', () => {
    setLanguage('es');
    expect(translatorFor('fr')('app:settingsTitle')).toBe('Paramètres');
    expect(t('app:settingsTitle')).toBe('Ajustes');
  });
});

describe('languages', () => {
  it('follows the first preferred language the app speaks, English when none', () => {
    expect(resolveLanguage(['pt-BR', 'de-AT', 'fr'])).toBe('de');
    expect(resolveLanguage(['pt-BR'])).toBe('en');
    expect(resolveLanguage([])).toBe('en');
    expect(resolveLanguage(['en-XA'])).toBe('en-XA');
  });

  it('has a pseudo-locale 40 % longer, bracketed, its placeholders kept', () => {
    const english = 'Saved profile “{{name}}”.';
    const pseudo = pseudoLocalize(english);
    expect(pseudo).toMatch(/^\[Šåṽéð þŕöƒîļé “\{\{name\}\}”\. .*\]$/);
    expect(pseudo.length).toBeGreaterThanOrEqual(english.length * 1.4);
    setLanguage('en-XA');
    expect(t('app:settingsProfileSaved', { name: 'acme-gw-0013' })).toContain('acme-gw-0013');
  });
});
