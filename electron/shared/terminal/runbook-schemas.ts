import { z } from 'zod';
import { t } from '../i18n';
import { checkRunbookPattern } from './runbook-pattern';

/** The longest time limit of one step. */
export const RUNBOOK_STEP_LIMIT_SECONDS_MAX = 600;
/** The most steps in one runbook. */
export const RUNBOOK_STEPS_MAX = 50;
/** The most runbooks a profile keeps (and an import file holds). */
export const RUNBOOKS_MAX = 200;
/** The most sessions one run drives at once (MAX_TERMINALS). */
export const RUNBOOK_SESSIONS_MAX = 16;
/** What an exported runbook file says it is. */
export const RUNBOOK_FILE_FORMAT = 'oam-field-kit-runbooks';

/** What a step waits for after sending its line: a piece of text, or a pattern (runbook-pattern.ts). */
export const RunbookWaitSchema = z
  .object({
    kind: z.enum(['text', 'pattern']),
    value: z
      .string()
      .min(1, { error: () => t('terminals:runbookWaitEmpty') })
      .max(200),
  })
  .strict()
  .superRefine((wait, context) => {
    const problem = wait.kind === 'pattern' ? checkRunbookPattern(wait.value) : undefined;
    if (problem) context.addIssue({ code: 'custom', path: ['value'], message: problem });
  });
/** What a step waits for. */
export type RunbookWait = z.infer<typeof RunbookWaitSchema>;

/** One step: a line sent as typed (Enter added), then what to wait for, within a time limit. */
export const RunbookStepSchema = z
  .object({
    send: z
      .string()
      .max(1000)
      .refine((line) => !/[\r\n]/.test(line), { error: () => t('terminals:runbookOneLine') }),
    wait: RunbookWaitSchema.optional(),
    timeLimitSeconds: z.int().min(1).max(RUNBOOK_STEP_LIMIT_SECONDS_MAX),
  })
  .strict();
/** One step of a runbook. */
export type RunbookStep = z.infer<typeof RunbookStepSchema>;

/** A saved sequence of lines to send, each with what to wait for. */
export const RunbookSchema = z
  .object({
    id: z.string().min(1).max(100),
    name: z
      .string()
      .trim()
      .min(1, { error: () => t('terminals:runbookNameMissing') })
      .max(100),
    description: z.string().max(500).optional(),
    steps: z
      .array(RunbookStepSchema)
      .min(1, { error: () => t('terminals:runbookNoSteps') })
      .max(RUNBOOK_STEPS_MAX),
  })
  .strict();
/** A saved runbook. */
export type Runbook = z.infer<typeof RunbookSchema>;

/** A runbook as the editor saves it: without an id, it is a new one. */
export const RunbookDraftSchema = RunbookSchema.extend({ id: RunbookSchema.shape.id.optional() });

/** A file of runbooks, as exported and imported (and as each profile's runbooks are kept). */
export const RunbookFileSchema = z
  .object({
    format: z.literal(RUNBOOK_FILE_FORMAT),
    version: z.literal(1),
    runbooks: z.array(RunbookSchema).max(RUNBOOKS_MAX),
  })
  .strict();
/** A file of runbooks. */
export type RunbookFile = z.infer<typeof RunbookFileSchema>;

/**
 * How a step ended: `seen` (what it waited for came), `sent` (it waits for nothing), `not-seen` (not within its
 * time limit), `cancelled`, `failed` (the line could not be sent: the session closed), `not-run` (an earlier step
 * stopped the run). `waiting` while it runs.
 */
export const RunbookStepStatusSchema = z.enum([
  'waiting',
  'seen',
  'sent',
  'not-seen',
  'cancelled',
  'failed',
  'not-run',
]);
/** How a step ended. */
export type RunbookStepStatus = z.infer<typeof RunbookStepStatusSchema>;

/** A step's result on one session. */
export const RunbookStepResultSchema = z.object({
  status: RunbookStepStatusSchema,
  /** From sending the line to the end of the wait. */
  elapsedMs: z.number().nonnegative().optional(),
  /** The line in which the text or pattern was seen (cut to 200 characters). */
  seenIn: z.string().max(200).optional(),
  /** Why it failed, in words. */
  message: z.string().max(500).optional(),
});
/** A step's result on one session. */
export type RunbookStepResult = z.infer<typeof RunbookStepResultSchema>;

/** A runbook's run on one session: each step's result, and the wait under way while it runs. */
export const RunbookSessionResultSchema = z.object({
  terminalId: z.string(),
  title: z.string(),
  outcome: z.enum(['running', 'ok', 'failed', 'cancelled']),
  steps: z.array(RunbookStepResultSchema),
  /** The step waiting now and when its time limit ends (epoch ms), while it runs. */
  current: z.object({ index: z.int().nonnegative(), waitEndsAt: z.number() }).optional(),
  startedAt: z.number(),
  finishedAt: z.number().optional(),
});
/** A runbook's run on one session. */
export type RunbookSessionResult = z.infer<typeof RunbookSessionResultSchema>;

/** A whole run: the runbook as it was run and its result on each session. */
export const RunbookRunResultSchema = z.object({
  runId: z.string(),
  runbook: RunbookSchema,
  sessions: z.array(RunbookSessionResultSchema),
  /** Why the visit journal could not record the run (it ran all the same). */
  notRecorded: z.string().optional(),
});
/** A whole run. */
export type RunbookRunResult = z.infer<typeof RunbookRunResultSchema>;
