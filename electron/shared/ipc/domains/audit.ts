import { z } from 'zod';
import { GatewayIdSchema, IdSchema } from './ids';

/** One audit entry as the renderer sees it (already redacted by the log). */
export const AuditEntryViewSchema = z.looseObject({
  at: z.number(),
  profileId: z.string(),
  user: z.string(),
  gatewayId: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  outcome: z.string(),
  durationMs: z.number(),
  error: z.string().optional(),
  runId: z.string().optional(),
});

/** Channels of the audit log: name → zod input and output. Spread into the contract. */
export const auditChannels = {
  'audit:read': {
    input: z
      .object({
        since: z.number().nonnegative().optional(),
        until: z.number().nonnegative().optional(),
        gatewayId: GatewayIdSchema.optional(),
        runId: IdSchema.optional(),
      })
      .strict(),
    output: z.object({ entries: z.array(AuditEntryViewSchema) }),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;
