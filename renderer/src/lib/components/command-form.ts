import { z } from 'zod';
// The command catalogue's schemas are the single source of the form's rules (renderer may import shared).
import type { GatewayCommandDefinition } from '../../../../electron/shared/api/commands';
import { schemaType, unwrapSchema } from '../../../../electron/shared/api/schema-shape';
import { describeIssues, formatPath } from '../../../../electron/shared/api/validation';
import { labelOfField } from '../../../../electron/shared/api/field-labels';
import { t } from '../i18n';

/** One input of a command form, read from the command's request schema. */
export type FormField =
  | { kind: 'text'; key: string; path: (string | number)[]; label: string; isOptional: boolean }
  | { kind: 'number'; key: string; path: (string | number)[]; label: string; isOptional: boolean }
  | { kind: 'boolean'; key: string; path: (string | number)[]; label: string }
  | {
      kind: 'choice';
      key: string;
      path: (string | number)[];
      label: string;
      options: string[];
      isOptional: boolean;
    }
  /** Arrays, records and values of no known shape: edited as JSON text. */
  | { kind: 'json'; key: string; path: (string | number)[]; label: string; isOptional: boolean }
  | { kind: 'group'; key: string; path: (string | number)[]; label: string; fields: FormField[] };

/**
 * What a command's form looks like: `run-only` (no body, or an empty object: just a Run button), `single`
 * (the body is one bare value, like deleteWmApn's index) or `fields` (an object, one input per field).
 */
export type CommandFormSpec =
  { kind: 'run-only' } | { kind: 'single'; field: FormField } | { kind: 'fields'; fields: FormField[] };

/** What the user typed: text per field key, true/false for checkboxes. */
export type FormValues = Record<string, string | boolean>;

/** The key of the single-value form's field (and the path formatPath gives the body root). */
export const ROOT_KEY = formatPath([]);

function describeField(schema: z.core.$ZodType, path: (string | number)[], label: string): FormField {
  const key = formatPath(path);
  const { schema: inner, isOptional } = unwrapSchema(schema);
  if (inner instanceof z.ZodEnum)
    return { kind: 'choice', key, path, label, options: inner.options.map(String), isOptional };
  if (inner instanceof z.ZodLiteral)
    return { kind: 'choice', key, path, label, options: [...inner.values].map(String), isOptional };
  if (inner instanceof z.ZodObject)
    return {
      kind: 'group',
      key,
      path,
      label,
      fields: Object.entries(inner.shape).map(([name, child]) =>
        describeField(child, [...path, name], labelOfField(name)),
      ),
    };
  switch (schemaType(inner)) {
    case 'string':
      return { kind: 'text', key, path, label, isOptional };
    case 'number':
    case 'bigint':
      return { kind: 'number', key, path, label, isOptional };
    case 'boolean':
      return { kind: 'boolean', key, path, label };
    default:
      return { kind: 'json', key, path, label, isOptional };
  }
}

/** Reads a command's request schema into the form that edits it. Never fails: unknown shapes become JSON text. */
export function describeCommandForm(definition: GatewayCommandDefinition): CommandFormSpec {
  if (definition.bodyKind === 'none' || definition.bodyKind === 'empty') return { kind: 'run-only' };
  const { schema } = unwrapSchema(definition.request);
  if (schema instanceof z.ZodObject) {
    const fields = Object.entries(schema.shape).map(([name, child]) =>
      describeField(child, [name], labelOfField(name)),
    );
    return fields.length === 0 ? { kind: 'run-only' } : { kind: 'fields', fields };
  }
  return { kind: 'single', field: describeField(definition.request, [], singleLabel(definition)) };
}

/**
 * The API name a field's label stands for, shown beside it as a hint ("perMinLimit" under "Limit per minute"); none
 * when the label says the same word (Enabled, Description) or the field is the whole body.
 */
export function apiNameOf(field: FormField): string | undefined {
  const name = field.path.at(-1);
  return typeof name === 'string' && name.toLowerCase() !== field.label.toLowerCase() ? name : undefined;
}

function singleLabel(definition: GatewayCommandDefinition): string {
  return definition.bodyKind === 'bare-integer' ? t('components:singleIndex') : t('components:singleBody');
}

/** Every leaf field of a form, depth first (groups flattened). */
export function leafFields(fields: readonly FormField[]): FormField[] {
  return fields.flatMap((field) => (field.kind === 'group' ? leafFields(field.fields) : [field]));
}

/** The values a fresh form starts with: empty texts, unchecked boxes, the first choice of required enums. */
export function initialValues(spec: CommandFormSpec): FormValues {
  const fields =
    spec.kind === 'fields' ? leafFields(spec.fields) : spec.kind === 'single' ? [spec.field] : [];
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'boolean') values[field.key] = false;
    else if (field.kind === 'choice' && !field.isOptional) values[field.key] = field.options[0] ?? '';
    else if (field.kind === 'json') values[field.key] = field.path.length === 0 ? '{}' : '[]';
    else values[field.key] = '';
  }
  return values;
}

/** The outcome of reading a form: the request to send, or a message per field key. */
export type FormReading = { ok: true; request: unknown } | { ok: false; errors: Record<string, string> };

function readLeaf(field: FormField, raw: string | boolean | undefined): { value?: unknown; error?: string } {
  if (field.kind === 'boolean') return { value: raw === true };
  const text = typeof raw === 'string' ? raw : '';
  if (field.kind === 'group') return {};
  if (text.trim() === '' && field.isOptional) return {};
  switch (field.kind) {
    case 'number': {
      const trimmed = text.trim();
      // A text that is not a number goes to the schema as it is, so its own message ("must be a whole
      // number") is the one shown; an empty required field goes as undefined ("… is required").
      if (trimmed === '') return { value: undefined };
      const number = Number(trimmed);
      return { value: Number.isFinite(number) ? number : trimmed };
    }
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: t('components:invalidJson') };
      }
    default:
      return { value: text };
  }
}

function assemble(fields: readonly FormField[], values: FormValues, errors: Record<string, string>) {
  const object: Record<string, unknown> = {};
  for (const field of fields) {
    const name = String(field.path[field.path.length - 1]);
    if (field.kind === 'group') {
      object[name] = assemble(field.fields, values, errors);
      continue;
    }
    const { value, error } = readLeaf(field, values[field.key]);
    if (error) errors[field.key] = error;
    else if (value !== undefined || !('isOptional' in field && field.isOptional)) object[name] = value;
  }
  return object;
}

/**
 * Turns what the user typed into the command's request and checks it against the command's own schema (no
 * rule is re-declared here). Errors are keyed like the fields, so each message goes next to its input; an
 * issue on no field of the form is keyed ROOT_KEY.
 */
export function readCommandForm(
  definition: GatewayCommandDefinition,
  spec: CommandFormSpec,
  values: FormValues,
): FormReading {
  const errors: Record<string, string> = {};
  let request: unknown;
  if (spec.kind === 'run-only') request = definition.bodyKind === 'none' ? undefined : {};
  else if (spec.kind === 'single') {
    const { value, error } = readLeaf(spec.field, values[spec.field.key]);
    if (error) errors[spec.field.key] = error;
    request = value;
  } else request = assemble(spec.fields, values, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const parsed = definition.request.safeParse(request);
  if (parsed.success) return { ok: true, request };
  const known = new Set(
    spec.kind === 'fields' ? leafFields(spec.fields).map((field) => field.key) : [ROOT_KEY],
  );
  for (const issue of describeIssues(parsed.error)) {
    const key = known.has(issue.path) ? issue.path : nearestKey(issue.path, known);
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

function nearestKey(path: string, known: Set<string>): string {
  for (const key of known) if (path.startsWith(`${key}.`) || path.startsWith(`${key}[`)) return key;
  return ROOT_KEY;
}
