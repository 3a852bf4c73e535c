import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator';
import { DEMO_PROFILE_NAME } from '../../electron/app/demo-terminals';
import { NAMESPACES } from '../../electron/shared/i18n/catalogue';
import { translatorFor, type DisplayLanguage } from '../../electron/shared/i18n';
import { LANGUAGE_NAMES } from '../../electron/shared/i18n/languages';
import { AVAILABLE_NETWORKS } from '../../simulator/gateways/modem';
import { findAxeViolations, findBrokenWords, findClippedHeaders, measurePageWidth } from '../helpers/axe';
import { healthyGateway } from '../integration/commissioning/simulator-session';
import { SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';
import {
  apiIdentifiers,
  identifiersIn,
  rawKeysIn,
  readableText,
  unaccentedLabels,
} from './support/visible-words';

// Every view and wizard step in each language of the app and in the pseudo-locale (accented, 40 % longer), at
// 1280×720 through the browser host: nothing wider than the window, no column header or word cut, axe-core
// finds nothing serious, no API identifier and no catalogue key is shown as words, and in the pseudo-locale no
// control or heading kept plain English (text that bypassed the catalogue). Each screen's findings are soft, so a
// failure lists every screen and problem at once.

const WINDOW = { width: 1280, height: 720 };
const SHOWN_LANGUAGES: readonly DisplayLanguage[] = ['en', 'fr', 'es', 'de', 'en-XA'];

let app: CommissioningApp;
let simulator: RunningSimulator;
let page: Page;
let identifiers: string[];
/** What the server holds and the screens show as it is: names, addresses, accounts. */
let data: string[];

beforeAll(async () => {
  app = await startCommissioningApp(SHORT_TIMINGS);
  simulator = app.host.simulator!;
  page = app.page;
  await page.setViewportSize(WINDOW);
  identifiers = apiIdentifiers();
  const fixture = simulator.fixture;
  data = [
    'OAM Field Kit',
    // Each language's own name stays as it is in every language; so do the networks a modem hears.
    ...Object.values(LANGUAGE_NAMES),
    ...AVAILABLE_NETWORKS.map((network) => network.name),
    'Freedom',
    'MQTT',
    // A profile's name is the user's (the demo one's too), shown as it is in the Settings' profile choices.
    DEMO_PROFILE_NAME,
    ...fixture.gateways.flatMap((gateway) => [gateway.name, gateway.gatewayMac]),
    ...fixture.customers.flatMap((customer) => [
      customer.name,
      ...customer.subCustomers.map((sub) => sub.name),
    ]),
    ...fixture.accounts.map((account) => account.username),
  ].sort((a, b) => b.length - a.length);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** Waits until the page's text stops changing (loads answered), at most a few seconds. */
async function settled(): Promise<void> {
  let previous = '';
  for (let round = 0; round < 20; round += 1) {
    const text = await page.evaluate(() => document.body.innerText);
    if (text === previous) return;
    previous = text;
    await page.waitForTimeout(250);
  }
}

async function expectScreen(screen: string, language: string): Promise<void> {
  const where = `${screen} in ${language}`;
  const { windowWidth } = await measurePageWidth(page);
  // settled() waited for the charts, which follow their box a frame after the window changed.
  expect
    .soft((await measurePageWidth(page)).scrollWidth, `${where}: wider than the window`)
    .toBeLessThanOrEqual(windowWidth);
  expect.soft(await findClippedHeaders(page), `${where}: column headers cut off`).toEqual([]);
  expect.soft(await findBrokenWords(page), `${where}: a word of a button or heading broken`).toEqual([]);
  const text = await readableText(page);
  expect.soft(identifiersIn(text, identifiers), `${where}: API identifiers shown as words`).toEqual([]);
  expect.soft(rawKeysIn(text, NAMESPACES), `${where}: catalogue keys shown instead of messages`).toEqual([]);
  if (language === 'en-XA')
    expect
      .soft(await unaccentedLabels(page, data), `${where}: English that bypassed the catalogue`)
      .toEqual([]);
  expect.soft(await findAxeViolations(page), `${where}: serious or critical axe-core violations`).toEqual([]);
}

/** Shows the app in `language` (the setting, as Settings keeps it) and waits for the shell. */
async function showIn(language: string): Promise<void> {
  await page.evaluate((chosen) => localStorage.setItem('fieldKit.language', chosen), language);
  await page.reload();
  await page.locator('nav').first().waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
}

function screens(): Array<[string, string]> {
  const gateway = healthyGateway(simulator, 0).id;
  return [
    ['the gateway list', 'gateways'],
    ['a gateway page', `gateways/${gateway}`],
    ["a gateway's command console", `gateways/${gateway}/console`],
    ['devices', 'devices'],
    ['events', 'events'],
    ['telemetry', 'telemetry'],
    ['integrations', 'integrations'],
    ['settings', 'settings'],
    ['terminals', 'terminals'],
    ['the site pack', 'site-pack'],
    ['fleet apply', 'commissioning/fleet'],
    ['the site report', 'commissioning/report'],
    ['diagnostics', `commissioning/${gateway}/diagnostics`],
    ...['connectivity', 'cellular', 'firewall', 'software', 'backups'].map((wizard): [string, string] => [
      `the ${wizard} wizard`,
      `commissioning/${gateway}/wizard/${wizard}`,
    ]),
  ];
}

/** Opens each dialog a button of `hash` opens, checks it, and closes it with Escape. */
async function expectDialogs(language: DisplayLanguage): Promise<void> {
  const translate = translatorFor(language);
  const gateway = healthyGateway(simulator, 1).id;
  const dialogs: Array<[string, string, string]> = [
    ['the reverse SSH dialog', 'terminals', translate('terminals:openReverse')],
    ['the direct SSH dialog', 'terminals', translate('terminals:openDirect')],
    ['the serial console dialog', 'terminals', translate('terminals:openSerial')],
    [
      'the restart confirmation',
      `commissioning/${gateway}/diagnostics`,
      translate('diagnostics:rebootButton'),
    ],
  ];
  for (const [screen, hash, opener] of dialogs) {
    await page.goto(`${app.baseUrl}#/commissioning`);
    await page.goto(`${app.baseUrl}#/${hash}`);
    await page.getByRole('button', { name: opener, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await settled();
    await expectScreen(screen, language);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }
  await page.goto(`${app.baseUrl}#/settings`);
  await page.getByRole('button', { name: translate('app:settingsAddProfile'), exact: true }).click();
  await settled();
  await expectScreen('the new profile form', language);
}

describe('every view in every language at 1280×720', () => {
  for (const language of SHOWN_LANGUAGES) {
    it(`fits, is accessible and speaks only words in ${language}`, async () => {
      await showIn(language);
      for (const [screen, hash] of screens()) {
        await page.goto(`${app.baseUrl}#/commissioning`);
        await page.goto(`${app.baseUrl}#/${hash}`);
        await page.locator('main :is(h1, h2):visible').first().waitFor();
        await settled();
        await expectScreen(screen, language);
      }
      await expectDialogs(language);
    }, 600_000);
  }
});
