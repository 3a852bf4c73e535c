import { z } from 'zod';
import { SerialOpenOptionsSchema } from '../../terminal/serial-options';
import {
  OpenDirectInputSchema,
  OpenReverseInputSchema,
  ReplaceHostKeyInputSchema,
  SerialPasteInputSchema,
  SerialPortListSchema,
  SerialRawViewInputSchema,
  SerialSendFileInputSchema,
  SerialSendFileProgressSchema,
  SerialSignalsInputSchema,
  TerminalAckInputSchema,
  TerminalDataEventSchema,
  TerminalIdInputSchema,
  TerminalInfoSchema,
  TerminalLogSchema,
  TerminalReconnectInputSchema,
  TerminalReplaySchema,
  TerminalResizeInputSchema,
  TerminalStateEventSchema,
  TerminalWriteInputSchema,
} from '../../terminal/terminal-schemas';
import {
  SerialTriageCancelInputSchema,
  SerialTriageInputSchema,
  TriageProgressEventSchema,
  TriageResultSchema,
} from '../../terminal/triage-schemas';

const NoInputSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);

/** Channels of the terminals domain: name → zod input and output. Spread into the contract (contract.ts). */
export const terminalsChannels = {
  /**
   * The open sessions, and every session log and serial triage of this run (closed sessions' too) for the site
   * report.
   */
  'terminals:list': {
    input: NoInputSchema,
    output: z.object({
      sessions: z.array(TerminalInfoSchema),
      logs: z.array(TerminalLogSchema),
      triages: z.array(TriageResultSchema),
    }),
  },
  /**
   * A page starts showing terminals (the app loaded, or a window was reloaded): what earlier pages were sent and
   * never acknowledged is written off, so that no session stays paused for acknowledgements nobody will send; and
   * each open session's recent output comes back (`replays`), so that its screen is drawn again on this page.
   */
  'terminals:attach': {
    input: NoInputSchema,
    output: z.object({ replays: z.array(TerminalReplaySchema) }),
  },
  'serial:ports': { input: NoInputSchema, output: SerialPortListSchema },
  'serial:open': { input: SerialOpenOptionsSchema, output: TerminalInfoSchema },
  'ssh:open-reverse': { input: OpenReverseInputSchema, output: TerminalInfoSchema },
  'ssh:open-direct': { input: OpenDirectInputSchema, output: TerminalInfoSchema },
  'ssh:replace-host-key': { input: ReplaceHostKeyInputSchema, output: z.null() },
  'terminal:write': { input: TerminalWriteInputSchema, output: z.null() },
  'terminal:resize': { input: TerminalResizeInputSchema, output: z.null() },
  'terminal:ack': { input: TerminalAckInputSchema, output: z.null() },
  /**
   * Closes a session (an SSH one also stops its reverse tunnel). `warning`: it closed, but something the user should
   * know went wrong on the way (the gateway did not confirm its tunnel was stopped).
   */
  'terminal:close': {
    input: TerminalIdInputSchema,
    output: z.object({ warning: z.string().optional() }),
  },
  'terminal:reconnect': { input: TerminalReconnectInputSchema, output: TerminalInfoSchema },
  'serial:break': { input: TerminalIdInputSchema, output: z.null() },
  'serial:signals': {
    input: SerialSignalsInputSchema,
    output: z.object({ dtr: z.boolean(), rts: z.boolean() }),
  },
  'serial:paste': { input: SerialPasteInputSchema, output: z.null() },
  'serial:raw-view': { input: SerialRawViewInputSchema, output: z.null() },
  /**
   * "Collect diagnostics" on a serial console: read-only commands, parsed into a health panel. UNAUTHENTICATED with
   * reason ROOT_PASSWORD_REQUIRED when the console is at a login prompt and no (working) password is known.
   */
  'serial:triage': { input: SerialTriageInputSchema, output: TriageResultSchema },
  /**
   * Stops a running "Collect diagnostics" after the command under way (it then logs out if it logged in); its
   * `serial:triage` answers with what was read. Nothing to do when none runs on that console.
   */
  'serial:triage-cancel': { input: SerialTriageCancelInputSchema, output: z.null() },
  /**
   * Sends a file to a receiver waiting on the console; answers once the receiver acknowledged all of it, with how
   * long it took, or with the reason it did not (no answer, cancelled, too many NAKs). Progress comes as
   * `serial:send-file-progress`.
   */
  'serial:send-file': {
    input: SerialSendFileInputSchema,
    output: z.object({ bytes: z.number().int().nonnegative(), elapsedMs: z.number().nonnegative() }),
  },
  /** Cancels the file being sent on that console (CAN CAN to the receiver); nothing to do when none is. */
  'serial:send-file-cancel': { input: TerminalIdInputSchema, output: z.null() },
  /** Frees the port but keeps the session (state failed, reason said); terminal:reconnect opens it again. */
  'serial:disconnect': { input: TerminalIdInputSchema, output: TerminalInfoSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the terminals domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const terminalsEvents = {
  'terminal:data': TerminalDataEventSchema,
  'terminal:state': TerminalStateEventSchema,
  'serial:triage-progress': TriageProgressEventSchema,
  'serial:send-file-progress': SerialSendFileProgressSchema,
} as const satisfies Record<string, z.ZodType>;
