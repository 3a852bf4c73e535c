import { parseNumberText } from '../../lib/components/number-field';
import { t, type MessageKey } from '../../lib/i18n';

/** Units a token lifetime is edited in, with their length in seconds. */
export const LIFETIME_UNITS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
/** A unit a lifetime is edited in. */
export type LifetimeUnit = keyof typeof LIFETIME_UNITS;

/** The spec's defaults when a customer sets none: access 2 hours, refresh 24 hours. */
export const DEFAULT_LIFETIMES = { accessTokenTtlSeconds: 7_200, refreshTokenTtlSeconds: 86_400 } as const;

/** A lifetime in the largest unit that divides it evenly (minutes at least). */
export function toHumanUnits(seconds: number): { amount: string; unit: LifetimeUnit } {
  for (const unit of ['days', 'hours', 'minutes'] as const) {
    if (seconds % LIFETIME_UNITS[unit] === 0) return { amount: String(seconds / LIFETIME_UNITS[unit]), unit };
  }
  return { amount: String(seconds / LIFETIME_UNITS.minutes), unit: 'minutes' };
}

/** Seconds for a typed amount in a unit: undefined when empty, NaN or a fraction when not whole (the schema says why). */
export function toSeconds(amount: string, unit: LifetimeUnit): number | undefined {
  const value = parseNumberText(amount);
  if (value === undefined) return undefined;
  return Math.round(value * LIFETIME_UNITS[unit] * 1000) / 1000;
}

/** The parts a lifetime is written in, largest first, with their length in seconds. */
const DURATION_PARTS: ReadonlyArray<readonly [MessageKey, number]> = [
  ['app:durationDays', 86_400],
  ['app:durationHours', 3_600],
  ['app:durationMinutes', 60],
  ['app:durationSeconds', 1],
];

/** The words of each unit a lifetime is edited in (the unit drop-down). */
export const LIFETIME_UNIT_WORDS: Record<LifetimeUnit, MessageKey> = {
  minutes: 'app:lifetimeUnitMinutes',
  hours: 'app:lifetimeUnitHours',
  days: 'app:lifetimeUnitDays',
};

/** A lifetime in words: "2 hours", "1 day 30 minutes", "45 seconds". */
export function describeDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '—';
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [key, size] of DURATION_PARTS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(t(key, { count }));
  }
  return parts.join(' ');
}
