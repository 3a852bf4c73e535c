import { t } from '../i18n';

/** One field that differs between two records: its dotted path and both values (undefined = absent). */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every leaf that differs between `before` and `after`, objects compared key by key (sorted), arrays and
 * scalars as a whole. Keys in `ignore` (top level) are skipped.
 */
export function diffRecords(before: unknown, after: unknown, ignore: readonly string[] = []): FieldChange[] {
  const changes: FieldChange[] = [];
  const walk = (left: unknown, right: unknown, path: string): void => {
    if (isPlainObject(left) && isPlainObject(right)) {
      const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort(compareKeys);
      for (const key of keys) {
        if (path === '' && ignore.includes(key)) continue;
        walk(left[key], right[key], path ? `${path}.${key}` : key);
      }
      return;
    }
    if (JSON.stringify(left) !== JSON.stringify(right)) changes.push({ path, before: left, after: right });
  };
  walk(before, after, '');
  return changes;
}

// Data-rate keys "0"…"15" read best in numeric order.
function compareKeys(left: string, right: string): number {
  const isNumeric = /^\d+$/.test(left) && /^\d+$/.test(right);
  return isNumeric ? Number(left) - Number(right) : left.localeCompare(right);
}

/** A value as the diff shows it: "(not set)" for absent, JSON otherwise. */
export function formatDiffValue(value: unknown): string {
  return value === undefined ? t('components:notSet') : JSON.stringify(value);
}
