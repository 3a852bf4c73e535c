import { access, open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-file';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from '../files/private-files';
import { buildReportModel } from './report-model';
import { renderPrintTemplates, renderReportHtml, type PrintTemplates } from './render-report';
import type { SiteReportOptions, SiteVisit } from './site-visit';
import { toIsoTime } from '../../shared/time';

/** How a page is printed: its header and footer on every page (PrintTemplates), and a signal to stop. */
export interface PrintOptions extends Partial<PrintTemplates> {
  signal?: AbortSignal;
}

/**
 * Turns a self-contained HTML page into PDF bytes, A4, with the header and footer templates (Chromium's
 * printToPDF `headerTemplate` / `footerTemplate`, whose pageNumber and totalPages spans it fills) on every page.
 * Main plugs in Electron's printToPDF, the browser host a headless Chromium (electron/host/chromium-pdf-printer.ts).
 */
export interface PdfPrinter {
  print(html: string, options?: PrintOptions): Promise<Uint8Array>;
}

/** Longest site part of a report's name, in characters: the name stays readable in a file list. */
const MAX_SUBJECT_LENGTH = 48;
/** Exports of one visit in one minute tried before giving up (a folder full of them is a fault, not a visit). */
const MAX_SUFFIX = 1000;

/** The site in a file name: letters and digits of any script, words joined by `-`, cut at a word. */
function subjectOf(text: string): string {
  const words = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  if (words.length <= MAX_SUBJECT_LENGTH) return words;
  const cut = words.lastIndexOf('-', MAX_SUBJECT_LENGTH);
  return cut > 0 ? words.slice(0, cut) : words.slice(0, MAX_SUBJECT_LENGTH);
}

/** `yyyy-mm-dd_HHmm` of an instant in a time zone (default: this machine's); `unknown-date` for a time no `Date` holds. */
function stampOf(at: number, timeZone?: string): string {
  if (toIsoTime(at) === undefined) return 'unknown-date';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}_${parts.hour}${parts.minute}`;
}

/**
 * A report's file name without extension: `site-report_<site>_<yyyy-mm-dd_HHmm>` — the site (else the first
 * gateway's name or id, else `visit`) cut at a word to at most 48 characters, then the visit's start in the
 * report's time zone, always whole.
 */
export function reportBaseName(visit: SiteVisit, timeZone?: string): string {
  const subject =
    subjectOf(visit.site ?? '') ||
    subjectOf(visit.gateways[0]?.name ?? '') ||
    subjectOf(visit.gateways[0]?.id ?? '') ||
    'visit';
  return `site-report_${subject}_${stampOf(visit.startedAt, timeZone)}`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Reserves a name no earlier export holds in `folder`: `base`, else `base-2`, `base-3`… The HTML file is created
 * empty and exclusively (so two exports at once never get one name), and neither a PDF nor a bundle folder of that
 * name may exist. Resolves with the name reserved.
 */
export async function reserveReportName(folder: string, base: string): Promise<string> {
  for (let suffix = 1; suffix <= MAX_SUFFIX; suffix += 1) {
    const name = suffix === 1 ? base : `${base}-${suffix}`;
    if ((await exists(join(folder, `${name}.pdf`))) || (await exists(join(folder, name)))) continue;
    try {
      await (await open(join(folder, `${name}.html`), 'wx', PRIVATE_FILE_MODE)).close();
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`${MAX_SUFFIX} reports named ${base} exist already in ${folder}`);
}

/**
 * Writes the report (buildReportModel, rendered by renderReportHtml) as HTML and, with a printer, as PDF into `folder` (made or tightened to 0700; the files
 * 0600: a report is a customer's business), each atomically, under a name no earlier export holds (never
 * overwriting one). Resolves with the paths written and the name they share.
 */
export async function exportSiteReport(
  visit: SiteVisit,
  folder: string,
  options: SiteReportOptions & { printer?: PdfPrinter; signal?: AbortSignal } = {},
): Promise<{ htmlPath: string; pdfPath?: string; baseName: string }> {
  const report = buildReportModel(visit, options);
  const html = await renderReportHtml(report);
  await ensurePrivateFolder(folder);
  const baseName = await reserveReportName(folder, reportBaseName(visit, options.timeZone));
  const base = join(folder, baseName);
  const htmlPath = `${base}.html`;
  await writeFileAtomic(htmlPath, html);
  if (!options.printer) return { htmlPath, baseName };
  const pdf = await options.printer.print(html, {
    ...(await renderPrintTemplates(report)),
    signal: options.signal,
  });
  const pdfPath = `${base}.pdf`;
  await writeFileAtomic(pdfPath, pdf);
  return { htmlPath, pdfPath, baseName };
}
