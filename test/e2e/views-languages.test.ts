import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translatorFor, type DisplayLanguage } from '../../electron/shared/i18n';
import { startSimulator, type RunningSimulator } from '../../simulator';
import { CHROMIUM_ARGS, CHROMIUM_PATH, DEFAULT_STEP_TIMEOUT_MS } from '../helpers/browser';
import { startDemoHost, type DemoHost } from './support/journey';
import { signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// The events, diagnostics, telemetry, devices, integrations and ADR settings views in French and Spanish, in
// Chromium at 1280 × 720 with the computer's language set by the browser context: headings in the language,
// an alarm raised in the simulator named in words (never GATEWAY_LOW_BATTERY_ALARM), no catalogue key and no
// API enum value on screen, and nothing wider than the window. The sign-in runs once, in English (the login
// screen's words are not this file's subject); the host keeps the session for the contexts in other languages.

const WINDOW = { width: 1280, height: 720 };

interface Expected {
  locale: string;
  language: DisplayLanguage;
  headings: {
    events: string;
    diagnostics: string;
    telemetry: string;
    devices: string;
    integrations: string;
    network: string;
  };
}

const LANGUAGES: Expected[] = [
  {
    locale: 'fr-FR',
    language: 'fr',
    headings: {
      events: 'Événements',
      diagnostics: 'Diagnostic',
      telemetry: 'Télémétrie',
      devices: 'Équipements',
      integrations: 'Intégrations et paramètres réseau',
      network: 'Paramètres réseau ADR',
    },
  },
  {
    locale: 'es-ES',
    language: 'es',
    headings: {
      events: 'Eventos',
      diagnostics: 'Diagnóstico',
      telemetry: 'Telemetría',
      devices: 'Dispositivos',
      integrations: 'Integraciones y ajustes de red',
      network: 'Ajustes de red ADR',
    },
  },
];

/** Text that is a catalogue key (`events:title`) rather than a message. */
const RAW_KEY = /\b(?:diagnostics|events|telemetry|devices|integrations|network|enums|common):[a-z]\w*/;
/** An API enum value written as the server spells it: GATEWAY_LOW_BATTERY_ALARM, MQTT_V2, AT_LEAST_ONCE. */
const ENUM_VALUE = /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/;

let simulator: RunningSimulator;
let demoHost: DemoHost;
let browser: Browser;
let gatewayId: string;
let customerId: string;
let applicationId: string;

beforeAll(async () => {
  simulator = await startSimulator({});
  demoHost = await startDemoHost(simulator, { credentials: ownKeychain() });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE');
  if (!gateway) throw new Error('the demo tenant has no online gateway');
  gatewayId = gateway.id;
  customerId = simulator.fixture.customers[0]?.id ?? '';
  applicationId = [...simulator.world.tenant.applications.values()][0]?.id ?? '';
  // A battery alarm raised a minute ago on that gateway: the events view lists it first.
  const entity = simulator.world.tenant.gatewaysById.get(gatewayId);
  simulator.world.tenant.events.push({
    id: '7d5e0c1a-0000-4000-8000-00000000a1a1',
    startTs: Date.now() - 60_000,
    endTs: null,
    source: 'GATEWAY',
    entityId: gatewayId,
    entityName: entity?.gatewayMac ?? gatewayId,
    eventName: 'GATEWAY_LOW_BATTERY_ALARM',
    eventType: 'Alarms',
    severity: 'Critical',
    state: 'Raised',
    ituType: 'equipmentAlarm',
    details: 'battery at 9 %',
    customerId: entity?.customerId ?? customerId,
  });
  await signInOnce();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await simulator?.close();
});

/**
 * Signs in once, in an English browser context: the session is kept by the host (main), so a context opened
 * afterwards in another language starts signed in, in the language its locale names.
 */
async function signInOnce(): Promise<void> {
  const context = await browser.newContext({ viewport: WINDOW, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const account = simulator.fixture.accounts[0]!;
    await signIn(page, demoHost.host.url, `Use ${account.username} (${account.role})`, { remember: false });
  } finally {
    await context.close();
  }
}

/** A browser context whose computer speaks `locale`, on the signed-in app. */
async function openInLanguage(
  locale: string,
): Promise<{ context: BrowserContext; page: Page; base: string }> {
  const context = await browser.newContext({ viewport: WINDOW, locale });
  context.setDefaultTimeout(DEFAULT_STEP_TIMEOUT_MS);
  const page = await context.newPage();
  await page.goto(demoHost.host.url);
  await page.locator('main#content').waitFor();
  return { context, page, base: page.url().split('#')[0]! };
}

/** What the check of every view looks at: the text of the view's own part of the page. */
async function viewText(page: Page): Promise<string> {
  return page.locator('main').innerText();
}

async function expectWithinWindow(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(WINDOW.width);
}

describe.each(LANGUAGES)('the views in $locale', ({ locale, language, headings }) => {
  let context: BrowserContext;
  let page: Page;
  let base: string;
  const written = translatorFor(language);

  beforeAll(async () => {
    ({ context, page, base } = await openInLanguage(locale));
    await page.waitForFunction((wanted) => document.documentElement.lang === wanted, language);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
  });

  async function open(hash: string): Promise<void> {
    await page.goto(`${base}${hash}`);
  }

  it('names the raised alarm, its severity, category and source in words', async () => {
    await open('#/events/raised');
    await page.getByRole('heading', { name: headings.events, level: 1 }).waitFor();
    const table = page.locator('table');
    const alarm = written('enums:eventGatewayLowBatteryAlarm');
    expect(alarm).not.toBe('Battery low');
    await table.getByRole('cell', { name: alarm }).first().waitFor();
    const rows = await table.innerText();
    expect(rows).not.toMatch(/_ALARM/);
    expect(rows).not.toMatch(ENUM_VALUE);
    expect(rows).not.toMatch(/\b(?:GATEWAY|DEVICE|INTEGRATION|Raised|Clear|Alarms)\b/);
    expect(rows).toContain(written('enums:severityCritical'));
    // The filter lists words; the API value stays each option's value.
    await open('#/events/all');
    const eventName = page
      .locator('select')
      .filter({ has: page.locator('option[value="GATEWAY_SHUTDOWN_ALARM"]') });
    const labels = await eventName.locator('option').allInnerTexts();
    expect(labels).toContain(alarm);
    expect(labels.join('\n')).not.toMatch(ENUM_VALUE);
    const text = await viewText(page);
    expect(text).not.toMatch(RAW_KEY);
    expect(text).not.toMatch(ENUM_VALUE);
    await expectWithinWindow(page);
  });

  it('shows the diagnostics of a gateway in the language', async () => {
    await open(`#/gateways/${gatewayId}/diagnostics`);
    await page.getByRole('heading', { name: headings.diagnostics, level: 2 }).waitFor();
    await page.getByRole('heading', { name: written('diagnostics:pingTitle'), level: 3 }).waitFor();
    await page.getByRole('button', { name: written('diagnostics:rebootButton') }).waitFor();
    const panel = await page.locator('section[aria-labelledby="diagnostics-title"]').innerText();
    expect(panel).not.toMatch(RAW_KEY);
    expect(panel).not.toMatch(ENUM_VALUE);
    await expectWithinWindow(page);
  });

  it('names the telemetry series in words and keeps the units', async () => {
    await open(`#/telemetry/gateway/${gatewayId}/system/cpuUsage/24h/-/1000`);
    await page.getByRole('heading', { name: headings.telemetry, level: 1 }).waitFor();
    const series = written('telemetry:seriesSystemCpuUsage');
    await page.getByRole('img', { name: `${series} de ${gatewayId}` }).waitFor();
    const text = await viewText(page);
    expect(text).not.toMatch(RAW_KEY);
    expect(text).not.toMatch(ENUM_VALUE);
    expect(text).toContain(written('telemetry:seriesHint', { series }));
    await expectWithinWindow(page);
  });

  it('lists the devices with counts in the language', async () => {
    await open(`#/devices/customer/${customerId}/all`);
    await page.getByRole('heading', { name: headings.devices, level: 1 }).waitFor();
    const counts = page.getByLabel(written('devices:countsLabel'));
    await counts.waitFor();
    expect(await counts.innerText()).toMatch(language === 'fr' ? /équipements? ·/ : /dispositivos? ·/);
    await page
      .getByRole('cell', { name: written('enums:deviceStateActive'), exact: true })
      .first()
      .waitFor();
    await page
      .getByRole('cell', { name: written('enums:deviceStateInactive'), exact: true })
      .first()
      .waitFor();
    const text = await viewText(page);
    expect(text).not.toMatch(/\b(IN)?ACTIVE\b/);
    expect(text).not.toMatch(RAW_KEY);
    expect(text).not.toMatch(ENUM_VALUE);
    await expectWithinWindow(page);
  });

  it('shows the integration form without API words', async () => {
    await open('#/integrations');
    await page.getByRole('heading', { name: headings.integrations, level: 1 }).waitFor();
    await page.getByRole('heading', { name: written('integrations:areaNew'), level: 2 }).waitFor();
    const type = page.getByRole('combobox', { name: written('integrations:type'), exact: true });
    expect(await type.inputValue()).toBe('MQTT_V2');
    const text = await viewText(page);
    expect(text).not.toMatch(RAW_KEY);
    expect(text).not.toMatch(ENUM_VALUE);
    await expectWithinWindow(page);
  });

  it('names every ADR setting in words, the server name only as a hint', async () => {
    await open('#/integrations/network-settings');
    await page.getByRole('heading', { name: headings.network, level: 2 }).waitFor();
    await page.getByRole('combobox', { name: written('network:applicationId') }).fill(applicationId);
    await page.getByRole('button', { name: written('network:readSettings') }).click();
    await page.getByRole('textbox', { name: written('network:fieldRxDelay') }).waitFor();
    await page.getByRole('group', { name: written('network:nbTransLegend') }).waitFor();
    const text = await viewText(page);
    expect(text).not.toMatch(RAW_KEY);
    expect(text).not.toMatch(ENUM_VALUE);
    // Field names appear only after "API:", never as a label of their own.
    const labels = await page
      .locator('section[aria-labelledby="network-settings-title"] label')
      .allInnerTexts();
    expect(labels.join('\n')).not.toMatch(/\b(?:rxDelay|adrInterval|fcntCheck|maxEIRP)\b/);
    await expectWithinWindow(page);
  });
});
