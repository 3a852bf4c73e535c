import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAndOpenTerminals, startTerminalRig, type TerminalRig } from '../bench/terminal-rig';
import { expectOneTimeFormat } from '../helpers/report-times';

// A serial console the technician ties to a gateway by the name on its label (the Gateway field is free text):
// the report view's list "What the report will hold" (main lists it from the visit journal, as the report) and the
// export both list the session under that gateway, and write every time one way.

let rig: TerminalRig;
let page: Page;

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAndOpenTerminals(page, rig.url);
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe('a serial session in the site report', () => {
  it('is listed under the gateway its Gateway field names, in the preview and in the export alike', async () => {
    const { name } = rig.gateway;
    // The gateway's page was looked at: the visit's gateway, known by its name and MAC.
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), rig.gateway.id);
    await page.getByRole('heading', { name, level: 2 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();

    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Demo gateway console' });
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill(name.toUpperCase());
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: `${name.toUpperCase()} · 115200 8N1` }).waitFor();

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Fleet & report' })
      .click();
    await page.getByRole('link', { name: 'Site report' }).click();
    const preview = page.getByRole('table', { name: 'Visit entries' });
    const session = preview.getByRole('row').filter({ hasText: 'Terminal session:' });
    await session.waitFor();
    const cells = await session
      .getByRole('cell')
      .evaluateAll((items) => items.map((item) => (item.textContent ?? '').replace(/\s+/g, ' ').trim()));
    expect(cells[1]).toMatch(new RegExp(`^${name} · [0-9A-F]{2}(:[0-9A-F]{2}){7}$`));
    expect(cells[2]).toBe(`Terminal session: ${name.toUpperCase()} · 115200 8N1`);
    // The timeline is a screen: it writes times as the app does (its locale), and says the zone once.
    const at = await session.locator('time').first().getAttribute('datetime');
    expect(cells[0]).toBe(
      await page.evaluate(
        (iso) =>
          new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
            Date.parse(iso!),
          ),
        at,
      ),
    );
    expect(await page.locator('h2:text-is("What the report will hold") + p').textContent()).toMatch(
      /^Times in \S+( \(UTC[+-]\d\d:\d\d\))?$/,
    );
    expect(await page.locator('#visit-started-hint').textContent()).toMatch(/first opened today \(.+\)/);

    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByLabel('Report written');
    await written.waitFor({ timeout: 60_000 });
    const htmlPath = /Saved (\/\S+\.html)/.exec((await written.textContent()) ?? '')?.[1];
    expect(htmlPath).toBeDefined();
    const html = await readFile(htmlPath!, 'utf8');
    expect(html).not.toContain('Not tied to a gateway');
    const section = html.slice(html.indexOf(`<section class="gateway"><div class="keep"><h2>${name} · `));
    expect(section.slice(0, section.indexOf('</section>'))).toContain(
      `<li>${name.toUpperCase()} · 115200 8N1<br/><code>logs/`,
    );
    expectOneTimeFormat(html);
    expect(html.match(/<tr><th>Times<\/th>/g)).toHaveLength(1);
  }, 120_000);

  it('reports no page error', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
