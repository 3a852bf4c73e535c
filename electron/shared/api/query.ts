import type { z } from 'zod';

type RawQuery = Record<string, string | string[] | undefined>;

interface SchemaDefinition {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

function definitionOf(schema: z.ZodType): SchemaDefinition {
  return (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;
}

/** The type at the core of a field schema, seen through optional, default, nullable and pipes. */
function baseType(schema: z.ZodType): string {
  let definition = definitionOf(schema);
  for (let depth = 0; depth < 10; depth++) {
    const inner = definition.innerType ?? (definition.type === 'pipe' ? definition.in : undefined);
    if (!inner) break;
    definition = definitionOf(inner);
  }
  return definition.type;
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  return definitionOf(schema).shape ?? {};
}

/**
 * Turns a query string's values into the types a query schema expects, so that the schema then judges them:
 * `limit=10` → 10, `active=true` → true. A value that is not a clean number or boolean stays a string
 * (`active=maybe`, `limit=1e3`), and the schema refuses it with a message naming the field.
 */
export function decodeQuery(schema: z.ZodType, raw: RawQuery): Record<string, unknown> {
  const shape = shapeOf(schema);
  const decoded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    // Own keys only: a query key such as `toString` must not find Object.prototype's.
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field || Array.isArray(value)) {
      decoded[key] = value;
      continue;
    }
    const type = baseType(field);
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
