import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachSerialConsole, type AttachedSerialConsole } from '../../simulator/serial/pty-console';
import { startTerminalRig, type TerminalRig } from '../bench/terminal-rig';
import { openSerialConsole } from './support/serial-console';

// The offline acceptance card's Clock item end to end, without signing in: Chromium → browser host → a socat pty
// → the serial console of a simulated gateway whose clock the `clock-skew` scenario puts 7 min 12 s behind.

let rig: TerminalRig;
let page: Page;
let directory: string;
let console: AttachedSerialConsole;
let gateway: { id: string; name: string; rootPassword: string };

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  const simulator = rig.simulator!;
  const cabled = simulator.world.tenant.gateways.find(
    (entity) => entity.hasEthernetLink && !entity.isOfflineFromStart,
  );
  if (!cabled) throw new Error('the demo tenant has no cabled gateway online');
  gateway = { id: cabled.id, name: cabled.name, rootPassword: cabled.rootPassword };
  simulator.world.fleet.setScenario(gateway.id, ['clock-skew']);
  directory = await mkdtemp(join(tmpdir(), 'acceptance-offline-clock-'));
  console = await attachSerialConsole({
    ...simulator.serialConsoleOf(gateway.id),
    linkPath: join(directory, 'console'),
  });
  await page.setViewportSize({ width: 1280, height: 720 });
}, 120_000);

afterAll(async () => {
  await rig?.close();
  await console?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('the offline acceptance card', () => {
  it("judges the gateway's clock read by the serial triage: 7 min 12 s behind is a no-go", async () => {
    await page.goto(rig.url);
    await page.getByRole('button', { name: 'Work without signing in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();
    await openSerialConsole(page, console.linkPath, gateway.id);
    await page.getByRole('button', { name: 'Collect diagnostics' }).click();
    await page.getByLabel("Root password (from the gateway's label)").fill(gateway.rootPassword);
    await page.getByRole('button', { name: 'Log in and collect' }).click();
    const panel = page.getByRole('region', { name: `Health of ${gateway.id}` });
    await panel.waitFor({ timeout: 60_000 });
    const first = panel.getByRole('list', { name: 'Findings' }).getByRole('listitem').first();
    // The real clock ticks between the gateway's answer and the laptop's reading: 12 or 13 s.
    expect(await first.textContent()).toMatch(
      /^Fault The gateway's clock is 7 min 1[23] s behind this laptop's\.$/,
    );

    // The gateway's page, at its address (the Gateways list links there; without a server it lists the site pack).
    await page.evaluate((id) => (location.hash = `#/gateways/${encodeURIComponent(id)}`), gateway.id);
    await page.getByRole('button', { name: 'Check from the serial triage (no server)' }).click();
    const clock = page.locator('[data-testid="acceptance-item"][data-item="clock"]');
    await clock.waitFor();
    expect(await clock.getAttribute('data-verdict')).toBe('no-go');
    const words = (await clock.textContent())?.replace(/\s+/g, ' ');
    expect(words).toMatch(/The gateway's clock is 7 min 1[23] s behind this laptop's\./);
    expect(words).toContain('More than 120 s apart is a no-go.');
    expect(await clock.locator('.fix').textContent()).toMatch(/NTP or GPS/);
    // No wizard sets a gateway's time: the fix is a sentence, without a link.
    expect(await clock.locator('.fix').getByRole('link').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    // The card is kept in the visit journal: the site report's acceptance page shows it, filled from the triage.
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    const preview = page.getByRole('document', { name: 'Report preview' });
    const acceptancePage = preview.locator('section.acceptance');
    await acceptancePage.waitFor();
    const reported = (await acceptancePage.textContent())?.replace(/\s+/g, ' ');
    expect(reported).toContain('Acceptance check before leaving');
    expect(reported).toMatch(new RegExp(`(${gateway.id}|${gateway.name}) · NO-GO`, 'i'));
    expect(reported).toContain('Filled offline from the serial triage');
    expect(reported).toMatch(/The gateway's clock is 7 min 1[23] s behind this laptop's\./);
  }, 120_000);
});
