import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host/start-host';
import { acceptanceCardsOf } from '../../electron/services/reports/acceptance-page';
import type { ScenarioFault } from '../../simulator/scenarios';
import type { GatewayEntity } from '../../simulator/tenant';
import { signIn } from './support/login-page';
import { startLocalHost, type LocalHostRig } from './support/local-host';

// "Check before leaving" in Chromium → browser host → the in-process simulator, whose scenarios make each item
// of the check fail in turn (simulator/scenarios.ts).

let rig: LocalHostRig;
let host: StartedHost;
let page: Page;

beforeAll(async () => {
  rig = await startLocalHost('acceptance', { demo: true, simulator: { offlineFraction: 0 } });
  host = rig.host;
  page = rig.browser.page;
  await signIn(page, host.url, /^Use .*PROVIDER_USER/);
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

/** Cabled gateways of the demo tenant (their preferred link is Ethernet), in index order. */
function cabledGateways(): GatewayEntity[] {
  return [...host.simulator!.world.tenant.gatewaysById.values()].filter((entity) => entity.hasEthernetLink);
}

/** Opens the gateway's page and runs the check (the observation window skipped unless `watches`). */
async function runCheck(gateway: GatewayEntity, options: { watches?: boolean } = {}): Promise<void> {
  await page.evaluate((id) => (location.hash = `#/gateways/${id}`), gateway.id);
  await page.getByRole('heading', { name: gateway.name }).first().waitFor();
  const skip = page.getByLabel('Skip the LoRa observation window (reads the radio counters once)');
  if ((await skip.isChecked()) === Boolean(options.watches)) await skip.click();
  await page.getByRole('button', { name: 'Check before leaving' }).click();
}

/** The verdict each item of the gateway's card shows, once the card is there. */
async function verdictsOf(gateway: GatewayEntity, takenAfter: number): Promise<Record<string, string>> {
  const card = page.locator(`[data-testid="acceptance-card"][data-gateway="${gateway.id}"]`);
  await expect
    .poll(async () => (await card.count()) > 0 && (await cardTime(gateway)) >= takenAfter, {
      timeout: 30_000,
    })
    .toBe(true);
  const items = await card
    .locator('[data-testid="acceptance-item"]')
    .evaluateAll((elements) =>
      elements.map((element) => [element.getAttribute('data-item'), element.getAttribute('data-verdict')]),
    );
  return Object.fromEntries(items);
}

/** When the gateway's latest card in the visit journal was taken (0: none). */
async function cardTime(gateway: GatewayEntity): Promise<number> {
  const visit = host.services.visits.current();
  if (!visit) return 0;
  const cards = acceptanceCardsOf(host.services.visits.entries(visit.id));
  return Math.max(0, ...cards.filter((card) => card.gatewayId === gateway.id).map((card) => card.takenAt));
}

const HEALTHY: Record<string, string> = {
  uplink: 'go',
  cellular: 'go',
  lora: 'go',
  position: 'go',
  software: 'go',
  backup: 'go',
  alarms: 'go',
};

describe('check before leaving', () => {
  it('says go on every item of a healthy gateway', async () => {
    const gateway = cabledGateways()[0]!;
    host.simulator!.world.fleet.setScenario(gateway.id, ['healthy']);
    const before = Date.now();
    await runCheck(gateway);
    expect(await verdictsOf(gateway, before)).toEqual(HEALTHY);
    await page.getByTestId('card-verdict').filter({ hasText: 'GO' }).first().waitFor();
  }, 60_000);

  it.each<[ScenarioFault, string, string, string, RegExp]>([
    ['weak-lte', 'cellular', 'no-go', 'Open Diagnostics', /#\/gateways\/[^/]+\/diagnostics$/],
    ['no-gps', 'position', 'warn', 'Open Diagnostics', /\/diagnostics$/],
    ['quiet-concentrator', 'lora', 'no-go', 'Open Diagnostics', /\/diagnostics$/],
    ['crc-storm', 'lora', 'no-go', 'Open Diagnostics', /\/diagnostics$/],
    ['firewall-blocks-ping', 'uplink', 'no-go', 'Open the Firewall wizard', /\/wizard\/firewall$/],
    ['stale-software', 'software', 'warn', 'Open the Software wizard', /\/wizard\/software$/],
    ['failed-upgrade', 'software', 'no-go', 'Open the Software wizard', /\/wizard\/software$/],
    ['no-backup', 'backup', 'no-go', 'Open the Backups wizard', /\/wizard\/backups$/],
  ])(
    'with %s, judges %s %s and its fix opens the wizard that fixes it',
    async (fault, item, verdict, link, route) => {
      const gateway =
        cabledGateways()[
          1 +
            [
              'weak-lte',
              'no-gps',
              'quiet-concentrator',
              'crc-storm',
              'firewall-blocks-ping',
              'stale-software',
              'failed-upgrade',
              'no-backup',
            ].indexOf(fault)
        ]!;
      host.simulator!.world.fleet.setScenario(gateway.id, ['healthy', fault]);
      const before = Date.now();
      await runCheck(gateway);
      const verdicts = await verdictsOf(gateway, before);
      expect(verdicts).toEqual({ ...HEALTHY, [item]: verdict });
      const row = page.locator(`[data-testid="acceptance-item"][data-item="${item}"]`);
      await expect.poll(() => row.locator('.fix').textContent()).toMatch(/^\s*Fix: \S/);
      await row.getByRole('link', { name: link }).click();
      await expect.poll(() => page.evaluate(() => location.hash)).toMatch(route);
    },
    60_000,
  );

  it('counts the observation window down, and a Cancel leaves the card "not finished"', async () => {
    const gateway = cabledGateways()[0]!;
    const before = Date.now();
    await runCheck(gateway, { watches: true });
    await page.getByText(/Watching the LoRa traffic: \d+ s left\./).waitFor({ timeout: 30_000 });
    await page.getByTestId('acceptance-status').getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Cancelled: the cards below say "not finished".').waitFor();
    const verdicts = await verdictsOf(gateway, before);
    expect(verdicts.lora).toBe('not-finished');
    await page.getByTestId('card-verdict').filter({ hasText: 'not finished' }).waitFor();
  }, 60_000);

  it('shows before → after on a re-run, and the report gets an acceptance page with the card', async () => {
    const gateway = cabledGateways()[10]!;
    host.simulator!.world.fleet.setScenario(gateway.id, ['healthy', 'no-backup']);
    let before = Date.now();
    await runCheck(gateway);
    expect((await verdictsOf(gateway, before)).backup).toBe('no-go');
    host.simulator!.world.fleet.setScenario(gateway.id, ['healthy']);
    before = Date.now();
    await runCheck(gateway);
    expect((await verdictsOf(gateway, before)).backup).toBe('go');
    const backupRow = page.locator(
      `[data-testid="acceptance-card"][data-gateway="${gateway.id}"] [data-item="backup"]`,
    );
    expect((await backupRow.locator('.item-head').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Backup no-go → go',
    );

    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByLabel('Report written');
    await written.waitFor({ timeout: 60_000 });
    const htmlPath = /Saved (\/\S+\.html)/.exec((await written.textContent()) ?? '')?.[1];
    const html = await readFile(htmlPath!, 'utf8');
    expect(html).toContain('Acceptance check before leaving</h2>');
    expect(html).toMatch(new RegExp(`${gateway.name} · <span class="verdict v-go[^"]*">GO</span>`));
    expect(html).toMatch(/>no-go<\/span> →(\s|&nbsp;)+<span class="verdict v-go[^"]*">go<\/span>/);
  }, 120_000);
});
