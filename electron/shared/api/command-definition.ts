import { z } from 'zod';
import { t, type MessageKey } from '../i18n';
import { labelOfField } from './field-labels';

/** What a gateway command is about; the wizards and the console group commands by it. */
export const COMMAND_GROUPS = [
  'diagnostics',
  'location',
  'backups',
  'software',
  'modem',
  'WAN',
  'firewall',
] as const;
export type CommandGroup = (typeof COMMAND_GROUPS)[number];

/**
 * How much a command can hurt: `read` changes nothing, `change` changes the gateway's configuration,
 * `disruptive` can cut the gateway off or restart it — the UI names the consequence and asks first.
 */
export type CommandRisk = 'read' | 'change' | 'disruptive';

/**
 * How the request body is sent: `empty` = `{}`; `json` = the request object; `bare-integer` = a JSON number
 * alone (deleteWmApn); `none` = no body at all (resetRadioStatisticsCounters).
 */
export type CommandBodyKind = 'empty' | 'json' | 'bare-integer' | 'none';

/** One gateway command of the spec's table. */
export interface GatewayCommandDefinition<
  Request extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
> {
  /** The name used in the app (the spec's path where it shows one). */
  name: string;
  /** Last path segment: POST /api/gateway/{gatewayId}/command/<path>. */
  path: string;
  group: CommandGroup;
  risk: CommandRisk;
  bodyKind: CommandBodyKind;
  request: Request;
  /** `z.unknown()` where the spec shows no response. */
  response: Response;
  /** Available only on the newest BSP. */
  newestBspOnly?: boolean;
  // Its title, summary and (disruptive) consequence are words in the catalogue: command-titles.ts.
}

/** An empty JSON object: the body of a command that takes nothing. */
export const EMPTY = z.strictObject({});
/** No body at all. */
export const NONE = z.undefined();
/** An answer the spec does not show. */
export const UNKNOWN = z.unknown();
/** A count in an answer. */
export const count = z.int();
/** A text in an answer. */
export const text = z.string();
/**
 * A field's rule broken, in words naming the field, as a zod `error` option: written when the check runs, in the
 * language on screen ("Limit per minute must be a whole number" for `perMinLimit`).
 */
export const rule =
  (key: MessageKey, field: string, params: Readonly<Record<string, number>> = {}) =>
  () =>
    t(key, { ...params, label: labelOfField(field) });
/** A text field that must be given and not empty, with messages naming it in words. */
export const required = (field: string) =>
  z
    .string({ error: rule('commands:ruleRequired', field) })
    .min(1, { error: rule('commands:ruleNotEmpty', field) });
/** An index field (a whole number, not negative), with messages naming it in words. */
export const index = (field: string) =>
  z
    .int({ error: rule('commands:ruleWholeNumber', field) })
    .nonnegative({ error: rule('commands:ruleNotNegative', field) });

/** A command of the catalogue; its path is its name unless the spec shows another. */
export function command<Request extends z.ZodType, Response extends z.ZodType>(
  definition: Omit<GatewayCommandDefinition<Request, Response>, 'path'> & { path?: string },
): GatewayCommandDefinition<Request, Response> {
  return { ...definition, path: definition.path ?? definition.name };
}

/**
 * A text field that must be given and pass a shared schema (HostSchema, IpAddressSchema), its messages naming the
 * field in words: `key` says what the schema wants ("… must be a host name or an IP address").
 */
export const requiredAs = (schema: z.ZodType, field: string, key: MessageKey) =>
  required(field).refine((value) => schema.safeParse(value).success, { error: rule(key, field) });

/** A port field (1 to 65535), its messages naming the field in words. */
export const port = (field: string) =>
  z
    .int({ error: rule('commands:ruleWholeNumber', field) })
    .min(1, { error: rule('commands:rulePort', field) })
    .max(65535, { error: rule('commands:rulePort', field) });
