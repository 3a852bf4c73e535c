import { z } from 'zod';
import { reportChannels } from './report';

const IdSchema = z.string().min(1).max(200);
const GatewayIdSchema = z.string().min(1).max(100);

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

/** A risk acknowledged by typing `confirmationText` after reading `warning`. */
export const WizardGuardSchema = z.object({
  id: z.string(),
  warning: z.string(),
  confirmationText: z.string(),
});
/** A lockout guard. */
export type WizardGuard = z.infer<typeof WizardGuardSchema>;

/**
 * What the technician confirmed before a risky change (checked again in main, never only in the UI): the gateway
 * count they were shown, the yes to the disruptions, and the typed text of each guard by its id.
 */
export const RiskConfirmationSchema = z
  .object({
    gatewayCount: z.int().nonnegative().optional(),
    acknowledged: z.boolean().optional(),
    typed: z.record(z.string().max(100), z.string().max(100)).optional(),
  })
  .strict();
/** What the technician confirmed before a risky change. */
export type RiskConfirmationInput = z.infer<typeof RiskConfirmationSchema>;

/** A change's risk said before anything is sent: its disruptive part in words and the typed guards. */
export const RiskAssessmentSchema = z.object({
  disruptions: z.array(z.string()),
  guards: z.array(WizardGuardSchema),
});
/** A change's risk. */
export type RiskAssessmentView = z.infer<typeof RiskAssessmentSchema>;

/** One verification in words. */
export const WizardCheckSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });
/** One verification. */
export type WizardCheck = z.infer<typeof WizardCheckSchema>;

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

/** What the UI shows while a gateway is silent: in words, with the deadline. */
export const WaitingNoticeSchema = z.object({
  attempt: z.number(),
  waitedMs: z.number(),
  deadlineAt: z.number(),
  message: z.string(),
});

/** A run's event (wizard or gateway task): step, progress, waiting, check, warning or result. */
export const RunEventSchema = z.discriminatedUnion('type', [
  z.object({
    runId: z.string(),
    at: z.number(),
    type: z.literal('step'),
    step: z.string(),
    message: z.string(),
  }),
  z.object({
    runId: z.string(),
    at: z.number(),
    type: z.literal('progress'),
    message: z.string(),
    fraction: z.number().optional(),
    /** When the job followed gives up (a software install): the UI counts down to it. */
    deadlineAt: z.number().optional(),
  }),
  z.object({ runId: z.string(), at: z.number(), type: z.literal('waiting'), notice: WaitingNoticeSchema }),
  z.object({ runId: z.string(), at: z.number(), type: z.literal('check'), check: WizardCheckSchema }),
  z.object({ runId: z.string(), at: z.number(), type: z.literal('warning'), message: z.string() }),
  z.object({ runId: z.string(), at: z.number(), type: z.literal('result'), result: z.unknown() }),
]);
/** A run's event. */
export type RunEvent = z.infer<typeof RunEventSchema>;

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

const RunIdInputSchema = z.object({ runId: IdSchema }).strict();

/** Channels of the commissioning domain: name → zod input and output. Spread into the contract (contract.ts). */
export const commissioningChannels = {
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
  ...reportChannels,
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the commissioning domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const commissioningEvents = {
  'wizard:event': RunEventSchema,
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
  'fleet:row': z.object({ jobId: z.string(), row: FleetRowSchema, counts: FleetCountsSchema }),
  'fleet:finished': FleetFinishedSchema,
} as const satisfies Record<string, z.ZodType>;
