import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-file';
import { ensurePrivateFolder } from '../files/private-files';
import { buildSiteReportHtml, type SiteReportOptions, type SiteVisit } from './site-report';
import { toIsoTime } from '../../shared/time';

/**
 * Turns a self-contained HTML page into PDF bytes. Main plugs in Electron's printToPDF, the browser host a
 * headless Chromium (electron/host/chromium-pdf-printer.ts).
 */
export interface PdfPrinter {
  print(html: string, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
}

/** A file name from the visit: `site-report-<gateway or site>-<ISO date>` with only safe characters. */
export function reportBaseName(visit: SiteVisit): string {
  const subject = visit.site ?? visit.gateways[0]?.name ?? visit.gateways[0]?.id ?? 'visit';
  const date = toIsoTime(visit.startedAt)?.slice(0, 16).replace(/:/g, '-') ?? 'unknown-date';
  return `site-report-${subject}-${date}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}

/**
 * Writes the report as HTML and, with a printer, as PDF into `folder` (made or tightened to 0700; the files
 * 0600: a report is a customer's business), each atomically.
 * Resolves with the paths written.
 */
export async function exportSiteReport(
  visit: SiteVisit,
  folder: string,
  options: SiteReportOptions & { printer?: PdfPrinter; signal?: AbortSignal } = {},
): Promise<{ htmlPath: string; pdfPath?: string }> {
  const html = buildSiteReportHtml(visit, options);
  await ensurePrivateFolder(folder);
  const base = join(folder, reportBaseName(visit));
  const htmlPath = `${base}.html`;
  await writeFileAtomic(htmlPath, html);
  if (!options.printer) return { htmlPath };
  const pdf = await options.printer.print(html, { signal: options.signal });
  const pdfPath = `${base}.pdf`;
  await writeFileAtomic(pdfPath, pdf);
  return { htmlPath, pdfPath };
}
