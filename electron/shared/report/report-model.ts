import { z } from 'zod';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../i18n/languages';

/**
 * The site report as data: every word, time and value already put as the report says it, redacted, and nothing
 * else. One set of Svelte components (./document/) renders it, in the app's preview and, on the main side with
 * `svelte/server`, into the exported HTML and PDF; escaping is theirs. Made by buildReportModel
 * (electron/services/reports/report-model.ts), a pure function of the visit.
 */

/** How a finding or outcome is coloured: the report's outcome words' classes. */
export const ToneSchema = z.enum([
  'ok',
  'inspected',
  'unchanged',
  'done',
  'verified',
  'cancelled',
  'rolled-back',
  'unknown',
  'failed',
  'rollback-failed',
]);
/** How a finding or outcome is coloured. */
export type Tone = z.infer<typeof ToneSchema>;

/** An outcome in words and its colour. */
export const WordedOutcomeSchema = z.object({ tone: ToneSchema, words: z.string() });
/** An outcome in words and its colour. */
export type WordedOutcome = z.infer<typeof WordedOutcomeSchema>;

/** One setting of a value in words (readable-value.ts): label path, text, and whether the text is JSON. */
export const ReadableFieldSchema = z.object({
  label: z.string(),
  text: z.string(),
  isJson: z.boolean().optional(),
});

/** A value as labelled settings, one per line; a value that is one setting has one field labelled ''. */
export const ReadableSchema = z.array(ReadableFieldSchema);
/** A value as labelled settings. */
export type Readable = z.infer<typeof ReadableSchema>;

/** Page one's words for a gateway: "fault found", "rolled back"… and what it is about. */
export const FindingSchema = z.object({
  tone: ToneSchema,
  /** "Cellular modem and APN" for a change; absent for a health finding. */
  what: z.string().optional(),
  words: z.string(),
  detail: z.string().optional(),
});
/** Page one's words for a gateway. */
export type Finding = z.infer<typeof FindingSchema>;

/** One change with every setting before → after, the checks that verified it and the backup taken. */
export const ChangeModelSchema = z.object({
  when: z.string(),
  what: z.string(),
  gateway: z.string(),
  outcome: WordedOutcomeSchema,
  /** What a fleet change sent: words, or a firewall patch's settings. */
  sent: z.union([z.object({ text: z.string() }), z.object({ fields: ReadableSchema })]).optional(),
  why: z.string().optional(),
  followed: z.string().optional(),
  /** "Setting", or "Package" for a software change. */
  settingHeader: z.string(),
  rows: z.array(z.object({ label: z.string(), before: ReadableFieldSchema, after: ReadableFieldSchema })),
  checks: z.array(z.object({ ok: z.boolean(), name: z.string(), detail: z.string() })),
  backup: z.string().optional(),
});
/** One change. */
export type ChangeModel = z.infer<typeof ChangeModelSchema>;

/** A line of "Commands run": one command, or a read folded ("read 48 times, 10:02–10:04"). */
export const CommandRowSchema = z.object({
  when: z.string(),
  title: z.string().optional(),
  name: z.string(),
  request: ReadableSchema.optional(),
  outcome: WordedOutcomeSchema,
  error: z.string().optional(),
});
/** A line of "Commands run". */
export type CommandRow = z.infer<typeof CommandRowSchema>;

/** A serial console's health panel. */
export const TriageModelSchema = z.object({
  heading: z.string(),
  stopped: z.string().optional(),
  findings: z.array(z.object({ status: WordedOutcomeSchema, text: z.string() })),
  parts: z.array(z.object({ label: z.string(), status: WordedOutcomeSchema.optional(), seen: z.string() })),
  interfaces: z.array(
    z.object({ name: z.string(), state: z.string(), carrier: z.string(), addresses: z.string() }),
  ),
  logErrors: z.string().optional(),
  commands: z.array(z.object({ command: z.string(), result: z.string() })),
  consoleLeft: z.string().optional(),
});
/** A serial console's health panel. */
export type TriageModel = z.infer<typeof TriageModelSchema>;

/** An RF meter series: a summary line and each figure's best value and last. */
export const RfModelSchema = z.object({
  summary: z.string(),
  rows: z.array(z.object({ figure: z.string(), best: z.string(), last: z.string() })),
});

/** A ping measured during the visit. */
export const PingRowSchema = z.object({
  when: z.string(),
  destination: z.string(),
  sent: z.number(),
  received: z.number(),
});

/** A terminal session's log, named by its path in the exported bundle (never a file:// link). */
export const SessionLogSchema = z.object({ label: z.string(), file: z.string() });

/** What a section (a gateway's, or "Not tied to a gateway") holds besides its heading. */
export const SectionBodySchema = z.object({
  changes: z.array(ChangeModelSchema),
  /** The site pack's facts, as of when it was read. */
  pack: z.object({ asOf: z.string(), text: z.string() }).optional(),
  settingsReads: z.array(
    z.object({ what: z.string(), when: z.string(), outcome: WordedOutcomeSchema.optional() }),
  ),
  rf: z.array(RfModelSchema),
  pings: z.array(PingRowSchema),
  triages: z.array(TriageModelSchema),
  commands: z.array(CommandRowSchema),
  sessions: z.array(SessionLogSchema),
});
/** What a section holds besides its heading. */
export type SectionBody = z.infer<typeof SectionBodySchema>;

/** A gateway's section: its name, MAC, how it is identified, and its work. */
export const GatewaySectionSchema = SectionBodySchema.extend({
  name: z.string(),
  mac: z.string().optional(),
  /** Its id, or null for a name typed in a terminal that matched no gateway. */
  gatewayId: z.string().nullable(),
});
/** A gateway's section. */
export type GatewaySectionModel = z.infer<typeof GatewaySectionSchema>;

/** A verdict of the acceptance check: its kind (for its colour) and its words. */
export const VerdictModelSchema = z.object({ verdict: z.string(), words: z.string() });
/** A verdict of the acceptance check. */
export type VerdictModel = z.infer<typeof VerdictModelSchema>;

/** The acceptance page: each gateway's latest check before leaving, with before → after where it was re-run. */
export const AcceptancePageSchema = z.object({
  cards: z.array(
    z.object({
      name: z.string(),
      verdict: VerdictModelSchema,
      checked: z.string(),
      before: z.object({ at: z.string(), verdict: VerdictModelSchema }).optional(),
      items: z.array(
        z.object({
          label: z.string(),
          before: VerdictModelSchema.optional(),
          verdict: VerdictModelSchema,
          findings: z.array(z.string()),
          fix: z.string().optional(),
        }),
      ),
    }),
  ),
});
/** The acceptance page. */
export type AcceptancePageModel = z.infer<typeof AcceptancePageSchema>;

/** The site report as data. */
export const ReportModelSchema = z.object({
  /** The language it is written in (chosen per export): the components write their own words in it. */
  language: z.enum([...LANGUAGES, PSEUDO_LANGUAGE]),
  title: z.string(),
  /** Every page's header: the site (or "Site not named") and the visit's date. */
  header: z.object({ site: z.string(), date: z.string() }),
  facts: z.array(z.object({ label: z.string(), text: z.string() })),
  /** Page one: each gateway with its findings, worst first. */
  gateways: z.array(
    z.object({ name: z.string(), mac: z.string().optional(), findings: z.array(FindingSchema) }),
  ),
  generated: z.string(),
  sections: z.array(GatewaySectionSchema),
  /** Work that names no gateway of the visit. */
  other: SectionBodySchema.optional(),
  photos: z.array(z.object({ src: z.string(), caption: z.string(), when: z.string().optional() })),
  /** The journal's acceptance checks (issue "Before you leave"), when the visit has one. */
  acceptance: AcceptancePageSchema.optional(),
  acknowledgement: z.object({
    notes: z.string(),
    technicianName: z.string(),
    customerRepresentative: z.string(),
    /** The customer's acknowledgement as the visit journal recorded it (the latest), when there is one. */
    recorded: z
      .object({ by: z.string(), technician: z.string(), at: z.string(), words: z.string().optional() })
      .optional(),
  }),
  /** The visit journal the report was made from: how many entries and the chain's head hash. */
  evidence: z.object({ entries: z.number(), head: z.string() }).optional(),
});
/** The site report as data. */
export type ReportModel = z.infer<typeof ReportModelSchema>;
