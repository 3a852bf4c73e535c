import { z } from 'zod';
import { TriageResultSchema } from '../terminal/triage-schemas';
import { RunbookStepStatusSchema } from '../terminal/runbook-schemas';
import { AcceptanceCardSchema } from './acceptance-card';

const Text = z.string().max(10_000);
const Name = z.string().max(200);
const Id = z.string().min(1).max(200);
const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lowercase hex');
const EpochMs = z.int().nonnegative();

/**
 * A gateway as an entry names it, resolved when the entry is recorded: the server's or the site pack's id when
 * known, its name and MAC, and what the technician typed. At least one part is present.
 */
export const GatewayIdentitySchema = z
  .object({
    gatewayId: z.string().min(1).max(100).optional(),
    name: Name.optional(),
    mac: z.string().max(64).optional(),
    typed: Name.optional(),
  })
  .strict()
  .refine((identity) => Object.values(identity).some((part) => part !== undefined && part !== ''), {
    message: 'Name the gateway by id, name, MAC or what was typed',
  });
/** A gateway as an entry names it. */
export type GatewayIdentity = z.infer<typeof GatewayIdentitySchema>;

/** How an action ended; `unknown`: it went out and nothing confirmed or denied it. */
export const VisitOutcomeSchema = z.enum(['ok', 'failed', 'cancelled', 'unknown']);

/** The visit's own fields the technician edits (saved as typed: an empty string clears a field). */
export const VisitFieldsSchema = z
  .object({
    site: Name.optional(),
    customer: Name.optional(),
    technician: Name.optional(),
    title: Name.optional(),
    customerRepresentative: Name.optional(),
    notes: Text.optional(),
    arrivedAt: EpochMs.optional(),
    departedAt: EpochMs.optional(),
  })
  .strict();
/** The visit's own fields. */
export type VisitFields = z.infer<typeof VisitFieldsSchema>;

/** A photo kept with the visit: the file's name in the visit's folder and the SHA-256 of its bytes. */
export const PhotoFileSchema = z
  .object({
    photoId: z.uuid(),
    fileName: z.string().regex(/^[0-9a-f-]{36}\.(jpg|png)$/),
    sha256: Sha256Hex,
    bytes: z.int().nonnegative(),
    mimeType: z.enum(['image/jpeg', 'image/png']),
    caption: Name,
  })
  .strict();

/**
 * Every kind of entry a visit journal holds, one schema each, told apart by `kind`. Hooks append these as the
 * work happens (never reconstructed later); the report is to be a rendering of them.
 */
export const VisitEntrySchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('visit-opened'),
      /** True when the first action opened it, before the technician named it. */
      implicit: z.boolean(),
      site: Name.optional(),
      customer: Name.optional(),
      technician: Name.optional(),
      arrivedAt: EpochMs,
      /** The profile and user signed in when it opened, if any (field mode: none). */
      profileId: z.string().max(128).optional(),
      user: Name.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('visit-closed'), departedAt: EpochMs }).strict(),
  z.object({ kind: z.literal('fields-edited'), fields: VisitFieldsSchema }).strict(),
  z
    .object({ kind: z.literal('note'), text: Text.min(1), gateway: GatewayIdentitySchema.optional() })
    .strict(),
  z
    .object({
      kind: z.literal('photo-attached'),
      photo: PhotoFileSchema,
      gateway: GatewayIdentitySchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('photo-removed'), photoId: z.uuid() }).strict(),
  z
    .object({
      kind: z.literal('terminal-opened'),
      sessionId: Id,
      transport: z.enum(['ssh', 'serial']),
      title: Name,
      gateway: GatewayIdentitySchema.optional(),
      logFile: z.string().max(1000).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('terminal-closed'),
      sessionId: Id,
      logFile: z.string().max(1000).optional(),
      /** SHA-256 of the log as it was when the session closed. */
      logSha256: Sha256Hex.optional(),
      reason: Text.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('log-attached'),
      /** The log's file name as it is kept in an exported bundle (`logs/<logFile>`). */
      logFile: z.string().min(1).max(255),
      sha256: Sha256Hex,
      bytes: z.int().nonnegative(),
      sessionId: Id.optional(),
      gateway: GatewayIdentitySchema.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('triage'),
      gateway: GatewayIdentitySchema.optional(),
      result: TriageResultSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('runbook'),
      /** One run on several sessions is one `runId`, with an entry per session. */
      runId: Id,
      runbook: Name,
      sessionId: Id,
      gateway: GatewayIdentitySchema.optional(),
      outcome: z.enum(['ok', 'failed', 'cancelled']),
      steps: z
        .array(
          z
            .object({
              send: z.string().max(1000),
              /** `text: …` or `pattern: …`; absent when the step waits for nothing. */
              waitFor: z.string().max(300).optional(),
              status: RunbookStepStatusSchema,
              elapsedMs: z.number().nonnegative().optional(),
              message: Text.optional(),
            })
            .strict(),
        )
        .max(50),
    })
    .strict(),
  z
    .object({
      kind: z.literal('measurement'),
      gateway: GatewayIdentitySchema.optional(),
      measurement: z.enum(['rf', 'ping', 'diagnostics']),
      values: z.record(z.string(), z.unknown()),
    })
    .strict(),
  z
    .object({
      kind: z.literal('command-sent'),
      commandId: Id,
      gateway: GatewayIdentitySchema,
      command: z.string().min(1).max(100),
      risk: z.enum(['read', 'change', 'disruptive']).optional(),
      /** Redacted before it is recorded, like the audit log's. */
      request: z.unknown().optional(),
      /** A read the app made by itself to follow a task, not the technician's command. */
      automatic: z.boolean().optional(),
      /** The wizard run, gateway task or fleet job the command was sent for. */
      runId: Id.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('command-outcome'),
      commandId: Id,
      outcome: VisitOutcomeSchema,
      response: z.unknown().optional(),
      error: Text.optional(),
      durationMs: z.number().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('wizard-step'),
      runId: Id,
      wizard: z.string().min(1).max(100),
      gateway: GatewayIdentitySchema,
      step: z.string().min(1).max(100),
      before: z.unknown().optional(),
      after: z.unknown().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('wizard-outcome'),
      runId: Id,
      wizard: z.string().min(1).max(100),
      gateway: GatewayIdentitySchema,
      outcome: z.enum([
        'changed',
        'no-change',
        'rolled-back',
        'rollback-failed',
        'failed',
        'cancelled',
        'unknown',
      ]),
      before: z.unknown().optional(),
      after: z.unknown().optional(),
      reason: Text.optional(),
      /** The run's answer as recorded (redacted): its checks, its backup, its words as data. */
      response: z.unknown().optional(),
      /** How long the run took: the reads of its run within it are the ones that followed it. */
      durationMs: z.number().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('fleet-row'),
      jobId: Id,
      gateway: GatewayIdentitySchema,
      change: Text,
      outcome: VisitOutcomeSchema,
      before: z.unknown().optional(),
      after: z.unknown().optional(),
      error: Text.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('gateway-identified'),
      /** What was typed (a serial console's Gateway field) and the gateway the technician picked for it. */
      typed: Name,
      gateway: GatewayIdentitySchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('acceptance'),
      /** A site acceptance check's card: taken when the check finished, or cancelled ("not finished"). */
      gateway: GatewayIdentitySchema,
      card: AcceptanceCardSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('acknowledgement'),
      technicianName: Name,
      customerRepresentative: Name,
      text: Text.optional(),
    })
    .strict(),
]);
/** One entry of a visit journal, as appended. */
export type VisitEntry = z.infer<typeof VisitEntrySchema>;

/** The all-zero hash the first entry of a journal names as its previous one. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * One line of a visit journal file: the entry with its place in the chain. `hash` is the SHA-256 (lowercase hex)
 * of the canonical JSON (canonical-json.ts) of the line without its `hash` key; `prev` is the previous line's
 * `hash` (GENESIS_HASH for the first). The entry is checked loosely here (an object with a `kind`) so a line a
 * later version wrote still verifies; VisitEntrySchema checks what is appended.
 */
export const JournalLineSchema = z.object({
  v: z.literal(1),
  seq: z.int().nonnegative(),
  at: EpochMs,
  visitId: z.uuid(),
  prev: Sha256Hex,
  entry: z.looseObject({ kind: z.string().min(1) }),
  hash: Sha256Hex,
});
/** One line of a visit journal file. */
export type JournalLine = z.infer<typeof JournalLineSchema>;
