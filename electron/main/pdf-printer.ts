import type { BrowserWindow } from 'electron';
import type { PdfPrinter, PrintOptions } from '../services/reports';

/** Page margins in inches (printToPDF's unit): room for the header and footer on every page. */
const MARGINS_INCHES = { top: 0.63, bottom: 0.55, left: 0.47, right: 0.47 };

/**
 * Prints a self-contained HTML page to PDF with Electron's `webContents.printToPDF` in a hidden, sandboxed
 * window with JavaScript off, A4, with the report's header and footer ("Page n of N") on every page; the window
 * is destroyed after each print, whatever happens.
 */
export class ElectronPdfPrinter implements PdfPrinter {
  constructor(private readonly BrowserWindowClass: typeof BrowserWindow) {}

  /** Renders `html` and resolves with the PDF bytes. */
  async print(html: string, options: PrintOptions = {}): Promise<Uint8Array> {
    options.signal?.throwIfAborted();
    const window = new this.BrowserWindowClass({
      show: false,
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
    });
    try {
      await window.loadURL(`data:text/html;charset=utf-8;base64,${Buffer.from(html).toString('base64')}`);
      options.signal?.throwIfAborted();
      const pdf = await window.webContents.printToPDF({
        pageSize: 'A4',
        printBackground: true,
        margins: MARGINS_INCHES,
        displayHeaderFooter: options.headerHtml !== undefined || options.footerHtml !== undefined,
        headerTemplate: options.headerHtml ?? '<span></span>',
        footerTemplate: options.footerHtml ?? '<span></span>',
      });
      return new Uint8Array(pdf);
    } finally {
      window.destroy();
    }
  }
}
