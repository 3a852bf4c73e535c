import { z } from 'zod';
import { ReportModelSchema } from '../../report/report-model';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../../i18n/languages';

const GatewayIdSchema = z.string().min(1).max(100);

/** What a report is made of: the visit's span, its gateways, words for the header, and the terminal logs. */
const ReportSourceShape = {
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
  /** The language the report is written in, chosen per export (left out: English). */
  language: z.enum([...LANGUAGES, PSEUDO_LANGUAGE]).optional(),
};

/** Input of `report:export`: what the report is made of, and the format. */
export const ReportExportInputSchema = z
  .object({ ...ReportSourceShape, format: z.enum(['html', 'pdf']) })
  .strict();

/** Input of `report:preview`: what the report is made of (the same as an export's, without a format). */
export const ReportPreviewInputSchema = z.object(ReportSourceShape).strict();

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

/** Channels of the site report: export, preview and the photos of a visit start. Spread into the commissioning domain. */
export const reportChannels = {
  'report:export': { input: ReportExportInputSchema, output: ReportExportOutputSchema },
  /** The report as it would be exported now (the one rendering's model); records nothing. */
  'report:preview': { input: ReportPreviewInputSchema, output: ReportModelSchema },
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
