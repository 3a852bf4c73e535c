import { z } from 'zod';
import { EntityReferenceSchema, KnownServerTimeSchema, spoken, TimestampSchema } from './common';

/** Event names of the eventName filter, exactly as the spec lists them (DECODER_ included as written). */
export const EVENT_NAMES = [
  'GATEWAY_HIGH_TEMP_SHUTDOWN_ALARM',
  'GATEWAY_LOW_BATTERY_ALARM',
  'GATEWAY_SWITCHED_TO_BATTERY_POWER',
  'GATEWAY_SWITCHED_TO_SECONDARY_NETWORK_INTERFACE_ALARM',
  'GATEWAY_HIGH_RAM_UTILIZATION',
  'GATEWAY_HIGH_DISK_UTILIZATION',
  'GATEWAY_HIGH_CPU_UTILIZATION',
  'SECURITY_ALARM',
  'STATUS_UPDATE_ALARM',
  'GATEWAY_SHUTDOWN_ALARM',
  'GATEWAY_PERFORMANCE_DEGRADE_ALARM',
  'GATEWAY_INTERFACE_ALARM',
  'GATEWAY_AUTHENTICATION_ERROR',
  'GATEWAY_EVENTS_REPORTING_RATE_EXCEEDED',
  'GATEWAY_MQTT_RATE_EXCEEDED',
  'DL_QUEUESIZE_EXCEEDED',
  'DEVICE_CANNOT_JOIN',
  'TOO_FREQUENT_UPLINKS',
  'UNKNOWN_DEVICE',
  'LORA_MIC_FAILURE',
  'INTEGRATION_DL_ENCODING_FAILURE',
  'GATEWAY_MQTT_CONNECTION_LOST',
  'GATEWAY_DATA_REPORTING_INTERVAL_EXCEEDED',
  'DEVICE_DATA_REPORTING_INTERVAL_EXCEEDED',
  'INTEGRATION_DISCONNECTED',
  'DECODER_',
  'ENCODER_BANNED',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The spelling the spec's example filter uses for GATEWAY_HIGH_RAM_UTILIZATION; accepted as a synonym. */
export const EVENT_NAME_SYNONYMS: Record<string, EventName> = {
  GATEWAY_HIGH_RAM_UTILISATION: 'GATEWAY_HIGH_RAM_UTILIZATION',
};

/** Event sources, categories, severities and states of the spec. */
export const EVENT_SOURCES = ['GATEWAY', 'DEVICE', 'INTEGRATION'] as const;
export const EVENT_TYPES = ['Alarms', 'Faults', 'Events', 'Offline'] as const;
export const EVENT_SEVERITIES = ['Critical', 'Major', 'Minor'] as const;
export const EVENT_STATES = ['Raised', 'Clear'] as const;
/** Sort orders the client sends (the spec's example uses desc). */
export const EVENT_SORT_ORDERS = ['asc', 'desc'] as const;
/** Entity types of the per-entity events endpoint. */
export const EVENT_ENTITY_TYPES = ['GATEWAY', 'DEVICE', 'INTEGRATION'] as const;

const eventNameSchema = z
  .string()
  .transform((name) => EVENT_NAME_SYNONYMS[name] ?? name)
  .pipe(z.enum(EVENT_NAMES, { error: spoken('errors:eventNameUnknown') }));

const limit = z
  .int({ error: spoken('errors:fieldWholeNumber', { field: 'limit' }) })
  .min(1, { error: spoken('errors:fieldRangeFromOne', { field: 'limit', max: 100 }) })
  .max(100, { error: spoken('errors:fieldRangeFromOne', { field: 'limit', max: 100 }) });
const page = z
  .int({ error: spoken('errors:fieldWholeNumber', { field: 'page' }) })
  .nonnegative({ error: spoken('errors:pageFromZero') });

const startTs = z
  .int({ error: spoken('errors:startTsRequired') })
  .nonnegative({ error: spoken('errors:startTsNegative') });

const eventQueryFields = {
  startTs,
  endTs: TimestampSchema.optional(),
  entityIdUuid: z.string().min(1).optional(),
  entityName: z.string().min(1).optional(),
  eventName: eventNameSchema.optional(),
  eventType: z.enum(EVENT_TYPES, { error: 'eventType must be Alarms, Faults, Events or Offline' }).optional(),
  ituType: z.string().min(1).optional(),
  limit: limit.optional(),
  page: page.optional(),
  severity: z.enum(EVENT_SEVERITIES, { error: 'severity must be Critical, Major or Minor' }).optional(),
  sortField: z
    .string()
    .regex(/^[a-zA-Z_]+$/, 'sortField must be a field name such as start_ts')
    .optional(),
  sortOrder: z.enum(EVENT_SORT_ORDERS, { error: 'sortOrder must be asc or desc' }).optional(),
  source: z.enum(EVENT_SOURCES, { error: 'source must be GATEWAY, DEVICE or INTEGRATION' }).optional(),
};

const rangeInOrder = (query: { startTs: number; endTs?: number | undefined }) =>
  query.endTs === undefined || query.startTs <= query.endTs;
const RANGE_ERROR = { path: ['endTs'], error: spoken('errors:eventRangeOrder') };

/** Query of GET /api/enhancedEvents (startTs required, limit 1–100, page from 0). */
export const EnhancedEventQuerySchema = z
  .strictObject({
    ...eventQueryFields,
    state: z.enum(EVENT_STATES, { error: 'state must be Raised or Clear' }).optional(),
  })
  .refine(rangeInOrder, RANGE_ERROR);

/** Query of GET /api/enhancedEventsRaised: the same filters except state. */
export const RaisedEventQuerySchema = z.strictObject(eventQueryFields).refine(rangeInOrder, RANGE_ERROR);

/** Query of the per-entity events endpoint. */
export const EntityEventQuerySchema = z
  .strictObject({
    startTs: TimestampSchema,
    endTs: TimestampSchema.optional(),
    limit: limit.optional(),
    page: page.optional(),
  })
  .refine(rangeInOrder, RANGE_ERROR);

/** Path of the per-entity events endpoint: entity type, id and event category. */
export const EntityEventParamsSchema = z.object({
  entityType: z.enum(EVENT_ENTITY_TYPES, { error: 'entityType must be GATEWAY, DEVICE or INTEGRATION' }),
  entityId: z.string().min(1),
  eventType: z.enum(EVENT_TYPES, { error: 'eventType must be Alarms, Faults, Events or Offline' }),
});

/** An enhanced event (API assumption: the spec does not show it). endTs is null while the event is raised. */
export const EnhancedEventSchema = z.object({
  id: z.string(),
  startTs: KnownServerTimeSchema,
  endTs: KnownServerTimeSchema.nullable(),
  source: z.string(),
  entityId: z.string(),
  entityName: z.string().nullish(),
  eventName: z.string(),
  eventType: z.string(),
  severity: z.string(),
  state: z.string(),
  ituType: z.string().nullish(),
  details: z.unknown().optional(),
  /** The customer whose entity raised the event (API assumption, as ThingsBoard's alarms carry it). */
  customerId: EntityReferenceSchema.nullish(),
});
export type EnhancedEvent = z.infer<typeof EnhancedEventSchema>;
