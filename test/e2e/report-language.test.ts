import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHost, type LocalHostRig } from './support/local-host';

// The report's language is chosen per export: the app stays in English while the report is written in German,
// in the preview and in the exported PDF.

const run = promisify(execFile);
let rig: LocalHostRig;

beforeAll(async () => {
  rig = await startLocalHost('report-language');
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe('a report exported in German from an app in English', () => {
  it('previews and prints the report in German while every screen stays English', async () => {
    const { page } = rig.browser;
    await page.goto(rig.host.url);
    await page.getByRole('button', { name: 'Work without signing in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    await page.getByLabel('Site', { exact: true }).fill('Hafen Nord');
    await page.getByLabel('Customer representative').fill('Sam Owner');

    // Until chosen, the report is written in the app's language.
    const preview = page.getByRole('document', { name: 'Report preview' });
    await preview.getByRole('heading', { name: 'Acknowledgement' }).waitFor();
    await page.getByLabel('Report language').selectOption({ label: 'Deutsch' });
    await preview.getByRole('heading', { name: 'Bestätigung des Kunden' }).waitFor();
    await preview.getByRole('heading', { name: 'Besuchte Gateways' }).waitFor();
    expect(await preview.getByText('Acknowledgement', { exact: true }).count()).toBe(0);
    // The screen around it is still English.
    await page.getByRole('heading', { name: 'The report as it will print' }).waitFor();
    await page.getByText("This export is written in Deutsch, whatever the app's language.").waitFor();

    // The choice outlives a visit to another view.
    await page.evaluate(() => (location.hash = '#/settings'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor({ state: 'detached' });
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    expect(await page.getByLabel('Report language').inputValue()).toBe('de');
    await preview.getByRole('heading', { name: 'Besuchte Gateways' }).waitFor();

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    await download;
    const written = page.getByRole('status', { name: 'Report written' });
    await written.waitFor({ timeout: 60_000 });
    expect(await written.textContent()).toMatch(/^\s*Saved \/\S+\.html and \/\S+\.pdf; downloaded as /);
    const pdfPath = /and (\/\S+\.pdf);/.exec((await written.textContent()) ?? '')?.[1];

    const { stdout } = await run('pdftotext', [pdfPath!, '-']);
    const text = stdout.replace(/\s+/g, ' ');
    for (const words of [
      'Einsatzbericht',
      'Standort Hafen Nord',
      'An keinem Gateway wurde gearbeitet.',
      'Bestätigung des Kunden',
      'Name: Sam Owner',
      'Unterschrift:',
      'Seite 1 von',
    ])
      expect(text).toContain(words);
    expect(text).not.toContain('Acknowledgement');
    expect(text).not.toContain('Site visit report');
    expect(text).not.toMatch(/Page \d+ of/);
  }, 120_000);
});
