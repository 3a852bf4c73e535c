import { z } from 'zod';
import { GatewayIdSchema, IdSchema } from './ids';
import { RiskConfirmationSchema } from './risk';
import { RunEventSchema } from './run-events';

/** The gateway tasks `gateway-task:run` runs, with their arguments. */
export const GatewayTaskSchema = z.discriminatedUnion('task', [
  z.object({ task: z.literal('listBackups') }),
  z.object({ task: z.literal('createBackup'), description: z.string().trim().min(1).max(128) }),
  z.object({ task: z.literal('restoreBackup'), index: z.int().nonnegative() }),
  z.object({ task: z.literal('readSoftware') }),
  z.object({ task: z.literal('upgrade'), packageName: z.string().trim().min(1).max(200).optional() }),
  z.object({ task: z.literal('install'), packageName: z.string().trim().min(1).max(200) }),
  z.object({ task: z.literal('reboot') }),
  z.object({
    task: z.literal('readRadioStatistics'),
    indexes: z.array(z.int().nonnegative()).max(16).optional(),
  }),
  z.object({ task: z.literal('resetRadioStatistics') }),
  z.object({ task: z.literal('spectralScan') }),
  z.object({ task: z.literal('readDiagnostics') }),
  z.object({
    task: z.literal('ping'),
    destination: z.string().trim().min(1).max(253),
    packetsCount: z.int().min(1).max(100).optional(),
  }),
]);
/** A gateway task with its arguments. */
export type GatewayTask = z.infer<typeof GatewayTaskSchema>;

/**
 * Input of `gateway-task:run`: the gateway, the task, and a run id the caller chose (to cancel it by). A task
 * that restarts the gateway (upgrade, install, reboot, restore) is refused without `confirmation.acknowledged`.
 */
export const GatewayTaskRunInputSchema = z.object({
  gatewayId: GatewayIdSchema,
  runId: IdSchema.optional(),
  task: GatewayTaskSchema,
  confirmation: RiskConfirmationSchema.optional(),
});

/** One RF reading. */
export const RfSampleSchema = z.object({
  at: z.number(),
  signalStrength: z.number(),
  sinr: z.number(),
  rsrq: z.number(),
  ecio: z.number(),
});
/** One RF reading. */
export type RfSampleView = z.infer<typeof RfSampleSchema>;
const BestSchema = z.object({ value: z.number(), at: z.number() }).nullable();
/** The best value seen of each RF figure. */
export const RfBestSchema = z.object({
  signalStrength: BestSchema,
  sinr: BestSchema,
  rsrq: BestSchema,
  ecio: BestSchema,
});
/** The best value seen of each RF figure. */
export type RfBestView = z.infer<typeof RfBestSchema>;

/** Channels of the gateway tasks and the RF meter: name → zod input and output. Spread into the contract. */
export const tasksChannels = {
  'gateway-task:run': {
    input: GatewayTaskRunInputSchema,
    output: z.object({ runId: z.string(), value: z.unknown() }),
  },
  'rf-meter:start': {
    input: z
      .object({ gatewayId: GatewayIdSchema, intervalMs: z.int().min(500).max(60_000).optional() })
      .strict(),
    output: z.object({ meterId: z.string() }),
  },
  'rf-meter:stop': {
    input: z.object({ meterId: IdSchema }).strict(),
    output: z.object({ samples: z.array(RfSampleSchema), best: RfBestSchema }),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the gateway tasks and the RF meter: name → zod payload. Spread into the contract's events. */
export const tasksEvents = {
  'gateway-task:event': RunEventSchema.and(z.object({ gatewayId: z.string() })),
  'rf-meter:sample': z.object({
    meterId: z.string(),
    gatewayId: z.string(),
    sample: RfSampleSchema,
    best: RfBestSchema,
  }),
  'rf-meter:error': z.object({
    meterId: z.string(),
    gatewayId: z.string(),
    at: z.number(),
    message: z.string(),
  }),
} as const satisfies Record<string, z.ZodType>;
