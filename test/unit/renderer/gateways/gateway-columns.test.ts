import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../../electron/shared/i18n';
import {
  gatewayTableColumns,
  optionalColumns,
  readShownColumns,
  SHOWN_COLUMNS_KEY,
  writeShownColumns,
} from '../../../../renderer/src/views/gateways/gateway-columns';
import { gatewayStatusWords } from '../../../../renderer/src/views/gateways/gateway-status';

afterEach(() => setLanguage('en'));

/** A storage kept in a Map, as localStorage keeps strings. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('the gateway list columns', () => {
  it('shows name, MAC, model, status and last seen, and the flags only when chosen', () => {
    expect(gatewayTableColumns(new Set()).map((column) => column.label)).toEqual([
      'Name',
      'MAC',
      'Model',
      'Status',
      'Last seen',
    ]);
    const withPublic = gatewayTableColumns(new Set(['public'])).map((column) => column.label);
    expect(withPublic).toContain('Public');
    expect(withPublic).not.toContain('Logging');
  });

  it('offers each optional column with the API field behind it, in the current language', () => {
    setLanguage('de');
    expect(optionalColumns()).toContainEqual({ id: 'public', label: 'Öffentlich', apiField: 'isPublic' });
    expect(gatewayTableColumns(new Set()).map((column) => column.label)).toContain('Zuletzt gesehen');
  });

  it('remembers the chosen columns and reads back only known ones, whatever the storage holds', () => {
    const storage = memoryStorage();
    writeShownColumns(storage, new Set(['udp', 'created']));
    expect(readShownColumns(storage)).toEqual(new Set(['udp', 'created']));
    expect(readShownColumns(memoryStorage({ [SHOWN_COLUMNS_KEY]: '["public","name","bogus",3]' }))).toEqual(
      new Set(['public']),
    );
    expect(readShownColumns(memoryStorage({ [SHOWN_COLUMNS_KEY]: '{not json' }))).toEqual(new Set());
    expect(readShownColumns(undefined)).toEqual(new Set());
  });

  it('keeps working when the storage refuses to keep the choice', () => {
    const full = {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writeShownColumns(full, new Set(['public']))).not.toThrow();
  });
});

describe('gateway statuses in words', () => {
  it('says online and offline in the language, and an unknown status as other', () => {
    setLanguage('fr');
    expect(gatewayStatusWords('ONLINE')).toBe('En ligne');
    expect(gatewayStatusWords('OFFLINE')).toBe('Hors ligne');
    expect(gatewayStatusWords('MAINTENANCE')).toBe('Autre (MAINTENANCE)');
  });
});
