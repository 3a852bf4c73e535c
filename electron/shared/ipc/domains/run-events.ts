import { z } from 'zod';

/** One verification in words. */
export const WizardCheckSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });
/** One verification. */
export type WizardCheck = z.infer<typeof WizardCheckSchema>;

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
