import { z } from 'zod';
import { GatewaySchema } from './api/gateway';
import { KnownCustomerSchema } from './customers';
import { t, type Translator } from './i18n';

/**
 * The version of the pack file this build writes and reads; any other version is set aside. Fields added since
 * (`customers`, `unresolved`) are optional: a pack without them reads as before, and an older build of the same
 * version ignores them.
 */
export const SITE_PACK_VERSION = 1;

/** Which gateways a pack's list covers: a provider's, a customer's or a gateway group's. */
export const PackScopeSchema = z.object({
  kind: z.enum(['provider', 'customer', 'group']),
  id: z.string().min(1).max(100),
  /**
   * The scope's name as the server gave it when the pack was made (a customer's title, else its name), so that
   * the pack is named offline too. Absent where the API names nothing (a provider, a gateway group).
   */
  name: z.string().min(1).max(200).optional(),
});
/** Which gateways a pack's list covers. */
export type PackScope = z.infer<typeof PackScopeSchema>;

/** Why the pack did not ask for a section, as a code: `gateway-offline`, its live sections would only time out. */
export const PackSkipSchema = z.enum(['gateway-offline']);

/**
 * One section read for a gateway: its answer; why it could not be read (`error`: the server's or connection's
 * message as it came, or, in a pack made before `skipped`, the app's own sentence in the language of the day); or
 * why it was not asked for (`skipped`, a code written in words when shown: packSectionProblem).
 */
export const PackSectionSchema = z.union([
  z.object({ value: z.unknown() }),
  z.object({ error: z.string() }),
  z.object({ skipped: PackSkipSchema }),
]);
/** One section read for a gateway. */
export type PackSection = z.infer<typeof PackSectionSchema>;

const SKIP_WORDS = { 'gateway-offline': 'sitePack:sectionGatewayOffline' } as const;

/** Why a section holds no answer, in words: a skip written by `translate`, an error as it was kept. */
export function packSectionProblem(
  section: Exclude<PackSection, { value: unknown }>,
  translate: Translator = t,
): string {
  return 'skipped' in section ? translate(SKIP_WORDS[section.skipped]) : section.error;
}

/** The names of the sections read for each chosen gateway, in the order the gateway page shows them. */
export const PACK_SECTIONS = [
  'info',
  'wanLinks',
  'apns',
  'firewall',
  'backups',
  'software',
  'alarms',
  'events',
] as const;
/** A section name. */
export type PackSectionName = (typeof PACK_SECTIONS)[number];

/** What the pack keeps about one chosen gateway beyond its list record. */
export const PackGatewayDetailsSchema = z.object({
  readAt: z.number(),
  sections: z.partialRecord(z.enum(PACK_SECTIONS), PackSectionSchema),
});
/** What the pack keeps about one chosen gateway. */
export type PackGatewayDetails = z.infer<typeof PackGatewayDetailsSchema>;

/** The pack file, `<dataDir>/site-packs/<profileId>.json`. It holds no secret. */
export const SitePackFileSchema = z.object({
  version: z.literal(SITE_PACK_VERSION),
  profileId: z.string(),
  preparedAt: z.number(),
  scope: PackScopeSchema,
  /** Every gateway of the scope when the pack was made (so offline search covers all of them). */
  gateways: z.array(GatewaySchema),
  /** The chosen gateways' details, by gateway id. */
  details: z.record(z.string(), PackGatewayDetailsSchema),
  /** Ids of the chosen gateways whose root password is in the keychain (never the password). */
  rootPasswordStored: z.array(z.string()),
  /** The customers the profile knew of, with their names, so that pickers name them offline too. */
  customers: z.array(KnownCustomerSchema).max(500).optional(),
  /** The entries of the visit list that named no gateway of the scope, as typed. */
  unresolved: z.array(z.string()).max(500).optional(),
});
/** The pack file. */
export type SitePackFile = z.infer<typeof SitePackFileSchema>;
