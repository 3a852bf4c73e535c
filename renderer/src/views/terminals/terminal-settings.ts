/** The terminals' settings: one set for every tab, kept in this page's storage between runs. */
export interface TerminalSettings {
  fontSize: number;
  scrollback: number;
  /** Pause after each line of a serial paste. */
  pasteDelayMs: number;
  /** A dim `[HH:mm:ss.SSS]` before each new line on screen (the log has them always). */
  showTimestamps: boolean;
  /** A selection goes to the clipboard as soon as it is made, as in PuTTY. */
  copyOnSelect: boolean;
  /** xterm keeps a text copy of the screen a screen reader follows. */
  screenReaderMode: boolean;
}

/** Where the settings are kept (localStorage in the app, a map in tests). */
type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The font size of a first run, and the one Ctrl+0 goes back to. */
export const FONT_SIZE_DEFAULT = 14;
/** The smallest font size the settings and the zoom keys allow. */
export const FONT_SIZE_MIN = 8;
/** The largest font size the settings and the zoom keys allow. */
export const FONT_SIZE_MAX = 32;

/** The settings of a first run. */
export const TERMINAL_SETTINGS_DEFAULT: TerminalSettings = {
  fontSize: FONT_SIZE_DEFAULT,
  scrollback: 10_000,
  pasteDelayMs: 50,
  showTimestamps: false,
  copyOnSelect: false,
  screenReaderMode: false,
};

const STORAGE_KEY = 'fieldKit.terminalSettings';

/** Limits of the number settings (as the settings' fields enforce them). */
const NUMBER_LIMITS = {
  fontSize: [FONT_SIZE_MIN, FONT_SIZE_MAX],
  scrollback: [100, 200_000],
  pasteDelayMs: [0, 10_000],
} as const;

/**
 * The settings kept last time; each one missing, of the wrong type or out of range is the default instead (storage
 * edited by hand or by an older version never stops the terminals).
 */
export function readTerminalSettings(storage: SettingsStorage | undefined): TerminalSettings {
  let kept: unknown;
  try {
    kept = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    kept = null;
  }
  const source = (typeof kept === 'object' && kept !== null ? kept : {}) as Record<string, unknown>;
  const settings = { ...TERMINAL_SETTINGS_DEFAULT };
  for (const [name, [min, max]] of Object.entries(NUMBER_LIMITS) as Array<
    [keyof typeof NUMBER_LIMITS, readonly [number, number]]
  >) {
    const value = source[name];
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)
      settings[name] = value;
  }
  for (const name of ['showTimestamps', 'copyOnSelect', 'screenReaderMode'] as const) {
    const value = source[name];
    if (typeof value === 'boolean') settings[name] = value;
  }
  return settings;
}

/** Keeps the settings for the next run; a storage that refuses (full, private mode) only loses that. */
export function writeTerminalSettings(
  storage: SettingsStorage | undefined,
  settings: TerminalSettings,
): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Kept for this run only.
  }
}

/**
 * The font size after a zoom key (Ctrl with +, = or −; Ctrl+0 resets), within the limits; undefined for any other
 * key, which then goes to the terminal as typed.
 */
export function zoomFontSize(current: number, key: string): number | undefined {
  if (key === '+' || key === '=') return Math.min(FONT_SIZE_MAX, current + 1);
  if (key === '-' || key === '_') return Math.max(FONT_SIZE_MIN, current - 1);
  if (key === '0') return FONT_SIZE_DEFAULT;
  return undefined;
}
