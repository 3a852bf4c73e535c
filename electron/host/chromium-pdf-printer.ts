import type { PdfPrinter, PrintOptions } from '../services/reports';

/** Where Debian's Chromium lives. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Flags for a quiet headless Chromium that fetches nothing of its own. */
export const CHROMIUM_PDF_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/**
 * Prints with a headless Chromium through playwright-core: one browser per print, closed afterwards, network
 * requests from the page refused (the report is self-contained, so nothing should ask), A4 with backgrounds, and
 * the report's header and footer ("Page n of N") on every page.
 */
export class ChromiumPdfPrinter implements PdfPrinter {
  constructor(private readonly options: { executablePath?: string; timeoutMs?: number } = {}) {}

  /** Renders `html` and resolves with the PDF bytes. */
  async print(html: string, options: PrintOptions = {}): Promise<Uint8Array> {
    options.signal?.throwIfAborted();
    // Loaded on the first report: playwright-core costs about a second to import, on every start otherwise.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: this.options.executablePath ?? CHROMIUM_PATH,
      args: [...CHROMIUM_PDF_ARGS],
      timeout: this.options.timeoutMs ?? 30_000,
    });
    const close = () => void browser.close();
    options.signal?.addEventListener('abort', close, { once: true });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false });
      await context.route('**/*', (route) => route.abort());
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load', timeout: this.options.timeoutMs ?? 30_000 });
      const pdf = await page.pdf({
        format: 'A4',
        printBackground: true,
        margin: { top: '16mm', bottom: '14mm', left: '12mm', right: '12mm' },
        displayHeaderFooter: options.headerHtml !== undefined || options.footerHtml !== undefined,
        headerTemplate: options.headerHtml ?? '<span></span>',
        footerTemplate: options.footerHtml ?? '<span></span>',
      });
      return new Uint8Array(pdf);
    } finally {
      options.signal?.removeEventListener('abort', close);
      await browser.close();
    }
  }
}
