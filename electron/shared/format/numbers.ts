/**
 * Numbers, sizes, signal levels and durations of one locale, through cached `Intl.NumberFormat` objects; what is
 * not a finite number (or a negative size or duration) reads as UNKNOWN_NUMBER or UNKNOWN_DURATION, never "NaN".
 */

/** What a number that is missing or not finite reads as. */
export const UNKNOWN_NUMBER = 'unknown';
/** What a duration that is missing, negative or not finite reads as. */
export const UNKNOWN_DURATION = 'unknown duration';

/** Sizes in SI units, as file managers and the gateway's own tools write them: 1 kB is 1000 bytes. */
const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** Units of a duration, largest first, with their length in milliseconds. */
const DURATION_UNITS = [
  { unit: 'day', ms: 86_400_000 },
  { unit: 'hour', ms: 3_600_000 },
  { unit: 'minute', ms: 60_000 },
  { unit: 'second', ms: 1000 },
] as const;

/** The number part of a Formatter: one locale, its `Intl` objects built once and kept. */
export class NumberWriter {
  readonly #numbers = new Map<string, Intl.NumberFormat>();
  #list: Intl.ListFormat | undefined;

  constructor(readonly locale: string) {}

  /** A plain number with at most `maximumFractionDigits` decimals (default 2), grouped as the locale groups. */
  number(value: number | null | undefined, maximumFractionDigits = 2): string {
    if (!isNumber(value)) return UNKNOWN_NUMBER;
    return this.#writer(`number:${maximumFractionDigits}`, { maximumFractionDigits }).format(value);
  }

  /** A share given as a fraction (0.42 → "42%"; "42 %" in fr-FR), whole percent unless told. */
  percent(fraction: number | null | undefined, maximumFractionDigits = 0): string {
    if (!isNumber(fraction)) return UNKNOWN_NUMBER;
    return this.#writer(`percent:${maximumFractionDigits}`, {
      style: 'percent',
      maximumFractionDigits,
    }).format(fraction);
  }

  /** A size in bytes: "999 bytes", "1.5 kB", "2.3 MB" (SI units, one decimal); negative sizes are unknown. */
  bytes(count: number | null | undefined): string {
    if (!isNumber(count) || count < 0) return UNKNOWN_NUMBER;
    if (count < 1000) {
      const writer = this.#writer('byte', { style: 'unit', unit: 'byte', unitDisplay: 'long' });
      return writer.format(Math.round(count));
    }
    let value = count / 1000;
    let index = 0;
    // Round first, so that 999,960 bytes reads "1 MB" rather than "1,000 kB".
    while (index < BYTE_UNITS.length - 1 && Math.round(value * 10) / 10 >= 1000) {
      value /= 1000;
      index += 1;
    }
    const unit = BYTE_UNITS[index]!;
    return this.#writer(unit, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
  }

  /** A power level in dBm, to a tenth ("-97.5 dBm"): the unit is the same in every language. */
  decibelMilliwatts(value: number | null | undefined): string {
    return isNumber(value) ? `${this.number(value, 1)} dBm` : UNKNOWN_NUMBER;
  }

  /** A ratio in dB (SINR, RSRQ), to a tenth ("7.5 dB"). */
  decibels(value: number | null | undefined): string {
    return isNumber(value) ? `${this.number(value, 1)} dB` : UNKNOWN_NUMBER;
  }

  /**
   * A duration in milliseconds as a technician reads it, to its two largest units: "45 sec", "2 min 5 sec",
   * "3 hr 10 min", "2 days 7 hr" (en-US; "2 min 5 s" in fr-FR). Under a minute, seconds to a tenth ("0.3 sec");
   * a second unit that is zero is left out ("15 hr").
   */
  duration(ms: number | null | undefined): string {
    if (!isNumber(ms) || ms < 0) return UNKNOWN_DURATION;
    // A tenth of a second under ten seconds (a timeout of 0.3 s), whole seconds above.
    const rounded = ms < 9950 ? Math.round(ms / 100) * 100 : Math.round(ms / 1000) * 1000;
    if (rounded < 60_000) return this.#unit('second', rounded / 1000);
    const seconds = rounded;
    const largest = DURATION_UNITS.findIndex(({ ms: length }) => seconds >= length);
    const first = DURATION_UNITS[largest]!;
    const next = DURATION_UNITS[largest + 1];
    const firstCount = Math.floor(seconds / first.ms);
    const nextCount = next ? Math.floor((seconds % first.ms) / next.ms) : 0;
    const parts = [this.#unit(first.unit, firstCount)];
    if (next && nextCount > 0) parts.push(this.#unit(next.unit, nextCount));
    this.#list ??= new Intl.ListFormat(this.locale, { type: 'unit', style: 'narrow' });
    return this.#list.format(parts);
  }

  #unit(unit: string, value: number): string {
    return this.#writer(`unit:${unit}`, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: 1,
    }).format(value);
  }

  #writer(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
    let writer = this.#numbers.get(key);
    if (!writer) {
      writer = new Intl.NumberFormat(this.locale, options);
      this.#numbers.set(key, writer);
    }
    return writer;
  }
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
