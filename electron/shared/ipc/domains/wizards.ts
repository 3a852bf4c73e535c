import { z } from 'zod';
import { GatewayIdSchema, IdSchema } from './ids';
import { WizardGuardSchema } from './risk';
import { RunEventSchema, WizardCheckSchema } from './run-events';

/** The diff wizards a run can be started for. */
export const WizardNameSchema = z.enum(['connectivity', 'cellular', 'firewall']);
/** A diff wizard's name. */
export type WizardName = z.infer<typeof WizardNameSchema>;

/** One value that will change (or changed), in words, with before and after. */
export const WizardChangeSchema = z.object({
  path: z.string(),
  label: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
/** One value that will change. */
export type WizardChange = z.infer<typeof WizardChangeSchema>;

/** Output of `wizard:review`: the diff, warnings, guards and problems of an edit. */
export const WizardReviewSchema = z.object({
  changes: z.array(WizardChangeSchema),
  warnings: z.array(z.string()),
  guards: z.array(WizardGuardSchema),
  problems: z.array(z.string()),
  isDisruptive: z.boolean(),
});
/** Output of `wizard:review`. */
export type WizardReview = z.infer<typeof WizardReviewSchema>;

/** How a wizard run ended. */
export const WizardOutcomeSchema = z.enum([
  'applied',
  'unchanged',
  'rolled-back',
  'rollback-failed',
  'failed',
  'cancelled',
]);

/** Output of `wizard:apply`: the end of a run in words, with what changed and what was checked. */
export const WizardResultSchema = z.object({
  runId: z.string(),
  wizard: z.string(),
  gatewayId: z.string(),
  outcome: WizardOutcomeSchema,
  message: z.string(),
  changes: z.array(WizardChangeSchema),
  checks: z.array(WizardCheckSchema),
  backup: z.object({ description: z.string(), index: z.number().optional() }).optional(),
  rollback: z.enum(['values', 'backup']).optional(),
});
/** Output of `wizard:apply`. */
export type WizardResult = z.infer<typeof WizardResultSchema>;

const RunIdInputSchema = z.object({ runId: IdSchema }).strict();

/** Channels of the diff wizards: name → zod input and output. Spread into the contract (contract.ts). */
export const wizardsChannels = {
  'wizard:start': {
    input: z.object({ wizard: WizardNameSchema, gatewayId: GatewayIdSchema }).strict(),
    output: z.object({ runId: z.string() }),
  },
  'wizard:read': { input: RunIdInputSchema, output: z.object({ state: z.unknown(), edit: z.unknown() }) },
  'wizard:review': {
    input: z.object({ runId: IdSchema, edit: z.unknown() }).strict(),
    output: WizardReviewSchema,
  },
  'wizard:apply': {
    input: z
      .object({
        runId: IdSchema,
        edit: z.unknown(),
        confirmations: z.record(z.string(), z.string().max(100)).optional(),
      })
      .strict(),
    output: WizardResultSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the diff wizards: name → zod payload. Spread into the contract's events (contract.ts). */
export const wizardsEvents = {
  'wizard:event': RunEventSchema,
} as const satisfies Record<string, z.ZodType>;
