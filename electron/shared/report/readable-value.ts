import { labelOfField } from '../api/field-labels';

/** One setting of a value in words: its label path ("DoS prevention › Burst limit") and its value as text. */
export interface ReadableField {
  /** The labels from the value's root to this setting, joined by " › "; empty for a value that is one setting. */
  label: string;
  text: string;
  /** True when the text is pretty-printed JSON: a part nested deeper than the report spells out. */
  isJson?: boolean;
}

/** How deep the report spells a value out in labelled settings; anything deeper is shown as pretty JSON. */
export const READABLE_DEPTH = 4;

/** A single value in words: yes/no, "(none)" for null or an empty list, "(empty)" for an empty text. */
export function describeScalar(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return '(none)';
  if (value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value, null, 2) ?? String(value);
}

const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/**
 * A value as labelled settings, leaf by leaf: an object's fields by their names in words (labelOfField), a list's
 * items by their number, a list of plain values as one comma-separated text. What is nested deeper than
 * READABLE_DEPTH stays JSON, pretty-printed, so nothing is lost.
 */
export function flattenReadable(value: unknown, depth = 0): ReadableField[] {
  if (isScalar(value)) return [{ label: '', text: describeScalar(value) }];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index + 1), item])
    : Object.entries(value as Record<string, unknown>).map(([key, item]) => [labelOfField(key), item]);
  if (entries.length === 0) return [{ label: '', text: '(none)' }];
  if (Array.isArray(value) && value.every(isScalar))
    return [{ label: '', text: value.map(describeScalar).join(', ') }];
  if (depth >= READABLE_DEPTH)
    return [{ label: '', text: JSON.stringify(value, null, 2) ?? String(value), isJson: true }];
  return entries.flatMap(([label, item]) =>
    flattenReadable(item, depth + 1).map((field) => ({
      ...field,
      label: field.label ? `${label} › ${field.label}` : label,
    })),
  );
}
