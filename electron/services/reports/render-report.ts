import type { Component } from 'svelte';
import { render } from 'svelte/server';
import type { ReportModel } from '../../shared/report/report-model';
import { buildReportModel } from './report-model';
import type { SiteReportOptions, SiteVisit } from './site-visit';

/** What a PDF printer prints besides the page: the header and footer repeated on every page. */
export interface PrintTemplates {
  /** printToPDF's headerTemplate: the site and the visit's date. */
  headerHtml: string;
  /** printToPDF's footerTemplate: "Page n of N" (pageNumber and totalPages spans). */
  footerHtml: string;
}

/**
 * Svelte's markers for hydrating what it rendered (`<!--[-->`, `<!---->`…): an exported report is never hydrated.
 * Data cannot forge one: every `<` of the data is escaped by the renderer.
 */
const HYDRATION_MARKERS = /<!--[^>]*?-->/g;

function renderStatic<Props extends Record<string, unknown>>(
  component: Component<Props>,
  props: Props,
): { head: string; body: string } {
  const { head, body } = render(component, { props });
  return { head: head.replace(HYDRATION_MARKERS, ''), body: body.replace(HYDRATION_MARKERS, '') };
}

/**
 * The report's components, loaded on the first report: a process that never renders one (a host started by tsx
 * for a test, with no Svelte compile hook) never compiles them. The bundles and vitest compile them for the
 * server (build/svelte-server.mjs); a tsx script that renders registers build/svelte-register.mjs.
 */
async function loadComponents() {
  const [document, header, footer] = await Promise.all([
    import('../../shared/report/document/ReportDocument.svelte'),
    import('../../shared/report/document/PrintHeader.svelte'),
    import('../../shared/report/document/PrintFooter.svelte'),
  ]);
  return { ReportDocument: document.default, PrintHeader: header.default, PrintFooter: footer.default };
}

/** Print rules of the exported page: A4, room for the header and footer, nothing around the document. */
const PAGE_STYLE =
  '@page{size:A4 portrait;margin:16mm 12mm 14mm}' +
  'body{margin:2rem auto;max-width:52rem;padding:0 1rem}' +
  '@media print{body{margin:0;max-width:none;padding:0}}';

/**
 * The report as one self-contained HTML page (inline style, no script, nothing fetched: photos are embedded):
 * ReportDocument rendered with `svelte/server`, the same components the app's preview mounts. Escaping is
 * Svelte's.
 */
export async function renderReportHtml(report: ReportModel): Promise<string> {
  const { ReportDocument } = await loadComponents();
  const { head, body } = renderStatic(ReportDocument, { report });
  return `<!doctype html>
<html lang="${report.language}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
${head}<style>${PAGE_STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

/** The header and footer a PDF printer repeats on each page, rendered by their components (escaped by Svelte). */
export async function renderPrintTemplates(report: ReportModel): Promise<PrintTemplates> {
  const { PrintHeader, PrintFooter } = await loadComponents();
  return {
    headerHtml: renderStatic(PrintHeader, { report }).body,
    footerHtml: renderStatic(PrintFooter, { language: report.language }).body,
  };
}

/**
 * The site report of a visit as HTML: buildReportModel, then renderReportHtml. Page one holds the visit's facts
 * and each gateway's findings worst first; then a section per gateway, photos, notes and the acknowledgement.
 * Every value is redacted (by key, pattern and known secrets) and escaped, so no secret and no markup from the
 * data reaches the page.
 */
export function buildSiteReportHtml(visit: SiteVisit, options: SiteReportOptions = {}): Promise<string> {
  return renderReportHtml(buildReportModel(visit, options));
}
