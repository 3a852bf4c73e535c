import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseFirewall } from '../../electron/services/commissioning';
import { translatorFor } from '../../electron/shared/i18n';
import type { RunningSimulator } from '../../simulator';
import { healthyGateway } from '../integration/commissioning/simulator-session';
import { HARNESS_VIEW, SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';

// The wizards and the fleet form in another language, in Chromium through the browser host and the simulator: a
// browser in German (de-DE) with the language setting "as this computer" runs the firewall wizard in German;
// switching to French in Settings halfway keeps what was typed; the fleet's firewall form sets a rule on two
// gateways and leaves every other setting as each gateway had it.

const english = translatorFor('en');
const german = translatorFor('de');
const french = translatorFor('fr');
/** A message key as it would show if a message were missing ("wizards:reviewChanges"). */
const RAW_KEY = /\b(wizards|fleet|common|app|components|enums):[a-z][A-Za-z]+/;

let app: CommissioningApp;
let simulator: RunningSimulator;

beforeAll(async () => {
  app = await startCommissioningApp({ ...SHORT_TIMINGS, locale: 'de-DE' });
  simulator = app.host.simulator!;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** The gateway's firewall as the simulator holds it. */
function firewallOf(gatewayId: string) {
  const fleet = simulator.world.fleet;
  return parseFirewall(fleet.stateOf(fleet.entityOf(gatewayId)).configuration.firewall);
}

/** Chooses the app's language in Settings (the label in the language the app shows now). */
async function chooseLanguage(page: Page, label: string, value: string): Promise<void> {
  await page.goto(`${app.baseUrl}#/settings`);
  await page.getByLabel(label, { exact: true }).selectOption(value);
}

/** Opens a gateway's wizard page straight from its address (not through the commissioning index). */
async function openWizard(page: Page, gatewayId: string): Promise<void> {
  await page.goto(`${app.baseUrl}#/${HARNESS_VIEW}/${gatewayId}/wizard/firewall`);
}

describe('the firewall wizard in German, then French', () => {
  it('speaks German with a de-DE computer, and keeps the form and the review through language changes', async () => {
    const gateway = healthyGateway(simulator, 5);
    const page = app.page;
    await chooseLanguage(page, english('app:settingsLanguageLabel'), 'system');
    await app.open([gateway.id, 'wizard', 'firewall']);

    await page.getByRole('button', { name: german('wizards:reviewChanges') }).waitFor();
    const wizard = page.locator('section.wizard');
    const words = await wizard.innerText();
    expect(words).toContain(german('wizards:phaseEditing'));
    expect(words).toContain(german('wizards:currentSettings'));
    expect(words).not.toContain(english('wizards:reviewChanges'));
    expect(words).not.toMatch(RAW_KEY);
    await page.getByLabel(german('wizards:dosBurst')).fill('66');

    // Halfway: French in Settings, then back to the same wizard.
    await chooseLanguage(page, german('app:settingsLanguageLabel'), 'fr');
    await openWizard(page, gateway.id);
    const burst = page.getByLabel(french('wizards:dosBurst'));
    await burst.waitFor();
    expect(await burst.inputValue()).toBe('66');
    await page.getByRole('button', { name: french('wizards:reviewChanges') }).click();
    const changes = page.getByRole('table', { name: french('wizards:changesLabel') });
    await expect.poll(() => changes.textContent()).toContain(french('wizards:dosBurst'));
    expect(await changes.textContent()).toContain('66');

    // Halfway through the review: German again; the review is the same edit, written in German.
    await chooseLanguage(page, french('app:settingsLanguageLabel'), 'de');
    await openWizard(page, gateway.id);
    const reviewed = page.getByRole('table', { name: german('wizards:changesLabel') });
    await expect.poll(() => reviewed.textContent()).toContain(german('wizards:dosBurst'));
    expect(await reviewed.textContent()).toContain('66');

    await page.getByRole('button', { name: german('wizards:apply'), exact: true }).click();
    await page.getByText(german('wizards:outcomeApplied'), { exact: true }).waitFor();
    const result = await page.locator('.result-message').innerText();
    expect(result.startsWith(`${german('wizards:outcomeApplied')}:`)).toBe(true);
    expect(await wizard.innerText()).not.toMatch(RAW_KEY);
    expect(firewallOf(gateway.id).doSPrevention.burstLimit).toBe(66);

    await chooseLanguage(page, german('app:settingsLanguageLabel'), 'en');
  });
});

describe('the fleet firewall form', () => {
  it('sets a ping limit on two gateways and keeps every other setting each gateway had', async () => {
    const chosen = [healthyGateway(simulator, 6), healthyGateway(simulator, 7)];
    const before = chosen.map((gateway) => firewallOf(gateway.id));
    const page = await app.open(['fleet']);
    for (const gateway of chosen)
      await page
        .getByRole('checkbox', {
          name: new RegExp(`^${gateway.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · `),
        })
        .check();
    await page.getByLabel('What to change').selectOption('firewall');

    // A wrong number is refused at the field: nothing is asked, nothing sent.
    await page.getByLabel('Pings per minute').fill('many');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    await page.getByText('One field needs correcting: see above.').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page.getByLabel('Ping rate limit').selectOption('on');
    await page.getByLabel('Pings per minute').fill('42');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    const ask = page.getByRole('dialog', {
      name: 'Apply firewall settings (ping rate limit on, pings per minute 42) to 2 gateways?',
    });
    await ask.getByRole('button', { name: 'Apply to 2 gateways' }).click();
    const counts = page.getByLabel('Fleet counts');
    await expect.poll(() => counts.textContent(), { timeout: 30_000 }).toContain('2 of 2 finished: 2 done');

    chosen.forEach((gateway, index) => {
      const now = firewallOf(gateway.id);
      const previous = before[index]!;
      expect(now.ping.limit).toEqual({ ...previous.ping.limit, enabled: true, pingPerMinLimit: 42 });
      expect({ ...now, ping: previous.ping }).toEqual(previous);
    });
  });
});
