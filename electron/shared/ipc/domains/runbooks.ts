import { z } from 'zod';
import {
  RUNBOOK_SESSIONS_MAX,
  RunbookDraftSchema,
  RunbookRunResultSchema,
  RunbookSchema,
  RunbookSessionResultSchema,
} from '../../terminal/runbook-schemas';

const NoInputSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);
const RunbookIdSchema = z.string().min(1).max(100);

/** Channels of the runbooks domain: name → zod input and output. Spread into the contract (contract.ts). */
export const runbooksChannels = {
  /** The profile's runbooks (the shipped ones until it changes any), and why its file could not be read if so. */
  'runbooks:list': {
    input: NoInputSchema,
    output: z.object({ runbooks: z.array(RunbookSchema), problem: z.string().optional() }),
  },
  /** Saves a runbook (without an id: a new one); answers it as kept. */
  'runbooks:save': { input: z.object({ runbook: RunbookDraftSchema }).strict(), output: RunbookSchema },
  /** Deletes a runbook of the profile. */
  'runbooks:delete': { input: z.object({ id: RunbookIdSchema }).strict(), output: z.null() },
  /** The profile's runbooks as a file's text, to save where the technician chooses. */
  'runbooks:export': { input: NoInputSchema, output: z.object({ fileName: z.string(), text: z.string() }) },
  /** Adds the runbooks of an exported file; a file that is not one is refused in words, changing nothing. */
  'runbooks:import': {
    input: z.object({ text: z.string().max(2 * 1024 * 1024) }).strict(),
    output: z.object({ added: z.int(), unchanged: z.int() }),
  },
  /**
   * Runs a saved runbook on open sessions at once; answers each session's steps once all have stopped and the
   * visit journal has the run. `runId` (the caller's) cancels it through `call:cancel`.
   */
  'runbooks:run': {
    input: z
      .object({
        runId: z.string().min(1).max(200),
        runbookId: RunbookIdSchema,
        terminalIds: z.array(z.string().min(1).max(100)).min(1).max(RUNBOOK_SESSIONS_MAX),
      })
      .strict(),
    output: RunbookRunResultSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the runbooks domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const runbooksEvents = {
  /** A session's result so far, as a step starts waiting or ends (`current` says when its wait ends). */
  'runbook:progress': z.object({ runId: z.string(), result: RunbookSessionResultSchema }),
} as const satisfies Record<string, z.ZodType>;
