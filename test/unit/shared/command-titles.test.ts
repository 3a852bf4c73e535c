import { afterEach, describe, expect, it } from 'vitest';
import {
  bspRequirement,
  commandConsequence,
  commandSummary,
  commandTitle,
  matchesCommandFilter,
} from '../../../electron/shared/api/command-titles';
import { COMMAND_NAMES } from '../../../electron/shared/api/commands';
import { LANGUAGES, setLanguage, translatorFor } from '../../../electron/shared/i18n';

// An API identifier: one camel-case word (`getWmNetworkInfo`), never what a technician reads.
const API_IDENTIFIER = /\b[a-z]+[A-Z][A-Za-z_]*\b/;

describe('command titles', () => {
  afterEach(() => setLanguage('en'));

  it('gives every command a title in words, none an API name', () => {
    for (const name of COMMAND_NAMES) {
      expect(commandTitle(name), name).toMatch(/^[A-Z][a-z]+ /);
      expect(commandTitle(name)).not.toContain(name);
    }
  });

  it('gives every command a title and a summary in each language, different from English, never an API identifier', () => {
    const english = translatorFor('en');
    for (const language of LANGUAGES) {
      const translate = translatorFor(language);
      for (const name of COMMAND_NAMES) {
        const title = commandTitle(name, translate);
        expect(title, `${language} ${name}`).not.toBe(name);
        expect(title, `${language} ${name}`).not.toMatch(API_IDENTIFIER);
        expect(commandSummary(name, translate), `${language} ${name}`).not.toMatch(API_IDENTIFIER);
        if (language !== 'en') expect(title, `${language} ${name}`).not.toBe(commandTitle(name, english));
      }
    }
  });

  it('says what each disruptive command does in the language on screen, and nothing for a read', () => {
    setLanguage('de');
    expect(commandTitle('reboot')).toBe('Gateway neu starten');
    expect(commandConsequence('reboot')).toMatch(/^Das Gateway startet neu/);
    expect(commandConsequence('getBackups')).toBeUndefined();
  });

  it('finds a command by its title, its API name or its summary, ignoring case', () => {
    const title = commandTitle('getWmPDP_Profiles');
    const command = { name: 'getWmPDP_Profiles', summary: commandSummary('getWmPDP_Profiles') };
    expect(title).toBe('Read PDP profiles');
    for (const filter of ['pdp profiles', 'GETWMPDP', 'read the pdp']) {
      expect(matchesCommandFilter(command, title, filter), filter).toBe(true);
    }
    expect(matchesCommandFilter(command, title, 'firewall')).toBe(false);
  });
});

describe('bspRequirement', () => {
  afterEach(() => setLanguage('en'));
  const refusal = 'getWmNetworkInfo needs BSP 6.0.2; gateway gw-7 runs BSP 5.0.6 — upgrade it first';

  it('says in words which gateway software a command needs, with no API name', () => {
    expect(bspRequirement('getWmNetworkInfo', refusal)).toBe(
      'Listing cellular networks needs gateway software (BSP) 6.0.2 or later. This gateway runs BSP 5.0.6: upgrade its software first.',
    );
  });

  it('says it in French when the screen is in French', () => {
    setLanguage('fr');
    const message = bspRequirement('getWmNetworkInfo', 'getWmNetworkInfo needs BSP 6.0.2');
    expect(message).toBe(
      'La liste des réseaux cellulaires nécessite le logiciel de passerelle (BSP) 6.0.2 ou plus récent.',
    );
    expect(message).not.toContain('getWmNetworkInfo');
  });

  it('names a command by its title when it has no sentence of its own, and the newest BSP when no version is said', () => {
    expect(bspRequirement('getGpsCoordinates', 'getGpsCoordinates needs BSP 7.1')).toBe(
      '“Read the GPS position” needs gateway software (BSP) 7.1 or later.',
    );
    expect(bspRequirement('setWmPreferredNetwork', 'not supported by this BSP')).toBe(
      '“Choose the cellular network” needs the newest gateway software (BSP).',
    );
  });

  it('leaves any other refusal to the server’s own words', () => {
    expect(bspRequirement('getWmNetworkInfo', 'mcc must not be empty')).toBeUndefined();
    expect(bspRequirement('notACommand', refusal)).toBeUndefined();
  });
});
