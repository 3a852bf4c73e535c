import { z } from 'zod';
import { ReportModelSchema } from '../../report/report-model';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../../i18n/languages';

const GatewayIdSchema = z.string().min(1).max(200);

/**
 * Which report is asked for: a visit's (default: the open one; a closed one from the visits list by its id), in
 * which language, and which of the gateways its journal names ("Only these gateways"; left out: all of them).
 */
const ReportQuestionShape = {
  visitId: z.uuid().optional(),
  gateways: z.array(GatewayIdSchema).max(100).optional(),
  /** The language the report is written in, chosen per export (left out: English). */
  language: z.enum([...LANGUAGES, PSEUDO_LANGUAGE]).optional(),
};

/** Input of `report:export`: the visit, the language, the gateways, and the format. */
export const ReportExportInputSchema = z
  .object({ ...ReportQuestionShape, format: z.enum(['html', 'pdf']) })
  .strict();

/** Input of `report:preview`: the same as an export's, without a format. */
export const ReportPreviewInputSchema = z.object(ReportQuestionShape).strict();

/** Output of `report:export`: where the files were written, and the document itself (base64) to download. */
export const ReportExportOutputSchema = z.object({
  htmlPath: z.string(),
  pdfPath: z.string().optional(),
  /** The bundle folder beside the report (report, journal, photos, logs, manifest). */
  bundlePath: z.string().optional(),
  fileName: z.string(),
  mimeType: z.enum(['text/html', 'application/pdf']),
  base64: z.string(),
});
/** Output of `report:export`. */
export type ReportExportOutput = z.infer<typeof ReportExportOutputSchema>;

/** A gateway a visit's journal names: the key the report files it under, and its name and MAC when known. */
const ReportGatewaySchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  mac: z.string().optional(),
});

/** A line of what a report will hold (electron/shared/report/visit-lines.ts `VisitLine`), in the report's words. */
const ReportLineSchema = z.object({
  at: z.number(),
  lastAt: z.number(),
  count: z.int(),
  gatewayId: z.string().optional(),
  what: z.string(),
  apiName: z.string().optional(),
  outcome: z.string(),
  reason: z.string().optional(),
  detail: z.string().optional(),
});

/** Channels of the site report: a visit's report exported or previewed, and the gateways it can cover. */
export const reportChannels = {
  /** Writes the visit's bundle, then renders the report from the journal lines it bundled. */
  'report:export': { input: ReportExportInputSchema, output: ReportExportOutputSchema },
  /** The visit's report as it would be exported now (the one rendering's model); records nothing. */
  'report:preview': { input: ReportPreviewInputSchema, output: ReportModelSchema },
  /** The gateways the visit's journal names (what "Only these gateways" offers). */
  'report:gateways': {
    input: z.object({ visitId: z.uuid().optional() }).strict(),
    output: z.object({ gateways: z.array(ReportGatewaySchema) }),
  },
  /**
   * What the visit's report will hold, as lines in time order (changes, settings read, commands with reads folded,
   * terminal sessions, serial triages): made from the journal the report is rendered from, and nothing else.
   */
  'report:lines': {
    input: ReportPreviewInputSchema,
    output: z.object({ lines: z.array(ReportLineSchema) }),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;
