import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host/start-host';
import { readThresholdOverride } from '../../electron/services/acceptance';
import { acceptanceCardsOf } from '../../electron/services/reports/acceptance-page';
import type { GatewayEntity } from '../../simulator/tenant';
import { signIn } from './support/login-page';
import { startLocalHost, type LocalHostRig } from './support/local-host';

// Settings → "Acceptance check" changes the demo profile's thresholds, and "Check before leaving" (Chromium →
// browser host → the in-process simulator, its gateway on the `healthy` scenario: RSRQ about −9 dB, traffic on the
// LoRa radio) judges by them.

let rig: LocalHostRig;
let host: StartedHost;
let page: Page;
let dataDir: string;
let gateway: GatewayEntity;

beforeAll(async () => {
  rig = await startLocalHost('thresholds', { demo: true, simulator: { offlineFraction: 0 } });
  ({ host, dataDir } = rig);
  page = rig.browser.page;
  await signIn(page, host.url, /^Use .*PROVIDER_USER/);
  gateway = [...host.simulator!.world.tenant.gatewaysById.values()].find((entity) => entity.hasEthernetLink)!;
  host.simulator!.world.fleet.setScenario(gateway.id, ['healthy']);
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

/** The gateway's cards in the visit journal, oldest first. */
function journalCards() {
  const visit = host.services.visits.current();
  if (!visit) return [];
  return acceptanceCardsOf(host.services.visits.entries(visit.id)).filter(
    (card) => card.gatewayId === gateway.id,
  );
}

const profileId = () => host.services.profiles.list().selectedId!;
const panel = () => page.getByTestId('acceptance-thresholds');
const threshold = (field: string) => panel().locator(`fieldset[data-field="${field}"]`);

async function openSettings(): Promise<void> {
  await page.evaluate(() => (location.hash = '#/settings'));
  await threshold('rsrqDb').getByLabel('Go from').waitFor();
}

/** Runs the check on the gateway's page and answers its card's verdicts and meta line, once the new card is there. */
async function runCheck(options: {
  skipsWindow: boolean;
}): Promise<{ verdicts: Record<string, string>; meta: string }> {
  await page.evaluate((id) => (location.hash = `#/gateways/${id}`), gateway.id);
  await page.getByRole('heading', { name: gateway.name }).first().waitFor();
  const cards = page.locator(`[data-testid="acceptance-card"][data-gateway="${gateway.id}"]`);
  await expect.poll(() => page.getByRole('button', { name: 'Check before leaving' }).isEnabled()).toBe(true);
  const before = journalCards().length;
  const skip = page.getByLabel('Skip the LoRa observation window (reads the radio counters once)');
  if ((await skip.isChecked()) !== options.skipsWindow) await skip.click();
  await page.getByRole('button', { name: 'Check before leaving' }).click();
  await expect.poll(() => journalCards().length, { timeout: 60_000 }).toBe(before + 1);
  const latest = journalCards().at(-1)!;
  const card = cards.and(page.locator(`[data-taken-at="${latest.takenAt}"]`));
  await card.waitFor();
  const items = await card
    .locator('[data-testid="acceptance-item"]')
    .evaluateAll((elements) =>
      elements.map((element) => [element.getAttribute('data-item'), element.getAttribute('data-verdict')]),
    );
  return { verdicts: Object.fromEntries(items), meta: (await card.locator('.meta').textContent()) ?? '' };
}

describe('acceptance thresholds in Settings', () => {
  it('judges the cellular item by an RSRQ band changed in Settings, and by the default again after a reset', async () => {
    const first = await runCheck({ skipsWindow: true });
    expect(first.verdicts.cellular).toBe('go');
    expect(first.meta).not.toContain('Thresholds of the profile');

    await openSettings();
    const rsrq = threshold('rsrqDb');
    await expect.poll(() => rsrq.getByLabel('Go from').inputValue()).toBe('-15');
    // Go below warn is refused next to the box; nothing is written and what was typed stays.
    await rsrq.getByLabel('Go from').fill('-30');
    await rsrq.getByLabel('Warn from').fill('-5');
    await panel().getByRole('button', { name: 'Save thresholds' }).click();
    await panel().getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
    await rsrq.getByText('The go value must be at or above the warn value.').waitFor();
    expect(await readThresholdOverride(dataDir, profileId())).toBeUndefined();
    expect(await rsrq.getByLabel('Warn from').inputValue()).toBe('-5');

    // RSRQ about −9 dB is below a warn value of −5: a no-go.
    await rsrq.getByLabel('Go from').fill('-3');
    await panel().getByRole('button', { name: 'Save thresholds' }).click();
    await panel().getByRole('status').filter({ hasText: 'Saved: the next check' }).waitFor();
    expect(await readThresholdOverride(dataDir, profileId())).toEqual({ rsrqDb: { go: -3, warn: -5 } });
    await rsrq.getByText('Changed for this profile').waitFor();

    const second = await runCheck({ skipsWindow: true });
    expect(second.verdicts.cellular).toBe('no-go');
    const profileName = host.services.profiles.get(profileId()).name;
    expect(second.meta).toContain(`Thresholds of the profile ${profileName}`);

    await openSettings();
    await rsrq.getByRole('button', { name: 'Back to default: LTE signal quality (RSRQ)' }).click();
    await panel().getByRole('status').filter({ hasText: 'is back to its default' }).waitFor();
    expect(await rsrq.getByLabel('Go from').inputValue()).toBe('-15');
    expect(await readThresholdOverride(dataDir, profileId())).toBeUndefined();

    const third = await runCheck({ skipsWindow: true });
    expect(third.verdicts.cellular).toBe('go');
  }, 180_000);

  it('watches the LoRa traffic for the observation window saved in Settings', async () => {
    await openSettings();
    await threshold('observationSeconds').getByLabel('This profile').fill('3');
    await panel().getByRole('button', { name: 'Save thresholds' }).click();
    await panel().getByRole('status').filter({ hasText: 'Saved: the next check' }).waitFor();

    const checked = await runCheck({ skipsWindow: false });
    expect(checked.meta).toContain('LoRa traffic watched for 3 s');
    // Judged over those 3 s (how it judges a short window is the check's own business, tested with the check).
    expect(checked.verdicts.lora).not.toBe('not-finished');
  }, 120_000);
});
