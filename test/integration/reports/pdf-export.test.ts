import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumPdfPrinter } from '../../../electron/host/chromium-pdf-printer';
import { exportSiteReport, type SiteVisit } from '../../../electron/services/reports';

const run = promisify(execFile);
const AT = Date.UTC(2026, 0, 15, 12);
const SECRET = 'label-password-5531';

const visit: SiteVisit = {
  title: 'Commissioning of Kona Macro 7',
  technician: 'tech@example.com',
  profileId: 'demo',
  gateways: [{ id: 'gw-1', name: 'Kona Macro 7' }],
  startedAt: AT,
  endedAt: AT + 1_800_000,
  entries: [
    {
      at: AT,
      profileId: 'demo',
      user: 'tech@example.com',
      gatewayId: 'gw-1',
      kind: 'wizard',
      name: 'connectivity',
      outcome: 'ok',
      durationMs: 5_000,
      before: { pingTarget: '8.8.8.8' },
      after: { pingTarget: '1.1.1.1' },
      response: {
        outcome: 'applied',
        checks: [{ name: 'Ping 1.1.1.1', ok: true, detail: '4 of 4 packets received' }],
      },
    },
    {
      at: AT + 60_000,
      profileId: 'demo',
      user: 'tech@example.com',
      gatewayId: 'gw-1',
      kind: 'command',
      name: 'reverseSsh',
      risk: 'change',
      request: { username: 'relay', password: SECRET },
      outcome: 'ok',
      durationMs: 300,
    },
  ],
};

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
});
