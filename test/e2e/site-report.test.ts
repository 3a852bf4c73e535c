import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { deflateSync, crc32 } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAxeViolations, measurePageWidth } from '../helpers/axe';
import { healthyGateway } from '../integration/commissioning/simulator-session';
import type { RunningSimulator } from '../../simulator';
import { SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';
import { expectOneTimeFormat } from '../helpers/report-times';

// The site report as a customer gets it: a short visit on the simulator (a WAN change that is verified on one
// gateway, an APN change that fails verification and is rolled back on another, a photo from disk), exported as
// PDF through the report view, then read the way a customer reads it: with pdftotext and pdfinfo (poppler).

const run = promisify(execFile);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
let app: CommissioningApp;
let simulator: RunningSimulator;
const visitStartedAt = Date.now();

/** A real PNG of one colour, `width` × `height`: a photo larger than the 1600 px the report keeps. */
function solidPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([40, 110, 170], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  app = await startCommissioningApp(SHORT_TIMINGS);
  simulator = app.host.simulator!;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('site report of a short visit', () => {
  it('fits on 4 A4 pages, names each gateway with each change and how it ended, and holds the photo', async () => {
    const wan = healthyGateway(simulator, 0);
    const cellular = healthyGateway(simulator, 2);

    let page = await app.open([wan.id, 'wizard', 'connectivity']);
    const target = page.getByLabel('Ping target');
    await target.waitFor();
    await target.fill((await target.inputValue()) === '1.1.1.1' ? '9.9.9.9' : '1.1.1.1');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Applied and verified', { exact: true }).waitFor({ timeout: 30_000 });

    page = await app.open([cellular.id, 'wizard', 'cellular']);
    await page.getByLabel('APN 1').fill('internet.wrong.example');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Verification failed: previous settings restored').waitFor({ timeout: 30_000 });
    // The result names the APN that got no data call, the one restored, and whether the call came back on it.
    expect(await page.getByRole('status').filter({ hasText: 'rolled back' }).textContent()).toMatch(
      /^The new APN "internet\.wrong\.example" got no data call within [\d.]+ s; rolled back to "[^"]+" — (data call connected again|but the data call has not connected again)/,
    );

    page = await app.open(['report']);
    const started = new Date(visitStartedAt - 60_000);
    const pad = (value: number) => String(value).padStart(2, '0');
    await page
      .getByLabel('Visit started')
      .fill(
        `${started.getFullYear()}-${pad(started.getMonth() + 1)}-${pad(started.getDate())} ${pad(started.getHours())}:${pad(started.getMinutes())}`,
      );
    await page.getByLabel('Site', { exact: true }).fill('Harbour warehouse roof');
    await page.getByLabel('Customer', { exact: true }).fill('Acme Ports Ltd');
    await page.getByLabel('Technician name').fill('Dana Field');
    await page.getByLabel('Customer representative').fill('Sam Owner');
    await page.getByLabel('Notes').fill('Antenna cable checked; APN to be confirmed by the operator.');

    await page.getByLabel('Photo file').setInputFiles({
      name: 'mast.png',
      mimeType: 'image/png',
      buffer: solidPng(2400, 1200),
    });
    await page.getByLabel('Caption').fill('Mast and antenna after the visit');
    await page.getByRole('button', { name: 'Attach photo' }).click();
    const photos = page.getByRole('list', { name: 'Attached photos' });
    await photos.getByRole('img', { name: 'Mast and antenna after the visit' }).waitFor();
    const width = await photos.getByRole('img').evaluate((image) => (image as HTMLImageElement).naturalWidth);
    expect(width).toBe(1600);

    // The preview says what the report will hold in its words, in time order, repeated reads folded.
    const preview = page.getByRole('table', { name: 'Visit entries' });
    await preview.getByRole('row').nth(1).waitFor();
    const rows = await preview
      .locator('tbody tr')
      .evaluateAll((items) =>
        items.map((item) =>
          Array.from(item.querySelectorAll('td'), (cell) =>
            (cell.textContent ?? '').replace(/\s+/g, ' ').trim(),
          ),
        ),
      );
    const whats = rows.map((row) => row[2]!);
    expect(whats).toContain('Settings read: Cellular modem and APN');
    expect(whats).toContain('Cellular modem and APN');
    expect(whats.find((what) => what.startsWith('Read the data call status'))).toBeDefined();
    expect(whats.join('\n')).not.toMatch(/^(cellular|connectivity):|:(read|applying|verifying)$/m);
    expect(rows.some((row) => /read \d+ times, until/.test(row[0]!))).toBe(true);
    expect(
      rows.filter(
        (row) => row[1]!.startsWith(cellular.name) && row[2]!.startsWith('Read the data call status'),
      ),
    ).toHaveLength(1);
    const times = await preview
      .locator('tbody tr > td:first-child > time')
      .evaluateAll((items) => items.map((item) => Date.parse(item.getAttribute('datetime') ?? '')));
    expect(times).toHaveLength(rows.length);
    expect(times).toEqual([...times].sort((left, right) => left - right));

    await page.setViewportSize({ width: 1280, height: 720 });
    const { scrollWidth, windowWidth } = await measurePageWidth(page);
    expect(scrollWidth, 'the report view is wider than the window').toBeLessThanOrEqual(windowWidth);
    expect(await findAxeViolations(page)).toEqual([]);

    await page.getByLabel('Photo file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a photo'),
    });
    await page.getByRole('button', { name: 'Attach photo' }).click();
    await page.getByText('“notes.txt” is not a JPEG or PNG photo.').waitFor();

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    await download;
    const written = page.getByLabel('Report written');
    await written.waitFor();
    const pdfPath = /and (\/\S+\.pdf);/.exec((await written.textContent()) ?? '')?.[1];
    expect(pdfPath).toBeDefined();

    const { stdout: info } = await run('pdfinfo', [pdfPath!]);
    const pages = Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
    expect(pages).toBeGreaterThan(0);
    expect(pages).toBeLessThanOrEqual(4);
    const [pageWidth, pageHeight] = (/^Page size:\s+([\d.]+) x ([\d.]+) pts \(A4\)$/m.exec(info) ?? [])
      .slice(1)
      .map(Number);
    expect(pageWidth).toBeLessThan(pageHeight!);

    const { stdout: text } = await run('pdftotext', ['-layout', pdfPath!, '-']);
    const lines = text.split('\n');
    const lineWith = (...words: string[]) => lines.find((line) => words.every((word) => line.includes(word)));
    // Page one and each gateway's section: the gateway's name, the change and how it ended on one line.
    expect(lineWith(cellular.name, 'Cellular modem and APN', 'rolled back')).toBeDefined();
    expect(lineWith(wan.name, 'WAN connectivity', 'changed and verified')).toBeDefined();
    expect(lines.filter((line) => line.includes(cellular.name) && line.includes('rolled back'))).toHaveLength(
      2,
    );
    // Each setting's row keeps its outcome: the APN row of the rolled-back change says so.
    expect(lineWith('APN 1', '→ internet.wrong.example', 'rolled back')).toBeDefined();
    // Requests read as labelled fields, not JSON.
    expect(lineWith('Name:', 'internet.wrong.example')).toBeDefined();
    expect(text).not.toContain('{"');
    for (const words of [
      ['Customer', 'Acme Ports Ltd'],
      ['Site', 'Harbour warehouse roof'],
      ['Arrival'],
      ['Departure'],
      ['Name: Dana Field', 'Name: Sam Owner'],
      ['Mast and antenna after the visit'],
      ['Antenna cable checked'],
    ])
      expect(lineWith(...words), words.join(' ')).toBeDefined();
    // A gateway id appears only beside the name it belongs to (the "Gateway id" line under its heading).
    for (const [index, line] of lines.entries())
      if (UUID.test(line)) {
        expect(line.trim(), line).toMatch(/^Gateway id [0-9a-f-]{36}$/i);
        expect(lines.slice(Math.max(0, index - 2), index).join(' ')).toMatch(
          new RegExp(
            [wan.name, cellular.name].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
          ),
        );
      }
    expect(text).not.toContain('name not known');
    // The wizards polled the modem every 250 ms: the reads are folded, never one line each.
    expect(text).toMatch(/read \d+ times, (at \d\d:\d\d|\d\d:\d\d–\d\d:\d\d)/);
    // Every time of the report is written one way ("25 Nov 2026 15:48", "15:48"), the zone said once. Read in
    // the HTML written beside the PDF: there values (a backup's name holds an ISO time) are marked as code.
    const htmlPath = /Saved (\/\S+\.html)/.exec((await written.textContent()) ?? '')?.[1];
    expect(expectOneTimeFormat(await readFile(htmlPath!, 'utf8')).length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((line) => /^\s*Times\s/.test(line))).toHaveLength(1);
  }, 180_000);
});
