import type { BrowserWindow } from 'electron';
import type { PdfPrinter } from '../services/reports';

/**
 * Prints a self-contained HTML page to PDF with Electron's `webContents.printToPDF` in a hidden, sandboxed
 * window with JavaScript off; the window is destroyed after each print, whatever happens.
 */
export class ElectronPdfPrinter implements PdfPrinter {
  constructor(private readonly BrowserWindowClass: typeof BrowserWindow) {}

  /** Renders `html` and resolves with the PDF bytes. */
  async print(html: string, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    options.signal?.throwIfAborted();
    const window = new this.BrowserWindowClass({
      show: false,
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
    });
    try {
      await window.loadURL(`data:text/html;charset=utf-8;base64,${Buffer.from(html).toString('base64')}`);
      options.signal?.throwIfAborted();
      const pdf = await window.webContents.printToPDF({ pageSize: 'A4', printBackground: true });
      return new Uint8Array(pdf);
    } finally {
      window.destroy();
    }
  }
}
