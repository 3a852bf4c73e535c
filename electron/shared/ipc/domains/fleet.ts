import { z } from 'zod';
import { GatewayIdSchema, IdSchema } from './ids';
import { RiskAssessmentSchema, RiskConfirmationSchema } from './risk';

/** Firewall settings for a fleet change: fields given replace the gateway's, the rest are kept. */
export const FleetFirewallPatchSchema = z
  .object({
    enabled: z.boolean().optional(),
    doSPrevention: z
      .object({
        enabled: z.boolean().optional(),
        perMinLimit: z.number().optional(),
        burstLimit: z.number().optional(),
      })
      .strict()
      .optional(),
    ssh: z.object({ enabled: z.boolean() }).strict().optional(),
    ping: z
      .object({
        enabled: z.boolean().optional(),
        limit: z
          .object({
            enabled: z.boolean().optional(),
            pingPerMinLimit: z.number().optional(),
            pingBurstLimit: z.number().optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    filters: z.array(z.unknown()).optional(),
  })
  .strict();

/** Firewall settings for a fleet change. */
export type FleetFirewallPatch = z.infer<typeof FleetFirewallPatchSchema>;

/** A change a fleet job applies to each gateway. */
export const FleetChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('firewall'), patch: FleetFirewallPatchSchema }),
  z.object({ kind: z.literal('apn'), name: z.string().trim().min(1).max(100) }),
  z.object({ kind: z.literal('pingTarget'), ipAddr: z.string().trim().min(1).max(64) }),
  z.object({ kind: z.literal('softwareUpgrade'), packageName: z.string().trim().min(1).max(200).optional() }),
]);
/** A fleet change. */
export type FleetChangeInput = z.infer<typeof FleetChangeSchema>;

/** A gateway chosen for a fleet job; an OFFLINE one is skipped without sending. */
export const FleetTargetSchema = z.object({
  gatewayId: GatewayIdSchema,
  name: z.string().max(200).optional(),
  status: z.enum(['ONLINE', 'OFFLINE']).optional(),
});

const hasTargets = (input: { targets?: unknown[]; gatewayGroupId?: string }) =>
  (input.targets?.length ?? 0) > 0 || input.gatewayGroupId !== undefined;

/** A gateway chosen for a fleet job. */
export type FleetTargetInput = z.infer<typeof FleetTargetSchema>;

/** Input of `fleet:preview`: the change and either chosen gateways or a whole gateway group. */
export const FleetPreviewInputSchema = z
  .object({
    change: FleetChangeSchema,
    targets: z.array(FleetTargetSchema).max(10_000).optional(),
    gatewayGroupId: GatewayIdSchema.optional(),
    /** Gateways to work on at once; none: the default for the change (fewer for an upgrade). */
    concurrency: z.int().min(1).max(64).optional(),
  })
  .strict()
  .refine(hasTargets, { message: 'Choose at least one gateway or a gateway group', path: ['targets'] });

/** Output of `fleet:preview`: how many gateways, the question to ask, and the change's risk. */
export const FleetPreviewSchema = RiskAssessmentSchema.extend({
  /** Every gateway chosen: what the confirmation is bound to. */
  gatewayCount: z.number(),
  /** Of those, the ones the list says are offline: skipped, nothing sent to them. */
  offlineCount: z.number(),
  /** Gateways worked on at once: the one given, or the default for the change (what `fleet:start` uses). */
  concurrency: z.number(),
  question: z.string(),
});
/** Output of `fleet:preview`. */
export type FleetPreview = z.infer<typeof FleetPreviewSchema>;

/**
 * Input of `fleet:start`: the change, either chosen gateways or a whole gateway group, and the confirmation of
 * the preview (its gateway count, and for a risky change the yes and the typed guards); refused without it.
 */
export const FleetStartInputSchema = z
  .object({
    change: FleetChangeSchema,
    targets: z.array(FleetTargetSchema).max(10_000).optional(),
    gatewayGroupId: GatewayIdSchema.optional(),
    concurrency: z.int().min(1).max(64).optional(),
    confirmation: RiskConfirmationSchema.optional(),
  })
  .strict()
  .refine(hasTargets, { message: 'Choose at least one gateway or a gateway group', path: ['targets'] });

/** Where a gateway stands in a fleet job. */
export const FleetRowStatusSchema = z.enum([
  'pending',
  'running',
  'done',
  'unchanged',
  'failed',
  'unknown',
  'skipped',
  'cancelled',
]);
/** Where a gateway stands in a fleet job. */
export type FleetRowStatusView = z.infer<typeof FleetRowStatusSchema>;
/** One row of the fleet result table. */
export const FleetRowSchema = z.object({
  gatewayId: z.string(),
  name: z.string().optional(),
  status: FleetRowStatusSchema,
  reason: z.string().optional(),
  attempts: z.number(),
  durationMs: z.number(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
/** One row of the fleet result table. */
export type FleetRowView = z.infer<typeof FleetRowSchema>;
/** Rows by status. */
export const FleetCountsSchema = z.record(FleetRowStatusSchema, z.number());
/** Counts by status. */
export type FleetCountsView = z.infer<typeof FleetCountsSchema>;

/** Output of `fleet:start` and `fleet:retry-failed`: the job and its table as it starts. */
export const FleetJobStartedSchema = z.object({
  jobId: z.string(),
  description: z.string(),
  rows: z.array(FleetRowSchema),
});
/** A started fleet job. */
export type FleetJobStarted = z.infer<typeof FleetJobStartedSchema>;

/** The end of a fleet job. */
export const FleetFinishedSchema = z.object({
  jobId: z.string(),
  rows: z.array(FleetRowSchema),
  counts: FleetCountsSchema,
  message: z.string(),
  durationMs: z.number(),
  commandsSent: z.number(),
});
/** The end of a fleet job. */
export type FleetFinished = z.infer<typeof FleetFinishedSchema>;

/** Channels of fleet jobs: name → zod input and output. Spread into the contract (contract.ts). */
export const fleetChannels = {
  'fleet:preview': { input: FleetPreviewInputSchema, output: FleetPreviewSchema },
  'fleet:start': { input: FleetStartInputSchema, output: FleetJobStartedSchema },
  'fleet:retry-failed': {
    input: z
      .object({
        jobId: IdSchema,
        includeSkipped: z.boolean().optional(),
        confirmation: RiskConfirmationSchema.optional(),
      })
      .strict(),
    output: FleetJobStartedSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of fleet jobs: name → zod payload. Spread into the contract's events (contract.ts). */
export const fleetEvents = {
  'fleet:row': z.object({ jobId: z.string(), row: FleetRowSchema, counts: FleetCountsSchema }),
  'fleet:finished': FleetFinishedSchema,
} as const satisfies Record<string, z.ZodType>;
