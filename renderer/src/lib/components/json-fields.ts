/**
 * A new list item shaped like an existing one, its values blank: empty texts, zero numbers, "no" flags, empty
 * lists. The technician fills it in field by field.
 */
export function blankLike(value: unknown): unknown {
  if (typeof value === 'string') return '';
  if (typeof value === 'number') return 0;
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, blankLike(item)]));
  return null;
}
