import { z } from 'zod';

// Reads schemas through zod's public API only (its schema classes, `.unwrap()`, `.in`, `.shape`, `.type`):
// zod's `_zod` internals may change in any release.

/** How deep unwrapSchema looks through wrapper layers (real schemas have two or three). */
const MAX_WRAPPER_DEPTH = 16;

/**
 * The schema at the core of a field, seen through optional, default, prefault, nullable, catch, readonly and
 * pipe layers; `isOptional` says whether one of them lets the value be left out.
 */
export function unwrapSchema(schema: z.core.$ZodType): { schema: z.core.$ZodType; isOptional: boolean } {
  let current = schema;
  let isOptional = false;
  for (let depth = 0; depth < MAX_WRAPPER_DEPTH; depth++) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault
    ) {
      isOptional = true;
      current = current.unwrap();
    } else if (
      current instanceof z.ZodNullable ||
      current instanceof z.ZodCatch ||
      current instanceof z.ZodReadonly ||
      current instanceof z.ZodNonOptional
    ) {
      current = current.unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = current.in;
    } else {
      break;
    }
  }
  return { schema: current, isOptional };
}

/** The kind of value a schema takes (`string`, `number`, `boolean`, `object`, …), from zod's public `type`. */
export function schemaType(schema: z.core.$ZodType): string {
  return schema instanceof z.ZodType ? schema.type : 'unknown';
}

/** The fields of an object schema (seen through its wrappers), or none for any other schema. */
export function objectShape(schema: z.core.$ZodType): Record<string, z.core.$ZodType> {
  const { schema: inner } = unwrapSchema(schema);
  return inner instanceof z.ZodObject ? inner.shape : {};
}
