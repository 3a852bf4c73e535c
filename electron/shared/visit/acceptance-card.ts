import { z } from 'zod';
import { StoredMessageSchema } from './stored-message';

const Words = z.string().max(2_000);
/**
 * A sentence of a card: a catalogue message kept as data (written in the reader's language when shown), or the
 * English sentence of a card journaled before the catalogue (shown as it is).
 */
const SentenceSchema = z.union([Words, StoredMessageSchema]);

/** The items a site acceptance check judges, in the order the card lists them. */
export const ACCEPTANCE_ITEMS = [
  'uplink',
  'cellular',
  'lora',
  'position',
  'software',
  'backup',
  'alarms',
  'clock',
  'packet-forwarder',
] as const;
/** One item of the check. */
export type AcceptanceItemId = (typeof ACCEPTANCE_ITEMS)[number];

/**
 * How an item was judged: `go` / `warn` / `no-go`; `unknown` when it could not be read (the words say why);
 * `not-applicable` (no modem fitted); `needs-server` (an offline card cannot see it); `not-finished` (the check
 * was cancelled before this item was judged).
 */
export const ItemVerdictSchema = z.enum([
  'go',
  'warn',
  'no-go',
  'unknown',
  'not-applicable',
  'needs-server',
  'not-finished',
]);
/** How one item was judged. */
export type ItemVerdict = z.infer<typeof ItemVerdictSchema>;

/** The whole card's verdict: the worst of its items; `not-finished` when the check was cancelled. */
export const CardVerdictSchema = z.enum(['go', 'warn', 'no-go', 'not-finished']);
/** The whole card's verdict. */
export type CardVerdict = z.infer<typeof CardVerdictSchema>;

/** The wizards and tools a fix can open on the gateway's page. */
export const FixTargetSchema = z.enum([
  'connectivity',
  'cellular',
  'firewall',
  'backups',
  'software',
  'diagnostics',
]);
/** Where a fix's button goes. */
export type FixTarget = z.infer<typeof FixTargetSchema>;

/**
 * One judged item: what was found, and for a warn or no-go the fix in one sentence. Sentences are kept as
 * messages (key and values) so the report writes them in its own language; acceptanceItemWords writes them.
 */
export const AcceptanceItemSchema = z
  .object({
    id: z.enum(ACCEPTANCE_ITEMS),
    /** The item's English name, in cards journaled before the catalogue; new cards name it by `id`. */
    label: z.string().max(100).optional(),
    verdict: ItemVerdictSchema,
    /** What was found, in sentences a customer can read. */
    findings: z.array(SentenceSchema).max(20),
    /** For a warn or no-go: what to do, in one sentence, and the wizard that does it. */
    fix: z.object({ text: SentenceSchema, target: FixTargetSchema.optional() }).strict().optional(),
  })
  .strict();
/** One judged item of a card. */
export type AcceptanceItem = z.infer<typeof AcceptanceItemSchema>;

/** One gateway's acceptance card: its verdict with the reasons, kept with the time it was taken. */
export const AcceptanceCardSchema = z
  .object({
    gatewayId: z.string().min(1).max(100),
    gatewayName: z.string().max(200).optional(),
    /** `server`: read through the API; `serial-triage`: filled offline from the latest serial triage. */
    source: z.enum(['server', 'serial-triage']),
    startedAt: z.int().nonnegative(),
    /** When the card was finished (or the check cancelled). */
    takenAt: z.int().nonnegative(),
    verdict: CardVerdictSchema,
    items: z.array(AcceptanceItemSchema).max(ACCEPTANCE_ITEMS.length),
    /** The observation window the LoRa item used, in seconds (0: the counters were read once). */
    windowSeconds: z.int().nonnegative().max(3_600).optional(),
    /** The thresholds' profile when the user overrides the defaults (its name), else absent. */
    thresholdsProfile: z.string().max(200).optional(),
  })
  .strict();
/** One gateway's acceptance card. */
export type AcceptanceCard = z.infer<typeof AcceptanceCardSchema>;

const VERDICT_RANK: Record<ItemVerdict, number> = {
  go: 0,
  'not-applicable': 0,
  'needs-server': 1,
  unknown: 1,
  warn: 1,
  'no-go': 2,
  'not-finished': 1,
};

/**
 * A card's verdict from its items: no-go when any item is no-go, else warn when any is warn or could not be
 * judged (unknown, needs the server), else go; `not-finished` when the check did not finish.
 */
export function cardVerdict(
  items: readonly Pick<AcceptanceItem, 'verdict'>[],
  isFinished: boolean,
): CardVerdict {
  if (!isFinished) return 'not-finished';
  const worst = Math.max(0, ...items.map((item) => VERDICT_RANK[item.verdict]));
  return worst === 2 ? 'no-go' : worst === 1 ? 'warn' : 'go';
}
