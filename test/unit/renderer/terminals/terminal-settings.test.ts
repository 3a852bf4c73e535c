import { describe, expect, it } from 'vitest';
import {
  FONT_SIZE_DEFAULT,
  FONT_SIZE_MAX,
  readTerminalSettings,
  TERMINAL_SETTINGS_DEFAULT,
  writeTerminalSettings,
  zoomFontSize,
} from '../../../../renderer/src/views/terminals/terminal-settings';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('terminal settings', () => {
  it('reads back what was written', () => {
    const storage = memoryStorage();
    const settings = { ...TERMINAL_SETTINGS_DEFAULT, fontSize: 18, copyOnSelect: true, showTimestamps: true };
    writeTerminalSettings(storage, settings);
    expect(readTerminalSettings(storage)).toEqual(settings);
  });

  it('takes the default for each setting that is missing, out of range or not JSON', () => {
    const storage = memoryStorage({ 'fieldKit.terminalSettings': '{"fontSize":400,"copyOnSelect":"yes"}' });
    expect(readTerminalSettings(storage)).toEqual(TERMINAL_SETTINGS_DEFAULT);
    expect(readTerminalSettings(memoryStorage({ 'fieldKit.terminalSettings': '{' }))).toEqual(
      TERMINAL_SETTINGS_DEFAULT,
    );
  });

  it('survives a storage that refuses to keep them', () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writeTerminalSettings(refusing, TERMINAL_SETTINGS_DEFAULT)).not.toThrow();
  });
});

describe('zoomFontSize', () => {
  it('grows with + and =, shrinks with −, resets with 0, within the limits', () => {
    expect([
      zoomFontSize(14, '+'),
      zoomFontSize(14, '='),
      zoomFontSize(14, '-'),
      zoomFontSize(20, '0'),
    ]).toEqual([15, 15, 13, FONT_SIZE_DEFAULT]);
    expect(zoomFontSize(FONT_SIZE_MAX, '+')).toBe(FONT_SIZE_MAX);
  });

  it('leaves other keys to the terminal', () => {
    expect(zoomFontSize(14, 'c')).toBe(undefined);
  });
});
