import type { z } from 'zod';
import { objectShape, schemaType, unwrapSchema } from './schema-shape';

type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Turns a query string's values into the types a query schema expects, so that the schema then judges them:
 * `limit=10` → 10, `active=true` → true. A value that is not a clean number or boolean stays a string
 * (`active=maybe`, `limit=1e3`), and the schema refuses it with a message naming the field.
 */
export function decodeQuery(schema: z.ZodType, raw: RawQuery): Record<string, unknown> {
  const shape = objectShape(schema);
  const decoded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    // Own keys only: a query key such as `toString` must not find Object.prototype's.
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field || Array.isArray(value)) {
      decoded[key] = value;
      continue;
    }
    const type = schemaType(unwrapSchema(field).schema);
    if (type === 'number' && /^-?\d+(\.\d+)?$/.test(value)) decoded[key] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) decoded[key] = value === 'true';
    else decoded[key] = value;
  }
  return decoded;
}

/** Writes a typed query as a query string (no leading `?`); undefined and null values are left out. */
export function encodeQuery(query: Record<string, unknown> | undefined): string {
  const parameters = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    parameters.append(key, String(value));
  }
  return parameters.toString();
}
