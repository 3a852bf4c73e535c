import { z } from 'zod';
import { StoredMessageSchema } from '../visit/stored-message';
import { TerminalIdSchema } from './terminal-schemas';

/** One network interface as `ip addr` or `ifconfig` printed it. */
export const TriageInterfaceSchema = z.object({
  name: z.string(),
  /** Administratively up (the UP flag). */
  isUp: z.boolean(),
  /** Whether a cable or carrier is there: false for NO-CARRIER / UP without RUNNING; null when not said. */
  hasCarrier: z.boolean().nullable(),
  macAddress: z.string().optional(),
  /** IPv4 addresses with their prefix length when known (`192.168.1.20/24`). */
  ipv4: z.array(z.string()),
  ipv6: z.array(z.string()),
});
/** One network interface as the gateway reported it. */
export type TriageInterface = z.infer<typeof TriageInterfaceSchema>;

/** A default route of the gateway's main table. */
export const TriageRouteSchema = z.object({
  via: z.string().optional(),
  device: z.string(),
  metric: z.number().int().optional(),
});
/** A default route of the gateway's main table. */
export type TriageRoute = z.infer<typeof TriageRouteSchema>;

/** How sure the triage is of one part of the gateway's health. */
export const TriageStatusSchema = z.enum(['ok', 'fault', 'unknown']);
/** How sure the triage is of one part of the gateway's health. */
export type TriageStatus = z.infer<typeof TriageStatusSchema>;

/**
 * What a triage says, kept as a message (key and values) so the screen and the report write it in their language
 * (triageFindingWords); a triage journaled before the catalogue holds its English sentence, shown as it is.
 */
export const TriageSentenceSchema = z.union([z.string(), StoredMessageSchema]);
/** What a triage says: a message kept as data, or an old triage's English sentence. */
export type TriageSentence = z.infer<typeof TriageSentenceSchema>;

/** One line of the health panel: a status and words that say what was seen. */
export const TriageCheckSchema = z.object({ status: TriageStatusSchema, detail: TriageSentenceSchema });
/** One line of the health panel. */
export type TriageCheck = z.infer<typeof TriageCheckSchema>;

/**
 * What was run on the gateway and how it ended: `failed` a non-zero exit status, `timed-out` no end marker within
 * `timeoutMs`, `prompted` it asked for input (the run stopped there).
 */
export const TriageCommandSchema = z.object({
  command: z.string(),
  outcome: z.enum(['ok', 'failed', 'timed-out', 'prompted']),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  timeoutMs: z.number().int().positive(),
});
/** What was run on the gateway and how it ended. */
export type TriageCommand = z.infer<typeof TriageCommandSchema>;

/** The health panel: what the read-only commands showed, each part with its own status. */
export const TriageHealthSchema = z.object({
  interfaces: z.array(TriageInterfaceSchema),
  defaultRoutes: z.array(TriageRouteSchema),
  dns: z.array(z.string()),
  /** Each finding in one line, faults first: what a technician reads before anything else. */
  findings: z.array(z.object({ status: TriageStatusSchema, text: TriageSentenceSchema })),
  network: TriageCheckSchema,
  wan: TriageCheckSchema,
  modem: TriageCheckSchema,
  packetForwarder: TriageCheckSchema,
  versions: z.array(z.object({ name: z.string(), version: z.string() })),
  uptime: z.string().optional(),
  /** The last error and warning lines of the system log, oldest first. */
  logErrors: z.array(z.string()),
  /**
   * The gateway's clock (`date +%s`) and the laptop's at the moment it answered, in epoch ms; absent when not read
   * (and in triages journaled before the triage read the clock).
   */
  clock: z.object({ gatewayTime: z.number(), laptopTime: z.number() }).optional(),
});
/** The health panel. */
export type TriageHealth = z.infer<typeof TriageHealthSchema>;

/**
 * What "Collect diagnostics" found on one serial console; `problem` says why it stopped early. `problem` and
 * `consoleLeft` are kept as messages (triageSentenceWords writes them); a triage journaled before they were holds
 * the sentence in the language of the day, shown as it is.
 */
export const TriageResultSchema = z.object({
  terminalId: TerminalIdSchema,
  title: z.string(),
  gatewayId: z.string().optional(),
  startedAt: z.number(),
  finishedAt: z.number(),
  outcome: z.enum(['complete', 'stopped']),
  problem: TriageSentenceSchema.optional(),
  commands: z.array(TriageCommandSchema),
  health: TriageHealthSchema,
  /** When diagnostics logged in itself: whether it logged out again at the end. */
  consoleLeft: TriageSentenceSchema.optional(),
});
/** What "Collect diagnostics" found on one serial console. */
export type TriageResult = z.infer<typeof TriageResultSchema>;

/** Input of `serial:triage`: the session, and the root password when the user typed one. */
export const SerialTriageInputSchema = z
  .object({
    id: TerminalIdSchema,
    password: z.string().min(1).max(256).optional(),
    /** Keep a password that worked in the keychain for the session's gateway. */
    rememberPassword: z.boolean().optional(),
  })
  .strict();
/** Input of `serial:triage`. */
export type SerialTriageInput = z.infer<typeof SerialTriageInputSchema>;

/** Input of `serial:triage-cancel`: the console whose diagnostics stop after the command under way. */
export const SerialTriageCancelInputSchema = z.object({ id: TerminalIdSchema }).strict();

/**
 * What a run of "Collect diagnostics" waits for: a prompt from the console, the login prompt, the password prompt,
 * the login prompt after `exit`, or the answer to the command under way. triageWaitWords says it in words.
 */
export const TriageWaitSchema = z.enum(['prompt', 'loginPrompt', 'passwordPrompt', 'logoutPrompt', 'answer']);
/** What a run of "Collect diagnostics" waits for. */
export type TriageWait = z.infer<typeof TriageWaitSchema>;

/** Payload of `serial:triage-progress`: what a run of "Collect diagnostics" waits for, and for how long at most. */
export const TriageProgressEventSchema = z.object({
  id: TerminalIdSchema,
  waitingFor: TriageWaitSchema,
  command: z.string().optional(),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** The most the whole run can still take, from when the event was sent. */
  remainingMs: z.number().nonnegative(),
  /** True once Cancel was asked: the run stops after the command under way. */
  isCancelling: z.boolean().optional(),
});
/** Payload of `serial:triage-progress`. */
export type TriageProgressEvent = z.infer<typeof TriageProgressEventSchema>;
