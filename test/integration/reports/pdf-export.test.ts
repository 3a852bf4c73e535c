import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumPdfPrinter } from '../../../electron/host/chromium-pdf-printer';
import { exportSiteReport } from '../../../electron/services/reports';
import { FACTORY_TIME, makeAuditEntry, makeSiteVisit } from '../../helpers/factories';

const run = promisify(execFile);
const SECRET = 'label-password-5531';

const visit = makeSiteVisit(
  [
    makeAuditEntry({
      kind: 'wizard',
      name: 'connectivity',
      durationMs: 5_000,
      before: { pingTarget: '8.8.8.8' },
      after: { pingTarget: '1.1.1.1' },
      response: {
        outcome: 'applied',
        checks: [{ name: 'Ping 1.1.1.1', ok: true, detail: '4 of 4 packets received' }],
      },
    }),
    makeAuditEntry({
      at: FACTORY_TIME + 60_000,
      name: 'reverseSsh',
      risk: 'change',
      request: { username: 'relay', password: SECRET },
      durationMs: 300,
    }),
  ],
  {
    title: 'Commissioning of Kona Macro 7',
    gateways: [{ id: 'gw-1', name: 'Kona Macro 7' }],
    endedAt: FACTORY_TIME + 1_800_000,
  },
);

describe('site report export', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'site-report-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('prints a PDF with headless Chromium whose text contains the changes made and no secret', async () => {
    const { htmlPath, pdfPath } = await exportSiteReport(visit, folder, {
      printer: new ChromiumPdfPrinter(),
      timeZone: 'UTC',
      knownSecrets: [SECRET],
    });
    expect(pdfPath).toBeDefined();
    const { stdout: raw } = await run('pdftotext', [pdfPath as string, '-']);
    // A table cell may wrap over lines: compare the text with its whitespace collapsed.
    const stdout = raw.replace(/\s+/g, ' ');
    expect(stdout).toContain('Ping target');
    expect(stdout).toContain('8.8.8.8');
    expect(stdout).toContain('1.1.1.1');
    expect(stdout).toContain('4 of 4 packets received');
    expect(stdout).not.toContain(SECRET);
    expect(await readFile(htmlPath, 'utf8')).not.toContain(SECRET);
  });

  it('prints the site and date in every page header and "Page n of N" in every footer', async () => {
    const long = makeSiteVisit(
      Array.from({ length: 120 }, (_, index) =>
        makeAuditEntry({ at: FACTORY_TIME + index * 1_000, name: `setThing${index}`, risk: 'change' }),
      ),
      { site: 'Harbour roof <b>"north"</b>', gateways: [{ id: 'gw-1', name: 'Kona Macro 7' }] },
    );
    const { pdfPath } = await exportSiteReport(long, folder, {
      printer: new ChromiumPdfPrinter(),
      timeZone: 'UTC',
    });
    const { stdout } = await run('pdftotext', ['-layout', pdfPath as string, '-']);
    const pages = stdout.split('\f').filter((page) => page.trim() !== '');
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      // The site's markup is text in the header, as typed.
      expect(page).toContain('Harbour roof <b>"north"</b>');
      expect(page).toContain('15 Jan 2026');
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
    });
  });
});
