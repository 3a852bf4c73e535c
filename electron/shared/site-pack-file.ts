import { z } from 'zod';
import { GatewaySchema } from './api/gateway';
import { KnownCustomerSchema } from './customers';

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

/** One section read for a gateway: its answer, or why it could not be read. */
export const PackSectionSchema = z.union([z.object({ value: z.unknown() }), z.object({ error: z.string() })]);
/** One section read for a gateway. */
export type PackSection = z.infer<typeof PackSectionSchema>;

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
