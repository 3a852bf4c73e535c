/**
 * Canonical JSON of a JSON value, the text a visit journal entry is hashed over (docs/adr/0006-visit-journal-format.md):
 * object keys sorted by UTF-16 code units at every level, no whitespace, keys whose value is `undefined` left out,
 * strings and numbers as `JSON.stringify` writes them (ECMAScript's shortest round-trip number form). For the
 * values a journal holds this is the JSON Canonicalization Scheme of RFC 8785. Throws on what JSON cannot carry
 * (a non-finite number, a BigInt, a function, a cycle), so nothing is hashed that a reader could not rebuild.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot hold the number ${value}`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
  }
  if (ancestors.has(value)) throw new TypeError('canonical JSON cannot hold a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value))
      return `[${value.map((item) => (item === undefined ? 'null' : write(item, ancestors))).join(',')}]`;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort(compareCodeUnits);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], ancestors)}`).join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/** Orders strings by UTF-16 code units, as RFC 8785 asks (not by locale, not by code point). */
function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
