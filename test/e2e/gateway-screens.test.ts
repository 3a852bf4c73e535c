import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import type { Gateway } from '../../electron/shared/api';
import type { RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { customersOf, passwordOf, startTestSimulator } from '../helpers/simulator';
import { signIn } from './support/login-page';
import { startDemoHost, type DemoHost } from './support/journey';
import { SHORT_TIMINGS } from './wizards-harness';

// What the gateway list, page and diagnostics say when the server fails, answers slowly or lists a gateway as
// OFFLINE: Chromium → browser host → a fault proxy on loopback → the simulator, signed in as Acme's technician.

/** The list endpoints (`/api/v2/{customer|provider|gatewayGroup}/{id}/gateways`). */
const isGatewayList = (_method: string, url: string) => /\/gateways(\?|$)/.test(url);
const isCustomerRead = (_method: string, url: string) => /^\/api\/customer\/[^/?]+(\?|$)/.test(url);
const isCpuRead = (_method: string, url: string) => url.includes('/performance/system/cpuUsage');
const isCommand = (_method: string, url: string) => url.includes('/command/');

let simulator: RunningSimulator;
let proxy: FaultProxy;
let demoHost: DemoHost;
let host: StartedHost;
let browser: BrowserSession;
let page: Page;

beforeAll(async () => {
  simulator = await startTestSimulator({ commandTimeoutMs: 3000, offlineFraction: 0.3, rebootMs: 1500 });
  proxy = await startFaultProxy(simulator.url);
  demoHost = await startDemoHost(simulator, {
    baseUrl: proxy.url,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    commissioningTiming: SHORT_TIMINGS.timing,
  });
  host = demoHost.host;
  browser = await launchBrowser();
  page = browser.page;
  await page.setViewportSize({ width: 1280, height: 720 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await proxy?.close();
  await simulator?.close();
});

// A test that fails midway leaves no fault behind for the next one.
afterEach(() => {
  proxy.failWhen(null);
  proxy.release();
});

/** Acme's gateways as the API lists them to its technician, newest status. */
async function acmeGateways(): Promise<Gateway[]> {
  const answer = (await host.services.sessions.requireSession().call('listCustomerGateways', {
    params: { customerId: customersOf(simulator).acme.id },
    query: { limit: 100, page: 0, sortField: 'NAME', sortDirection: 'ASC' },
  })) as { data: Gateway[] };
  return answer.data;
}

async function gatewayWithStatus(status: 'ONLINE' | 'OFFLINE'): Promise<Gateway> {
  const gateway = (await acmeGateways()).find((candidate) => candidate.status === status);
  if (!gateway) throw new Error(`Acme has no ${status} gateway in this tenant`);
  return gateway;
}

function countLine(): Promise<string> {
  return page.evaluate(
    () => document.querySelector('p.count')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
  );
}

describe('the gateway list when the server fails', () => {
  it('says the count is unknown and the customer name is loading, then retries by itself and lists them', async () => {
    const acme = passwordOf(simulator, 'acme');
    proxy.failWhen(isGatewayList);
    proxy.holdWhen(isCustomerRead);
    await signIn(page, host.url, `Use ${acme.username} (CUSTOMER_USER)`);
    await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor();

    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the gateways' });
    await alert.waitFor();
    await page.getByText(/Retrying by itself in \d+ s\./).waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    expect(await countLine()).toBe('Number of gateways unknown: the list did not load.');
    expect(await page.getByText('No gateway matches.').count()).toBe(0);
    expect(await page.getByText(/\b0 gateways\b/).count()).toBe(0);
    const customer = page.getByRole('combobox', { name: 'Customer', exact: true });
    // Until its name is read, the customer is told by the start of its id, and why there is no name yet.
    expect(await customer.locator('option:checked').textContent()).toMatch(/^Customer [0-9a-f]{8}…/);

    proxy.release();
    await expect
      .poll(() => customer.locator('option:checked').textContent())
      .toBe(`${customersOf(simulator).acme.name} (your customer)`);
    proxy.failWhen(null);
    // The first automatic retry is due 2 s after the failure: the rows come without a click.
    await page.locator('[data-row-index="0"] a').waitFor({ timeout: 15_000 });
    expect(await countLine()).toMatch(/^\d+ gateways?$/);
    expect(await alert.count()).toBe(0);
  }, 60_000);

  it('offers Retry for a refusal it does not retry by itself, and Retry lists the gateways', async () => {
    proxy.failWhen(isGatewayList, 403);
    await page.evaluate(() => (location.hash = '#/devices'));
    await page.evaluate(() => (location.hash = '#/gateways'));
    await page
      .getByRole('alert')
      .filter({ hasText: 'Could not load the gateways: your account has no access to it' })
      .waitFor();
    expect(await page.getByText(/Retrying by itself/).count()).toBe(0);
    expect(await countLine()).toBe('Number of gateways unknown: the list did not load.');

    proxy.failWhen(null);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('[data-row-index="0"] a').waitFor();
    expect(await countLine()).toMatch(/^\d+ gateways?$/);
  });
});

describe('diagnostics of a gateway the server lists as OFFLINE', () => {
  it('names it OFFLINE with its last-seen time and sends nothing until "Try anyway"', async () => {
    const offline = await gatewayWithStatus('OFFLINE');
    // Commands are kept waiting at the proxy: one reaching it shows as held, and the wait stays on screen.
    proxy.holdWhen(isCommand);
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/diagnostics`), offline.id.id);
    const notice = page.getByRole('status', { name: 'Gateway offline' });
    await notice.waitFor();
    expect((await notice.textContent())?.replace(/\s+/g, ' ')).toMatch(
      new RegExp(
        `${offline.name} is offline \\(last seen (?:.+ ago|yesterday|[A-Z][a-z]{2} \\d{1,2}, \\d{4})\\)`,
      ),
    );
    expect(proxy.held).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Try anyway' }).click();
    // The wait names what it waits for from its first moment, before the run says anything of its own.
    await page
      .getByText(`Reading interfaces, antennas, GPS and BSP status on ${offline.name}`, { exact: false })
      .waitFor();
    await expect.poll(() => proxy.held).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    proxy.release();
  }, 30_000);
});

describe('the gateway page when reads fail', () => {
  it('says the CPU read failed and reads it again with the next refresh', async () => {
    const online = await gatewayWithStatus('ONLINE');
    proxy.failWhen(isCpuRead);
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), online.id.id);
    const cpuError = page.getByTestId('cpu-error');
    await cpuError.waitFor();
    expect(await cpuError.textContent()).toContain('Read again with the next refresh.');
    expect(await page.getByText('no samples').count()).toBe(0);

    proxy.failWhen(null);
    // The page refreshes when it is shown again (and every 10 s): ask for that refresh now.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.getByRole('img', { name: 'CPU usage, last 24 hours' }).waitFor();
    expect(await cpuError.count()).toBe(0);
  });

  it('marks a status it could not read again as "as of" its last read, never as live', async () => {
    const online = await gatewayWithStatus('ONLINE');
    const title = page.getByRole('heading', { name: online.name, level: 2 });
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), online.id.id);
    await expect.poll(() => title.textContent()).toMatch(/Online\s*$/);
    await page.getByText(/^\s*Status read at /).waitFor();

    proxy.failWhen(isGatewayList);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect.poll(() => title.textContent()).toMatch(/Online as of \d/);
    expect(await page.getByTestId('gateway-freshness').textContent()).toContain(
      'Could not load the latest status',
    );

    // Opened afresh while reads fail, the list's copy is not a status of now.
    await page.evaluate(() => (location.hash = '#/gateways'));
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), online.id.id);
    await expect.poll(() => title.textContent()).toMatch(/status unknown/);
    expect(await title.textContent()).not.toMatch(/Online/);
    proxy.failWhen(null);
  });
});

describe('moving between screens', () => {
  /** The page's scroll offset and the focused element's role and text, as `scrollY|TAG|text`. */
  function scrollAndFocus(): Promise<string> {
    return page.evaluate(() => {
      const focused = document.activeElement;
      return `${window.scrollY}|${focused?.tagName ?? ''}|${focused?.textContent?.trim() ?? ''}`;
    });
  }

  it('opens Diagnostics from a scrolled gateway page at its top, the heading focused', async () => {
    const online = await gatewayWithStatus('ONLINE');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), online.id.id);
    const diagnosticsLink = page
      .getByRole('region', { name: 'Tools' })
      .getByRole('link', { name: 'Diagnostics' });
    await diagnosticsLink.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    await diagnosticsLink.click();
    await page.getByRole('heading', { name: 'Diagnostics', level: 2 }).waitFor();
    await expect.poll(scrollAndFocus).toBe('0|H1|Gateways');
  });

  it('opens another view at its top after a scrolled screen, the heading focused', async () => {
    await page.evaluate(() => window.scrollTo(0, 300));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Devices' }).click();
    await expect.poll(scrollAndFocus).toBe('0|H1|Devices');
  });

  it('skips to the content of the view shown, not to another view', async () => {
    await page.evaluate(() => (location.hash = '#/devices'));
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => `${location.hash}|${document.activeElement?.id ?? ''}`)).toBe(
      '#/devices|content',
    );
    expect(await page.getByRole('heading', { name: 'Devices', level: 1 }).count()).toBe(1);
  });

  it('leaves the focus on the console a route asks for', async () => {
    const online = await gatewayWithStatus('ONLINE');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/console`), online.id.id);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''))
      .toBe('Command console');
  });
});

describe('diagnostics of an online gateway', () => {
  it('echoes a long refused ping destination cut short, Packets staying beside it', async () => {
    const online = await gatewayWithStatus('ONLINE');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/diagnostics`), online.id.id);
    await page.getByRole('heading', { name: 'Gateway', level: 3, exact: true }).waitFor();
    const destination = page.getByRole('textbox', { name: 'Destination' });
    await destination.fill('x'.repeat(300));
    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    const error = page.getByText(/is not a host name or IP address/);
    await error.waitFor();
    expect(await error.textContent()).toBe(`“${'x'.repeat(40)}…” is not a host name or IP address.`);
    const destinationBox = await destination.boundingBox();
    const packetsBox = await page.getByRole('textbox', { name: 'Packets' }).boundingBox();
    expect(packetsBox?.y).toBe(destinationBox?.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  });

  it('names Lo as lo, the uptime as a duration and the customer gateway ID in words', async () => {
    const overview = page.getByText('Gateway information');
    await overview.waitFor();
    const text = (await page.locator('dl').first().textContent()) ?? '';
    expect(text).toMatch(/Uptime\s*\d+ (h|min|s|d)/);
    expect(text).not.toContain('Uptime seconds');
    expect(text).toContain('Customer gateway ID');
    expect(text).toMatch(/(^|[^A-Za-z])lo\s*127\.0\.0\.1/);
  });
});

describe('keyboard focus in a wizard', () => {
  /** The focused element as `TAG|accessible text` (a field by its label). */
  function focused(): Promise<string> {
    return page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      const label = element?.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
      return `${element?.tagName ?? ''}|${(label ?? element?.textContent ?? '').trim()}`;
    });
  }

  it('moves to the review heading, then from "I understand the risk" to the field to type', async () => {
    const online = await gatewayWithStatus('ONLINE');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/wizard/firewall`), online.id.id);
    await page.getByLabel('Ping allowed').uncheck();
    await page.getByRole('button', { name: 'Review changes' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('H3|What will change');

    await page.getByRole('button', { name: 'I understand the risk' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('INPUT|Type BLOCK PING to go ahead');
    await page.keyboard.type('BLOCK PING');
    expect(await page.getByRole('button', { name: 'Apply', exact: true }).isDisabled()).toBe(false);
  });
});

describe('diagnostics after a reboot', () => {
  /** The uptime Diagnostics shows, as text ("" while it is not shown). */
  function shownUptime(): Promise<string> {
    return page.evaluate(() => {
      const term = [...document.querySelectorAll('dt')].find(
        (element) => element.textContent?.trim() === 'Uptime',
      );
      return term?.nextElementSibling?.textContent?.trim() ?? '';
    });
  }

  it('reads the gateway again once the reboot succeeded, not leaving what it read before', async () => {
    const gateway = (await acmeGateways()).filter((candidate) => candidate.status === 'ONLINE')[1];
    if (!gateway) throw new Error('Acme needs two ONLINE gateways in this tenant');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/diagnostics`), gateway.id.id);
    await expect.poll(shownUptime).toMatch(/\d+ hr\b/);

    await page.getByRole('button', { name: 'Reboot the gateway' }).click();
    await page.getByRole('button', { name: 'Reboot and wait' }).click();
    await page.getByText(/The gateway restarted and answered again after/).waitFor({ timeout: 30_000 });
    await expect.poll(shownUptime).toMatch(/^\d+ sec$/);
  }, 45_000);
});
