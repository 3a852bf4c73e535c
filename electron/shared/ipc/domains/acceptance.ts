import { z } from 'zod';
import { t } from '../../i18n';
import { AcceptanceCardSchema } from '../../visit/acceptance-card';
import {
  AcceptanceOverrideSchema,
  AcceptanceTableSchema,
  type AcceptanceField,
} from '../../acceptance/acceptance-table';

const NoInputSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);
const GatewayIdSchema = z.string().min(1).max(100);

/** A gateway to check, with the name and model the page knows (the model says how many antennas to expect). */
export const AcceptanceTargetSchema = z
  .object({
    gatewayId: GatewayIdSchema,
    name: z.string().max(200).optional(),
    model: z.string().max(100).optional(),
  })
  .strict();

/** Input of `acceptance:start`: the gateways (one, or all of the visit) and the observation window if not the table's. */
export const AcceptanceStartInputSchema = z
  .object({
    targets: z
      .array(AcceptanceTargetSchema)
      // Written when the input is checked, so in the language of the screen then.
      .min(1, { error: () => t('acceptance:chooseGateway') })
      .max(50, { error: () => t('acceptance:tooManyGateways', { most: 50 }) }),
    /** Seconds to watch the LoRa counters (0: read once); default: the table's. */
    observationSeconds: z.int().min(0).max(3_600).optional(),
  })
  .strict();

/**
 * Where a check is: `reading`, `observing` (the LoRa window, until `windowEndsAt`), then `done`, `cancelled` (cards
 * "not finished") or `failed` (nothing judged; `message` says why). `cards` come with `done` and `cancelled`.
 */
export const AcceptanceProgressSchema = z.object({
  checkId: z.string(),
  gatewayIds: z.array(z.string()),
  phase: z.enum(['reading', 'observing', 'done', 'cancelled', 'failed']),
  done: z.number(),
  total: z.number(),
  /** While reading: when the reads give up at the latest (two command time limits: a read may wait for another). */
  readingEndsAt: z.number().optional(),
  windowStartedAt: z.number().optional(),
  windowEndsAt: z.number().optional(),
  cards: z.array(AcceptanceCardSchema).optional(),
  message: z.string().optional(),
  /** Why the cards are not in the visit journal (it refused them), if so. */
  journalProblem: z.string().optional(),
});
/** Where a check is. */
export type AcceptanceProgress = z.infer<typeof AcceptanceProgressSchema>;

const ProfileIdSchema = z.string().min(1).max(64);
const FIELD_NAMES = Object.keys(AcceptanceTableSchema.shape) as [AcceptanceField, ...AcceptanceField[]];

/**
 * A profile's thresholds table: the defaults, the fields the profile overrides (the overrides file's entry) and
 * the profile's name. The check uses the defaults with the overrides laid over them.
 */
export const AcceptanceThresholdsSchema = z.object({
  profileId: z.string(),
  profileName: z.string(),
  defaults: AcceptanceTableSchema,
  override: AcceptanceOverrideSchema,
});
/** A profile's thresholds table (see AcceptanceThresholdsSchema). */
export type AcceptanceThresholds = z.infer<typeof AcceptanceThresholdsSchema>;

/** Channels of the acceptance domain: name → zod input and output. Spread into the contract (contract.ts). */
export const acceptanceChannels = {
  /** Starts a check; progress and then the cards come as `acceptance:progress`. Cancel with `call:cancel { checkId }`. */
  'acceptance:start': { input: AcceptanceStartInputSchema, output: z.object({ checkId: z.string() }) },
  /** The check under way or the last one of this run (null before any). */
  'acceptance:status': { input: NoInputSchema, output: AcceptanceProgressSchema.nullable() },
  /** The cards the open visit's journal holds, oldest first (of these gateways, or all). Needs no server. */
  'acceptance:cards': {
    input: z.object({ gatewayIds: z.array(GatewayIdSchema).max(500).optional() }).strict(),
    output: z.object({ cards: z.array(AcceptanceCardSchema) }),
  },
  /**
   * An offline card of one gateway, filled from its latest serial triage in the open visit (null: none) and the site
   * pack; kept in the visit journal before it is answered (a journal that cannot keep it refuses the card).
   */
  'acceptance:offline': {
    input: z.object({ gatewayId: GatewayIdSchema, name: z.string().max(200).optional() }).strict(),
    output: AcceptanceCardSchema.nullable(),
  },
  /** A profile's thresholds table (defaults and its overrides). Needs no server: the table is on this computer. */
  'acceptance:thresholds-read': {
    input: z.object({ profileId: ProfileIdSchema }).strict(),
    output: AcceptanceThresholdsSchema,
  },
  /**
   * Replaces a profile's overrides with these fields (bands whole), checked by the table's schema: an invalid field
   * refuses the whole save and nothing is written. Answers the table as saved.
   */
  'acceptance:thresholds-save': {
    input: z.object({ profileId: ProfileIdSchema, override: AcceptanceOverrideSchema }).strict(),
    output: AcceptanceThresholdsSchema,
  },
  /** Takes these fields of a profile back to the defaults (all of them when `fields` is left out). */
  'acceptance:thresholds-clear': {
    input: z
      .object({
        profileId: ProfileIdSchema,
        fields: z.array(z.enum(FIELD_NAMES)).max(FIELD_NAMES.length).optional(),
      })
      .strict(),
    output: AcceptanceThresholdsSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the acceptance domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const acceptanceEvents = {
  'acceptance:progress': AcceptanceProgressSchema,
} as const satisfies Record<string, z.ZodType>;
