import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../electron/services/credentials';
import type { Gateway } from '../../electron/shared/api';
import { translatorFor, type DisplayLanguage, type Translator } from '../../electron/shared/i18n';
import type { RunningSimulator } from '../../simulator';
import { CHROMIUM_ARGS, CHROMIUM_PATH, DEFAULT_STEP_TIMEOUT_MS } from '../helpers/browser';
import { customersOf, passwordOf, startTestSimulator } from '../helpers/simulator';
import { startDemoHost, type DemoHost } from './support/journey';

// The gateway list, an online gateway's page and the offline page of the site pack (field mode), in French and
// German at 1280×720: words of the catalogue only — no message keys, no API enum values or field names — the
// model in full, and the API flags behind the column chooser.

/** What must never show as text on these screens: catalogue keys, the API's values and field names. */
const API_WORDS = [
  'gateways:',
  'ONLINE',
  'OFFLINE',
  'workingIdx',
  'doSPrevention',
  'perMinLimit',
  'totalPages',
  'hasNext',
  'idxModem',
  'moduleSerialNumber',
  'custGatewayId',
  'isPublic',
];
/** An API enum value such as GATEWAY_SHUTDOWN_ALARM or CUSTOMER_USER. */
const ENUM_VALUE = /\b[A-Z]{2,}_[A-Z_]{2,}\b/;

let simulator: RunningSimulator;
let demoHost: DemoHost;
let browser: Browser;

beforeAll(async () => {
  simulator = await startTestSimulator({ gateways: 30, offlineFraction: 0.3 });
  demoHost = await startDemoHost(simulator, {
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await simulator?.close();
});

/** Acme's gateways as its technician's session lists them. */
async function acmeGateways(): Promise<Gateway[]> {
  const answer = (await demoHost.host.services.sessions.requireSession().call('listCustomerGateways', {
    params: { customerId: customersOf(simulator).acme.id },
    query: { limit: 100, page: 0, sortField: 'NAME', sortDirection: 'ASC' },
  })) as { data: Gateway[] };
  return answer.data;
}

async function signInAsAcme(): Promise<void> {
  const { services } = demoHost.host;
  const profileId = services.profiles.list().selectedId;
  if (!profileId) throw new Error('the demo profile is not selected');
  await services.sessions.login({ profileId, ...passwordOf(simulator, 'acme'), remember: 'none' });
}

/** Prepares the site pack of Acme with full details of one gateway, through the app's own channel. */
async function preparePack(gatewayId: string): Promise<void> {
  const { handlers } = demoHost.host.services;
  const context = { channel: 'site-pack:prepare' } as const;
  await handlers['site-pack:prepare'](
    {
      scope: { kind: 'customer', id: customersOf(simulator).acme.id },
      selection: { kind: 'ids', ids: [gatewayId] },
    },
    context,
  );
  await expect
    .poll(
      async () => (await handlers['site-pack:status'](undefined, { channel: 'site-pack:status' })).job?.phase,
      { timeout: 60_000 },
    )
    .toBe('done');
}

function pageText(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector('main')?.innerText ?? document.body.innerText);
}

async function expectWordsOnly(page: Page): Promise<void> {
  const text = await pageText(page);
  for (const word of API_WORDS) expect(text, `“${word}” on screen`).not.toContain(word);
  expect(text).not.toMatch(ENUM_VALUE);
}

/** No cell of the column is cut: its text fits its box (it wraps rather than ending in an ellipsis). */
async function modelCellsFit(page: Page, column: number): Promise<{ text: string; fits: boolean }[]> {
  return page.evaluate((index) => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-row-index]')];
    return rows.map((row) => {
      const cell = row.querySelectorAll<HTMLElement>('[role="cell"]')[index]!;
      return {
        text: cell.textContent?.trim() ?? '',
        fits: cell.scrollWidth <= cell.clientWidth && cell.scrollHeight <= cell.clientHeight,
      };
    });
  }, column);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function checkGatewayScreens(locale: string, language: DisplayLanguage): Promise<void> {
  const tr: Translator = translatorFor(language);
  await signInAsAcme();
  const gateways = await acmeGateways();
  const online = gateways.find((gateway) => gateway.status === 'ONLINE');
  if (!online) throw new Error('Acme has no online gateway');
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 720 } });
  context.setDefaultTimeout(DEFAULT_STEP_TIMEOUT_MS);
  const page = await context.newPage();
  try {
    await page.goto(`${demoHost.host.url}#/gateways`);
    await page.getByRole('heading', { name: tr('gateways:title'), level: 1 }).waitFor();
    const table = page.getByRole('table', { name: tr('gateways:tableLabel') });
    await table.locator('[data-row-index]').first().getByRole('link').waitFor();

    // The columns a technician scans for, in words; the statuses in words.
    const headings = await table.getByRole('columnheader').allTextContents();
    expect(headings.map((heading) => heading.replace(/[▲▼]/g, '').trim())).toEqual([
      tr('gateways:columnName'),
      tr('gateways:columnMac'),
      tr('gateways:columnModel'),
      tr('gateways:columnStatus'),
      tr('gateways:columnLastSeen'),
    ]);
    const statuses = await page.evaluate(() =>
      [...document.querySelectorAll('[data-row-index]')].map(
        (row) => row.querySelectorAll('[role="cell"]')[3]?.textContent?.trim() ?? '',
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([tr('gateways:statusOnline'), tr('gateways:statusOffline')]));
    await expectWordsOnly(page);

    // The models in full: every one as the API names it, none cut.
    const models = new Map(gateways.map((gateway) => [gateway.name, gateway.gatewayModelName]));
    const names = await table.locator('[data-row-index] a').allTextContents();
    const cells = await modelCellsFit(page, 2);
    expect(cells.map((cell) => cell.text)).toEqual(names.map((name) => models.get(name) ?? '—'));
    expect(cells.every((cell) => cell.fits)).toBe(true);

    // The column chooser, by keyboard: it opens on its first checkbox, Space ticks, Escape closes.
    const publicHeading = table.getByRole('columnheader', { name: tr('gateways:columnPublic') });
    expect(await publicHeading.count()).toBe(0);
    const chooser = page.getByRole('button', { name: tr('gateways:columnsButton') });
    await chooser.focus();
    await page.keyboard.press('Enter');
    expect(await chooser.getAttribute('aria-expanded')).toBe('true');
    const boxNamed = (label: string) => page.getByRole('checkbox', { name: new RegExp(`^${escape(label)}`) });
    const isFocused = (box: ReturnType<typeof boxNamed>) =>
      box.evaluate((element) => element === document.activeElement);
    await expect.poll(() => isFocused(boxNamed(tr('gateways:columnCreated')))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(boxNamed(tr('gateways:columnPublic')))).toBe(true);
    await page.keyboard.press('Space');
    await publicHeading.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => chooser.getAttribute('aria-expanded')).toBe('false');
    expect(await chooser.evaluate((button) => button === document.activeElement)).toBe(true);
    const publicWords = await page.evaluate(() =>
      [...document.querySelectorAll('[data-row-index]')].map(
        (row) => row.querySelectorAll('[role="cell"]')[5]?.textContent?.trim() ?? '',
      ),
    );
    expect(publicWords.every((word) => [tr('common:yes'), tr('common:no'), '—'].includes(word))).toBe(true);
    // Remembered: the flag column is still there after a reload, and the models still fit beside it.
    await page.reload();
    await publicHeading.waitFor();
    await table.locator('[data-row-index]').first().getByRole('link').waitFor();
    expect((await modelCellsFit(page, 2)).every((cell) => cell.fits)).toBe(true);

    // An online gateway's page.
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), online.id.id);
    const title = page.getByRole('heading', { name: online.name, level: 2 });
    await expect.poll(() => title.textContent(), { timeout: 15_000 }).toContain(tr('gateways:statusOnline'));
    await page.getByText(tr('gateways:gatewayId'), { exact: true }).waitFor();
    await page.getByRole('heading', { name: tr('gateways:raisedAlarms') }).waitFor();
    await page.getByRole('heading', { name: tr('gateways:eventsTitle') }).waitFor();
    await page.getByRole('heading', { name: tr('gateways:consoleTitle') }).waitFor();
    await expectWordsOnly(page);

    // The site pack, then field mode: the offline page shows the pack's facts as labelled cards.
    await preparePack(online.id.id);
    await demoHost.host.services.sessions.logout();
    // The sign-in page's "Work without signing in" (another area's words): found by its place, in any language.
    await page.locator('section[aria-labelledby="field-title"] button').last().click();
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), online.id.id);
    const pack = page.getByRole('region', { name: tr('gateways:packTitle') });
    await pack.waitFor({ timeout: 15_000 });
    for (const card of [
      'gateways:packInfoTitle',
      'gateways:packWanTitle',
      'gateways:packApnsTitle',
      'gateways:packFirewallTitle',
      'gateways:packBackupsTitle',
      'gateways:packSoftwareTitle',
      'gateways:packAlarmsTitle',
    ] as const) {
      await pack.getByRole('heading', { name: tr(card), exact: true }).waitFor();
    }
    // The APN in use is in sight without a click.
    const stored = await demoHost.host.services.sitePacks.get(
      demoHost.host.services.profiles.list().selectedId ?? '',
    );
    const apns = stored?.pack.details[online.id.id]?.sections.apns;
    if (!apns || !('value' in apns)) throw new Error('the pack did not read the APNs');
    const { workingIdx, apns: list } = apns.value as {
      workingIdx: number;
      apns: { idx: number; name: string }[];
    };
    const inUse = list.find((apn) => apn.idx === workingIdx);
    const apnLine = pack.getByTestId('apn-in-use');
    expect(await apnLine.isVisible()).toBe(true);
    expect((await apnLine.textContent())?.trim()).toBe(
      inUse ? tr('gateways:apnInUse', { name: inUse.name }) : tr('gateways:apnNoneInUse'),
    );
    await page.getByText(tr('gateways:wanPreferred'), { exact: true }).waitFor();
    await page
      .getByText(tr('gateways:firewallOn'))
      .or(page.getByText(tr('gateways:firewallOff')))
      .waitFor();
    await expectWordsOnly(page);
    expect(await pack.locator('details').count()).toBe(0);
    await page.screenshot({ path: join(tmpdir(), `fieldkit-gateway-pack-${language}.png`), fullPage: true });
  } finally {
    await context.close();
  }
}

describe('the gateway screens in other languages', () => {
  it('speak French: list, online page, and the site pack offline', async () => {
    await checkGatewayScreens('fr-FR', 'fr');
  }, 120_000);

  it('speak German: list, online page, and the site pack offline', async () => {
    await checkGatewayScreens('de-DE', 'de');
  }, 120_000);
});
