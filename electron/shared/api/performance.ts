import { z } from 'zod';
import { KnownServerTimeSchema } from './common';

/** Tags an aggregated performance query may ask for with showTags. */
export const PERFORMANCE_TAGS = [
  'period',
  'gatewayMac',
  'gatewayId',
  'customerId',
  'providerId',
  'gatewayGroupId',
] as const;
export type PerformanceTag = (typeof PERFORMANCE_TAGS)[number];

const ms = z.int('must be a whole number of milliseconds').nonnegative('must not be negative');

const queryFields = {
  startMs: ms.optional(),
  stopMs: ms.optional(),
  order: z.enum(['ASC', 'DESC'], { error: 'order must be ASC or DESC' }).optional(),
  limit: z.int('limit must be a whole number').min(1, 'limit must be at least 1').optional(),
};

const windowInOrder = (query: { startMs?: number | undefined; stopMs?: number | undefined }) =>
  query.startMs === undefined || query.stopMs === undefined || query.startMs <= query.stopMs;
const WINDOW_ERROR = { path: ['stopMs'], error: 'stopMs must not be before startMs' };

/** Query of GET /api/gateway/{gatewayId}/performance/{measurement}/{field}. */
export const PerformanceQuerySchema = z.strictObject(queryFields).refine(windowInOrder, WINDOW_ERROR);

/** showTags: a comma-separated list of distinct tags from PERFORMANCE_TAGS. */
export const ShowTagsSchema = z.string().refine(
  (value) => {
    const tags = value.split(',');
    return (
      tags.every((tag) => (PERFORMANCE_TAGS as readonly string[]).includes(tag)) &&
      new Set(tags).size === tags.length
    );
  },
  { error: `showTags must be a comma-separated list of distinct tags from: ${PERFORMANCE_TAGS.join(', ')}` },
);

/** Query of the aggregated performance endpoints (customer, provider, gateway group). */
export const AggregatedPerformanceQuerySchema = z
  .strictObject({ ...queryFields, showTags: ShowTagsSchema.optional() })
  .refine(windowInOrder, WINDOW_ERROR);

/** One performance sample; `tags` only in aggregated queries, keyed by the tags selected with showTags. */
export const PerformanceSampleSchema = z.object({
  timeMs: KnownServerTimeSchema,
  value: z.number(),
  tags: z.record(z.string(), z.string()).optional(),
});
export type PerformanceSample = z.infer<typeof PerformanceSampleSchema>;

/** Path parameters naming a series: measurement (e.g. a battery group) and field (a measure in it). */
export const SeriesParamsSchema = z.object({
  measurement: z.string().min(1, 'measurement must not be empty'),
  field: z.string().min(1, 'field must not be empty'),
});
