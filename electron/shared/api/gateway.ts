import { z } from 'zod';
import { EntityReferenceSchema, optionalString, ServerTimeSchema } from './common';

/** The nine sort fields of the paginated gateway lists. */
export const GATEWAY_SORT_FIELDS = [
  'CREATED_TIME',
  'NAME',
  'GATEWAY_MAC',
  'GATEWAY_MODEL_NAME',
  'IS_PUBLIC',
  'IS_LOGGING_ENABLED',
  'IS_UDP_ALLOWED',
  'IS_NOT_MQTTS_ALLOWED',
  'STATUS',
] as const;
export type GatewaySortField = (typeof GATEWAY_SORT_FIELDS)[number];

/** The record field each sort field orders by. */
export const GATEWAY_SORT_KEYS: Record<GatewaySortField, keyof Gateway> = {
  CREATED_TIME: 'createdTime',
  NAME: 'name',
  GATEWAY_MAC: 'gatewayMac',
  GATEWAY_MODEL_NAME: 'gatewayModelName',
  IS_PUBLIC: 'isPublic',
  IS_LOGGING_ENABLED: 'isLoggingEnabled',
  IS_UDP_ALLOWED: 'isUdpAllowed',
  IS_NOT_MQTTS_ALLOWED: 'isNotMqttsAllowed',
  STATUS: 'status',
};

/** Default page size of the gateway lists. */
export const GATEWAY_PAGE_SIZE_DEFAULT = 100;

/** Query of the paginated gateway lists. Defaults: limit 100, page 0, DESC (newest first). */
export const GatewayListQuerySchema = z.strictObject({
  limit: z
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .default(GATEWAY_PAGE_SIZE_DEFAULT),
  page: z.int('page must be a whole number').nonnegative('page starts at 0').default(0),
  sortDirection: z.enum(['ASC', 'DESC'], { error: 'sortDirection must be ASC or DESC' }).default('DESC'),
  sortField: z
    .enum(GATEWAY_SORT_FIELDS, { error: `sortField must be one of ${GATEWAY_SORT_FIELDS.join(', ')}` })
    .optional(),
  // Not in the spec: ThingsBoard's name/MAC search parameter (docs/api.md, "Gateway search").
  textSearch: z.string().optional(),
});

/** A gateway record (assumption: the fields the nine sort keys name, plus ids, BSP version and last seen). */
export const GatewaySchema = z.object({
  id: EntityReferenceSchema,
  createdTime: ServerTimeSchema,
  name: z.string(),
  gatewayMac: z.string(),
  gatewayModelName: optionalString,
  isPublic: z.boolean().nullish(),
  isLoggingEnabled: z.boolean().nullish(),
  isUdpAllowed: z.boolean().nullish(),
  isNotMqttsAllowed: z.boolean().nullish(),
  status: z.string(),
  customerId: EntityReferenceSchema.nullish(),
  gatewayGroupId: EntityReferenceSchema.nullish(),
  providerId: EntityReferenceSchema.nullish(),
  bspVersion: optionalString,
  lastSeenTime: ServerTimeSchema.optional(),
});
export type Gateway = z.infer<typeof GatewaySchema>;
