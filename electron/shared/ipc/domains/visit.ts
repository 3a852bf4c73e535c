import { z } from 'zod';
import { GatewayIdentitySchema, PhotoFileSchema, VisitFieldsSchema } from '../../visit/journal-entry';

const NoInputSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);
const Name = z.string().max(200);
const EpochMs = z.int().nonnegative();
/** Base64 of at most 3 MiB (main checks the decoded size and the image signature again). */
const PhotoBase64Schema = z
  .string()
  .max(4 * 1024 * 1024 + 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** A visit as its journal tells it (electron/services/visit/visits.ts `VisitState`). */
export const VisitSummarySchema = z.object({
  id: z.string(),
  site: z.string().optional(),
  customer: z.string().optional(),
  technician: z.string().optional(),
  title: z.string().optional(),
  customerRepresentative: z.string().optional(),
  notes: z.string().optional(),
  arrivedAt: z.number(),
  departedAt: z.number().optional(),
  implicit: z.boolean(),
  isOpen: z.boolean(),
  readOnlyReason: z.string().optional(),
  entryCount: z.number(),
  headHash: z.string(),
  photos: z.array(PhotoFileSchema),
  /** The customer's latest acknowledgement, with when it was recorded. */
  acknowledgement: z
    .object({
      technicianName: z.string(),
      customerRepresentative: z.string(),
      text: z.string().optional(),
      at: z.number(),
    })
    .optional(),
  profileId: z.string().optional(),
  user: z.string().optional(),
});

/** Input of `visit:open`: what the technician knows on arrival; the arrival defaults to now. */
export const VisitOpenInputSchema = z
  .object({
    site: Name.optional(),
    customer: Name.optional(),
    technician: Name.optional(),
    arrivedAt: EpochMs.optional(),
  })
  .strict();

/** Base64 of a bundle's manifest or journal, as large as one message may carry. */
const BundleFileBase64Schema = z
  .string()
  .max(15 * 1024 * 1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** A bundle chosen in the app: every file's path and SHA-256 (hashed where read), its manifest's and journal's bytes. */
export const BundleChosenSchema = z
  .object({
    manifest: BundleFileBase64Schema.optional(),
    journal: BundleFileBase64Schema.optional(),
    files: z
      .array(
        z
          .object({
            path: z.string().min(1).max(1000),
            sha256: z.string().regex(/^[0-9a-f]{64}$/),
          })
          .strict(),
      )
      .max(10_000),
  })
  .strict();

/** A gateway the technician may pick, as the server or the site pack names it. */
const VisitGatewayChoiceSchema = z.object({
  gatewayId: z.string().min(1).max(100),
  name: Name,
  mac: z.string().max(64),
});

/** Channels of the visit domain: name → zod input and output. Spread into the contract (contract.ts). */
export const visitChannels = {
  /** Every visit kept, newest first. Needs no server and no sign-in, like every visit channel. */
  'visit:list': { input: NoInputSchema, output: z.object({ visits: z.array(VisitSummarySchema) }) },
  /** Starts a visit; refused while another is open. */
  'visit:open': { input: VisitOpenInputSchema, output: VisitSummarySchema },
  /** Ends the open visit (departure: the time given, else now). */
  'visit:close': {
    input: z.union([z.undefined(), z.null(), z.object({ departedAt: EpochMs.optional() }).strict()]),
    output: VisitSummarySchema,
  },
  /** The open visit, or null. */
  'visit:current': { input: NoInputSchema, output: VisitSummarySchema.nullable() },
  /** Saves the visit's fields as typed; with none open, opens an implicit visit holding them. */
  'visit:update': { input: VisitFieldsSchema, output: VisitSummarySchema },
  /** Adds a note to the open visit (opening an implicit one when none is). */
  'visit:note': {
    input: z
      .object({ text: z.string().min(1).max(10_000), gateway: GatewayIdentitySchema.optional() })
      .strict(),
    output: VisitSummarySchema,
  },
  /** Keeps a photo with the open visit: hashed when attached, recorded in its journal. Works in field mode. */
  'visit:photo-add': {
    input: z.object({ caption: Name, base64: PhotoBase64Schema }).strict(),
    output: PhotoFileSchema,
  },
  /**
   * Records the customer's acknowledgement of the work in the open visit (an `acknowledgement` entry; the entry's
   * time is when it was given). Only once the customer acknowledged: `acknowledged` must be true.
   */
  'visit:acknowledge': {
    input: z
      .object({
        customerRepresentative: Name.trim().min(1, 'Name the person who acknowledges the work'),
        technicianName: Name.trim().min(1, 'Name the technician'),
        text: z.string().trim().max(10_000).optional(),
        acknowledged: z.literal(true, 'Tick that the customer acknowledged the work'),
      })
      .strict(),
    output: VisitSummarySchema,
  },
  /**
   * Checks a bundle offline with the verifier of `npm run verify-report`: intact, or the first entry, photo, log
   * or file changed, added or removed, in words. Needs no visit, server or sign-in.
   */
  'visit:verify-bundle': {
    input: BundleChosenSchema,
    output: z.object({
      isIntact: z.boolean(),
      problems: z.array(z.string()),
      entries: z.int().optional(),
      head: z.string().optional(),
      files: z.object({ reports: z.int(), photos: z.int(), logs: z.int() }).optional(),
    }),
  },
  /** A photo of a visit, to show. */
  'visit:photo': {
    input: z.object({ visitId: z.uuid(), photoId: z.uuid() }).strict(),
    output: z.object({ mimeType: z.enum(['image/jpeg', 'image/png']), base64: z.string() }),
  },
  /** Takes a photo out of the open visit (recorded: the journal keeps that it was attached). */
  'visit:photo-remove': { input: z.object({ photoId: z.uuid() }).strict(), output: VisitSummarySchema },
  /**
   * The gateways the open visit's entries name only as typed (matched to no gateway of the server or the site pack
   * when recorded) and the technician has not picked yet, each with what named it. Empty with no visit open.
   */
  'visit:unidentified': {
    input: NoInputSchema,
    output: z.object({ gateways: z.array(z.object({ typed: Name, what: z.string() })) }),
  },
  /** Gateways to pick from by a part of their name, MAC, serial or id: the server's when signed in, else the pack's. */
  'visit:gateway-search': {
    input: z.object({ text: z.string().max(200) }).strict(),
    output: z.object({ gateways: z.array(VisitGatewayChoiceSchema) }),
  },
  /** Records the gateway the technician picked for a text typed (`gateway-identified`); kept for the visit. */
  'visit:identify-gateway': {
    input: z
      .object({ typed: Name.min(1), gatewayId: z.string().min(1).max(100), name: Name.min(1) })
      .strict(),
    output: z.object({ typed: Name, gateway: VisitGatewayChoiceSchema }),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the visit domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const visitEvents = {
  /** The open visit (or null) after it, or anything in it, changed. */
  'visit:changed': VisitSummarySchema.nullable(),
} as const satisfies Record<string, z.ZodType>;
