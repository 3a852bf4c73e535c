import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumPdfPrinter } from '../../../electron/host/chromium-pdf-printer';
import { exportSiteReport } from '../../../electron/services/reports';
import englishDocument from '../../../electron/shared/i18n/messages/en/document.json';
import { FACTORY_TIME, makeAuditEntry, makeSiteVisit } from '../../helpers/factories';

const run = promisify(execFile);

/** One visit with most of what a report prints: a verified change, a restart followed, folded reads, a fleet change. */
const visit = makeSiteVisit(
  [
    makeAuditEntry({
      kind: 'wizard',
      name: 'connectivity',
      durationMs: 5_000,
      before: { pingTarget: '8.8.8.8', enabled: false },
      after: { pingTarget: '1.1.1.1', enabled: true },
      response: { outcome: 'applied', checks: [{ name: 'Ping 1.1.1.1', ok: true, detail: '4/4' }] },
    }),
    makeAuditEntry({
      at: FACTORY_TIME + 60_000,
      kind: 'wizard',
      name: 'reboot',
      risk: undefined,
      runId: 'run-1',
      durationMs: 90_000,
    }),
    ...Array.from({ length: 3 }, (_, index) =>
      makeAuditEntry({
        at: FACTORY_TIME + 70_000 + index * 10_000,
        name: 'getGatewayInfo',
        risk: 'read',
        runId: 'run-1',
        automatic: true,
        outcome: index === 0 ? 'failed' : 'ok',
      }),
    ),
    ...Array.from({ length: 4 }, (_, index) =>
      makeAuditEntry({
        at: FACTORY_TIME + 300_000 + index * 30_000,
        name: 'getWmCallStatistics',
        risk: 'read',
      }),
    ),
    makeAuditEntry({
      at: FACTORY_TIME + 600_000,
      kind: 'fleet',
      name: 'pingTarget',
      request: { ipAddr: '9.9.9.9' },
      before: '8.8.8.8',
      after: '9.9.9.9',
    }),
  ],
  {
    title: undefined,
    site: 'Port Nord',
    customer: 'Acme',
    gateways: [{ id: 'gw-1', name: 'Kona Macro 7', mac: '647FDAFFFE001CAD' }],
    endedAt: FACTORY_TIME + 1_800_000,
    notes: 'OK',
    photos: [{ id: 'p', caption: '', mimeType: 'image/png', base64: 'iVBORw0KGgo=', addedAt: FACTORY_TIME }],
    pings: [
      {
        at: FACTORY_TIME + 120_000,
        gatewayId: 'gw-1',
        destination: '1.1.1.1',
        packetsSent: 4,
        packetsReceived: 4,
      },
    ],
    journal: { entries: 7, head: 'a'.repeat(64) },
  },
);

/**
 * The runs of words (more than three) of the English `document` messages, cut at their placeholders: a French or
 * German report that holds one of them left the report's own vocabulary in English.
 */
const ENGLISH_PHRASES = [
  ...new Set(
    Object.values(englishDocument)
      .flatMap((message) => message.split(/\{\{\w+\}\}/))
      .map((fragment) => fragment.replace(/\s+/g, ' ').trim())
      .filter((fragment) => fragment.split(' ').filter((word) => /\p{L}/u.test(word)).length > 3),
  ),
];

async function pdfText(language: 'fr' | 'de' | 'es', folder: string): Promise<string> {
  const { pdfPath } = await exportSiteReport(visit, folder, {
    printer: new ChromiumPdfPrinter(),
    timeZone: 'Europe/Paris',
    language,
    generatedAt: FACTORY_TIME + 1_800_000,
  });
  const { stdout } = await run('pdftotext', [pdfPath!, '-']);
  // A table cell may wrap over lines: compare the text with its whitespace collapsed.
  return stdout.replace(/\s+/g, ' ');
}

describe('a site report exported in a language of its own', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'report-language-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('checks the check: the English export holds the phrases looked for', async () => {
    const { pdfPath } = await exportSiteReport(visit, folder, {
      printer: new ChromiumPdfPrinter(),
      timeZone: 'Europe/Paris',
    });
    const english = (await run('pdftotext', [pdfPath!, '-'])).stdout.replace(/\s+/g, ' ');
    const found = ENGLISH_PHRASES.filter((phrase) => english.includes(phrase));
    expect(found).toEqual(
      expect.arrayContaining([
        "The work above was carried out on site and its outcome explained to the customer's representative.",
        '. Passwords and keys are never shown.',
        'the gateway answered again at',
      ]),
    );
    expect(found.length).toBeGreaterThan(5);
  });

  it('prints the same visit in French: French headings and times, no English of its own', async () => {
    const text = await pdfText('fr', folder);
    for (const heading of [
      "Rapport d'intervention sur site",
      'Passerelles visitées',
      'Modifications',
      'Mesures',
      'Commandes exécutées',
      'Validation du client',
      'Suivi du redémarrage',
      'Page 1 sur',
    ])
      expect(text).toContain(heading);
    expect(text).toContain('15 janv. 2026');
    expect(text).toMatch(/lu 4 fois, 13:05–13:06/);
    // Proper names and what the technician typed stay as given.
    expect(text).toContain('Kona Macro 7');
    expect(text).toContain('Port Nord');
    expect(ENGLISH_PHRASES.filter((phrase) => text.includes(phrase))).toEqual([]);
  });

  it('prints the same visit in German, whatever language the app is in', async () => {
    const text = await pdfText('de', folder);
    for (const heading of [
      'Einsatzbericht',
      'Besuchte Gateways',
      'Änderungen',
      'Ausgeführte Befehle',
      'Bestätigung des Kunden',
      'geändert und überprüft',
      'Seite 1 von',
    ])
      expect(text).toContain(heading);
    expect(text).toContain('15.01.2026');
    expect(ENGLISH_PHRASES.filter((phrase) => text.includes(phrase))).toEqual([]);
  });

  it('prints the same visit in Spanish, with no English of its own', async () => {
    const text = await pdfText('es', folder);
    for (const heading of [
      'Informe de visita',
      'Cambios',
      'Comandos ejecutados',
      'Conformidad del cliente',
      'Página 1 de',
    ])
      expect(text).toContain(heading);
    expect(ENGLISH_PHRASES.filter((phrase) => text.includes(phrase))).toEqual([]);
  });
});
