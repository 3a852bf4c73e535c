import { labelOfField } from '../api/field-labels';
import { t, type Translator } from '../i18n';

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

/**
 * A single value in words: yes/no, "(none)" for null or an empty list, "(empty)" for an empty text, in the language
 * of `translate` (the app's when left out).
 */
export function describeScalar(value: unknown, translate: Translator = t): string {
  if (value === undefined) return '—';
  if (value === null) return translate('document:valueNone');
  if (value === '') return translate('document:valueEmpty');
  if (typeof value === 'boolean') return translate(value ? 'document:yes' : 'document:no');
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
export function flattenReadable(value: unknown, depth = 0, translate: Translator = t): ReadableField[] {
  if (isScalar(value)) return [{ label: '', text: describeScalar(value, translate) }];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index + 1), item])
    : Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        labelOfField(key, translate),
        item,
      ]);
  if (entries.length === 0) return [{ label: '', text: translate('document:valueNone') }];
  if (Array.isArray(value) && value.every(isScalar))
    return [{ label: '', text: value.map((item) => describeScalar(item, translate)).join(', ') }];
  if (depth >= READABLE_DEPTH)
    return [{ label: '', text: JSON.stringify(value, null, 2) ?? String(value), isJson: true }];
  return entries.flatMap(([label, item]) =>
    flattenReadable(item, depth + 1, translate).map((field) => ({
      ...field,
      label: field.label ? `${label} › ${field.label}` : label,
    })),
  );
}
