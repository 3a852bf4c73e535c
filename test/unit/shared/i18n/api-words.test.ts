import { afterEach, describe, expect, it } from 'vitest';
import {
  EVENT_NAMES,
  EVENT_SEVERITIES,
  EVENT_SOURCES,
  EVENT_STATES,
  EVENT_TYPES,
} from '../../../../electron/shared/api/events';
import { setLanguage, translatorFor } from '../../../../electron/shared/i18n';
import {
  deviceStateWords,
  eventNameWords,
  eventSourceWords,
  eventStateWords,
  eventTypeWords,
  roleWords,
  severityWords,
} from '../../../../electron/shared/i18n/api-words';

afterEach(() => setLanguage('en'));

const API_IDENTIFIER = /^[A-Z0-9_]+$|^[a-z]+[A-Z]/;

describe('words for API values', () => {
  it('has words, not identifiers, for every event value of the spec in every language', () => {
    for (const language of ['en', 'fr', 'es', 'de'] as const) {
      const translate = translatorFor(language);
      const written = [
        ...EVENT_NAMES.map((name) => eventNameWords(name, translate)),
        ...EVENT_TYPES.map((type) => eventTypeWords(type, translate)),
        ...EVENT_SEVERITIES.map((severity) => severityWords(severity, translate)),
        ...EVENT_STATES.map((state) => eventStateWords(state, translate)),
        ...EVENT_SOURCES.map((source) => eventSourceWords(source, translate)),
      ];
      for (const words of written) {
        expect(words).not.toMatch(API_IDENTIFIER);
        expect(words).not.toMatch(/^(Other|Autre|Otro|Sonstiges) \(/);
      }
    }
  });

  it('writes a role in the current language', () => {
    expect(roleWords('CUSTOMER_USER')).toBe('Customer user');
    setLanguage('de');
    expect(roleWords('CUSTOMER_USER')).toBe('Kunden-Benutzer');
  });

  it('says "Other (value)" for a value the server invents, whatever it holds', () => {
    expect(eventNameWords('GATEWAY_ON_FIRE')).toBe('Other (GATEWAY_ON_FIRE)');
    expect(roleWords('x'.repeat(500))).toBe(`Other (${'x'.repeat(64)})`);
    expect(severityWords(undefined)).toBe('Other (undefined)');
    expect(eventTypeWords('constructor')).toBe('Other (constructor)');
    expect(translatorFor('fr')('enums:otherValue', { value: 'X' })).toBe('Autre (X)');
  });
});

describe('device states', () => {
  it('names the states the server sends, in the language shown, and marks others', () => {
    expect(deviceStateWords('ACTIVE')).toBe('Active');
    expect(deviceStateWords('INACTIVE')).toBe('Inactive');
    expect(deviceStateWords('DORMANT')).toBe('Other (DORMANT)');
    setLanguage('de');
    expect(deviceStateWords('INACTIVE')).toBe('Inaktiv');
    expect(deviceStateWords('ACTIVE')).toBe('Aktiv');
    setLanguage('fr');
    expect(deviceStateWords('INACTIVE')).toBe('Inactif');
  });
});
