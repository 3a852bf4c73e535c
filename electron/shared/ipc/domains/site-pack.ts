import { z } from 'zod';
import { GatewaySchema } from '../../api/gateway';
import { PackGatewayDetailsSchema, PackScopeSchema } from '../../site-pack-file';

const NoInputSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);

/**
 * Which gateways of the scope get their details read: all, those a search finds, the visit list's ids, or the
 * visit list as typed (`entries`: gateway names, MACs in any form, or ids, each resolved against the scope).
 */
export const PackSelectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('search'), text: z.string().trim().min(1).max(200) }).strict(),
  z.object({ kind: z.literal('ids'), ids: z.array(z.string().min(1).max(100)).min(1).max(500) }).strict(),
  z
    .object({
      kind: z.literal('entries'),
      entries: z.array(z.string().trim().min(1).max(200)).min(1).max(500),
    })
    .strict(),
]);

/** Input of `site-pack:prepare`; the scope's name is not taken from the page: main reads it from the server. */
export const PackPrepareInputSchema = z
  .object({ scope: PackScopeSchema.omit({ name: true }).strict(), selection: PackSelectionSchema })
  .strict();

/** Where a preparation is; `done`, `failed` and `cancelled` end it. */
export const PackProgressSchema = z.object({
  jobId: z.string(),
  phase: z.enum(['list', 'details', 'writing', 'done', 'failed', 'cancelled']),
  done: z.number(),
  total: z.number(),
  message: z.string().optional(),
});
/** Where a preparation is. */
export type PackProgressEvent = z.infer<typeof PackProgressSchema>;

/** What the selected profile's pack holds, in short, and the preparation under way if any. */
export const PackStatusSchema = z.object({
  profileId: z.string().nullable(),
  pack: z
    .object({
      preparedAt: z.number(),
      scope: PackScopeSchema,
      gatewayCount: z.number(),
      detailedCount: z.number(),
      sizeBytes: z.number(),
      rootPasswordStored: z.array(z.string()),
      /** The visit list's entries that named no gateway of the scope. */
      unresolved: z.array(z.string()),
    })
    .nullable(),
  job: PackProgressSchema.nullable(),
});

/** Output of `site-pack:gateway`: what the pack holds about a gateway, or null. */
export const PackGatewaySchema = z
  .object({
    asOf: z.number(),
    gateway: GatewaySchema,
    details: PackGatewayDetailsSchema.nullable(),
    hasRootPassword: z.boolean(),
  })
  .nullable();

/** Channels of the site pack domain: name → zod input and output. Spread into the contract (contract.ts). */
export const sitePackChannels = {
  /** The pack of the signed-in profile (or, with no session, the selected one). Needs no server. */
  'site-pack:status': { input: NoInputSchema, output: PackStatusSchema },
  /** Starts preparing (or re-preparing) the signed-in profile's pack; progress comes as `site-pack:progress`. */
  'site-pack:prepare': { input: PackPrepareInputSchema, output: z.object({ jobId: z.string() }) },
  /** What the pack holds about one gateway. Needs no server. */
  'site-pack:gateway': {
    input: z.object({ gatewayId: z.string().min(1).max(100) }).strict(),
    output: PackGatewaySchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the site pack domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const sitePackEvents = {
  'site-pack:progress': PackProgressSchema,
} as const satisfies Record<string, z.ZodType>;
