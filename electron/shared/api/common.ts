import { z } from 'zod';
import { t, type MessageKey, type MessageParams } from '../i18n';
import { isServerTime } from '../time';

/**
 * A zod `error` option that writes the message `key` when the check fails, in the language on screen then (not the
 * one at start-up): the shared schemas' messages reach a person through the forms.
 */
export const spoken = (key: MessageKey, params?: MessageParams) => (): string => t(key, params);

/** A reference to another entity: `{ entityType, id }`. */
export const EntityReferenceSchema = z.object({
  entityType: z.string(),
  id: z.string().min(1),
});

/** A reference whose entity type is fixed, e.g. `entityReference('APPLICATION')`; refuses any other type. */
export function entityReference<Type extends string>(entityType: Type) {
  return z.looseObject({
    entityType: z.literal(entityType, { error: spoken('errors:referenceWrongType', { entityType }) }),
    id: z.string().min(1, { error: spoken('errors:idEmpty') }),
  });
}

/** Integer timestamp in milliseconds since the epoch (API assumption: milliseconds everywhere). */
export const TimestampSchema = z.int().nonnegative();

const SERVER_TIME_RANGE = 'must be a time from 1970 to the end of year 9999 in milliseconds';

/**
 * A time a server sends, in milliseconds since the epoch: a whole number from 1970 to the end of year 9999
 * (`isServerTime`) is kept; null, or any other number (9e15, a fraction, a negative), is null: unknown. Past
 * ±8.64e15 a `Date` is invalid and formatting it throws, and a server (or a site pack stored from one) may hold
 * any number. Null in, null out, so a record read back from a file parses as it did from the server.
 */
export const ServerTimeSchema = z
  .number(SERVER_TIME_RANGE)
  .nullable()
  .transform((value) => (isServerTime(value) ? value : null));

/**
 * A server time where "unknown" cannot be said — null already means something (a device never active, an event
 * still raised) or the time orders a series: a time outside `isServerTime`'s range is refused, naming the field.
 */
export const KnownServerTimeSchema = z.number(SERVER_TIME_RANGE).refine(isServerTime, SERVER_TIME_RANGE);

/** A string field that a server may send as null or leave out. */
export const optionalString = z.string().nullish();
/** An integer field that a server may send as null or leave out. */
export const optionalInt = z.int().nullish();
/** A boolean field that a server may send as null or leave out. */
export const optionalBoolean = z.boolean().nullish();

/** ThingsBoard's page shape (API assumption): `{ data, totalPages, totalElements, hasNext }`. */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    data: z.array(item),
    totalPages: z.int().nonnegative(),
    totalElements: z.int().nonnegative(),
    hasNext: z.boolean(),
  });
}
/** One page of a paginated list. */
export type Page<Item> = { data: Item[]; totalPages: number; totalElements: number; hasNext: boolean };

/** A TCP port, 1 to 65535. */
export const PortSchema = z
  .int()
  .min(1, { error: spoken('errors:portInvalid') })
  .max(65535, { error: spoken('errors:portInvalid') });

const HOSTNAME =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/;
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^[0-9a-fA-F:]+(%[\w.]+)?$/;

/** True for an IPv4 address in dotted form. */
export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}
/** True for an IPv6 address (a loose check: hex digits and colons, at least two colons). */
export function isIpv6(value: string): boolean {
  return IPV6.test(value) && (value.match(/:/g)?.length ?? 0) >= 2;
}
/** True for a DNS host name (labels of letters, digits and hyphens). */
export function isHostname(value: string): boolean {
  return HOSTNAME.test(value) && !/^[\d.]+$/.test(value);
}

/** A host name or an IP address, with no scheme, port or path. */
export const HostSchema = z
  .string()
  .min(1, { error: spoken('errors:valueEmpty') })
  .refine((value) => isHostname(value) || isIpv4(value) || isIpv6(value), {
    error: spoken('errors:hostInvalid'),
  });

/** An IPv4 or IPv6 address. */
export const IpAddressSchema = z
  .string()
  .min(1, { error: spoken('errors:valueEmpty') })
  .refine((value) => isIpv4(value) || isIpv6(value), { error: spoken('errors:ipAddressInvalid') });
