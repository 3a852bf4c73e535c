import { z } from 'zod';
import { GatewayIdSchema, IdSchema } from './ids';

/** One audit entry as the renderer sees it (already redacted by the log). */
export const AuditEntryViewSchema = z.looseObject({
  at: z.number(),
  profileId: z.string(),
  user: z.string(),
  gatewayId: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  outcome: z.string(),
  durationMs: z.number(),
  error: z.string().optional(),
  runId: z.string().optional(),
});

/** Input of `report:export`: the visit's span, its gateways, words for the header, and the formats. */
export const ReportExportInputSchema = z
  .object({
    startedAt: z.number().nonnegative(),
    endedAt: z.number().nonnegative().optional(),
    gateways: z
      .array(
        z.object({
          id: GatewayIdSchema,
          name: z.string().max(200).optional(),
          mac: z.string().max(64).optional(),
        }),
      )
      .max(100)
      .optional(),
    title: z.string().max(200).optional(),
    site: z.string().max(200).optional(),
    customer: z.string().max(200).optional(),
    technicianName: z.string().max(200).optional(),
    customerRepresentative: z.string().max(200).optional(),
    notes: z.string().max(10_000).optional(),
    terminalLogs: z
      .array(
        z.object({
          label: z.string().max(200),
          path: z.string().max(1000),
          gatewayId: z.string().max(100).optional(),
        }),
      )
      .max(100)
      .optional(),
    format: z.enum(['html', 'pdf']),
  })
  .strict();

/** Output of `report:export`: where the files were written, and the document itself (base64) to download. */
export const ReportExportOutputSchema = z.object({
  htmlPath: z.string(),
  pdfPath: z.string().optional(),
  /** The bundle folder beside the report (report, journal, photos, logs, manifest) when a visit was exported. */
  bundlePath: z.string().optional(),
  fileName: z.string(),
  mimeType: z.enum(['text/html', 'application/pdf']),
  base64: z.string(),
});
/** Output of `report:export`. */
export type ReportExportOutput = z.infer<typeof ReportExportOutputSchema>;

/** A photo attached to a visit, as listed (its bytes come with `report:photo`). */
export const VisitPhotoInfoSchema = z.object({
  id: z.string(),
  caption: z.string(),
  mimeType: z.enum(['image/jpeg', 'image/png']),
  bytes: z.number(),
  addedAt: z.number(),
});
/** A photo attached to a visit, as listed. */
export type VisitPhotoInfoView = z.infer<typeof VisitPhotoInfoSchema>;

/** The visit a photo belongs to: its start (the report's "Visit started"), in epoch milliseconds. */
const VisitKeySchema = z.int().nonnegative();
/** Base64 of at most 3 MiB (the main process checks the decoded size and the image signature again). */
const PhotoBase64Schema = z
  .string()
  .max(4 * 1024 * 1024 + 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** Channels of the audit log, the site report and its photos: name → zod input and output. Spread into the contract. */
export const reportsChannels = {
  'audit:read': {
    input: z
      .object({
        since: z.number().nonnegative().optional(),
        until: z.number().nonnegative().optional(),
        gatewayId: GatewayIdSchema.optional(),
        runId: IdSchema.optional(),
      })
      .strict(),
    output: z.object({ entries: z.array(AuditEntryViewSchema) }),
  },
  'report:export': { input: ReportExportInputSchema, output: ReportExportOutputSchema },
  'report:photos': {
    input: z.object({ startedAt: VisitKeySchema }).strict(),
    output: z.object({ photos: z.array(VisitPhotoInfoSchema) }),
  },
  'report:photo': {
    input: z.object({ startedAt: VisitKeySchema, id: z.string().max(64) }).strict(),
    output: z.object({ mimeType: z.enum(['image/jpeg', 'image/png']), base64: z.string() }),
  },
  'report:photo-add': {
    input: z
      .object({ startedAt: VisitKeySchema, caption: z.string().max(200), base64: PhotoBase64Schema })
      .strict(),
    output: VisitPhotoInfoSchema,
  },
  'report:photo-remove': {
    input: z.object({ startedAt: VisitKeySchema, id: z.string().max(64) }).strict(),
    output: z.null(),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;
