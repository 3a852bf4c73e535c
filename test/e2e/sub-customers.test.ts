import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMac } from '../../electron/shared/mac';
import type { RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { customersOf, passwordOf, startTestSimulator } from '../helpers/simulator';
import { startDemoHost, type DemoHost } from './support/journey';
import { signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// Issue 29, part 5: a customer user with two sub-customers reaches a sub-customer's gateway by name. Signed in as
// tech@acme.demo, a North gateway is found by its MAC, listed under "Acme Water North", packed by choosing
// "Acme Water North" by name (the visit list naming it by MAC), and a fleet change applied to it. Devices lists
// Acme Water North's devices once it is chosen by name in the same customer picker (issue 29, its last items).

let simulator: RunningSimulator;
let demoHost: DemoHost;
let browser: BrowserSession;
let page: Page;

beforeAll(async () => {
  simulator = await startTestSimulator({ gateways: 60, commandTimeoutMs: 3000 });
  demoHost = await startDemoHost(simulator, { credentials: ownKeychain() });
  browser = await launchBrowser({ windowSize: { width: 1280, height: 720 } });
  page = browser.page;
  await signIn(page, demoHost.host.url, 'Use tech@acme.demo (CUSTOMER_USER)');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await simulator?.close();
});

/** Acme Water North and one of its online gateways, from the simulator's fixture. */
function northGateway() {
  const north = customersOf(simulator).acme.subCustomers.find((sub) => sub.name === 'Acme Water North');
  if (!north) throw new Error('the demo tenant has no Acme Water North');
  const gateway = simulator.fixture.gateways.find(
    (candidate) => candidate.customerId === north.id && candidate.initialStatus === 'ONLINE',
  );
  if (!gateway) throw new Error('Acme Water North has no online gateway in the demo tenant');
  return { north, gateway };
}

describe('sub-customers by name, as tech@acme.demo', () => {
  it('finds a North gateway by MAC, lists it under Acme Water North, packs it and applies a fleet change to it', async () => {
    const { north, gateway } = northGateway();
    const host = demoHost.host;
    await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor();

    // The MAC as a label may print it: dashes, lower case. Acme Water's own list holds no North gateway.
    const customer = page.getByRole('combobox', { name: 'Customer', exact: true });
    await expect
      .poll(() => customer.locator('option:checked').textContent())
      .toBe('Acme Water (your customer)');
    await page
      .getByRole('searchbox', { name: 'Search by name or MAC' })
      .fill(formatMac(gateway.gatewayMac).replaceAll(':', '-').toLowerCase());
    const elsewhere = page.getByRole('status').filter({ hasText: 'Also found under other customers' });
    await elsewhere.getByText(`${gateway.name} (${formatMac(gateway.gatewayMac)})`).waitFor();
    await elsewhere.getByRole('button', { name: "Show Acme Water North's gateways" }).click();
    await expect.poll(() => customer.locator('option:checked').textContent()).toBe('Acme Water North');
    await page.getByRole('link', { name: gateway.name, exact: true }).waitFor();
    await page.getByText('1 gateway', { exact: true }).waitFor();

    // The site pack of Acme Water North, chosen by name; the visit list names the gateway by its bare MAC.
    await page.getByRole('link', { name: 'Site pack' }).click();
    await page.getByRole('heading', { name: 'Site pack', level: 1 }).waitFor();
    const packCustomer = page.getByRole('combobox', { name: 'Customer', exact: true });
    await packCustomer.selectOption({ label: 'Acme Water North' });
    await page.getByRole('radio', { name: /These gateways of my visit list/ }).check();
    await page
      .getByRole('textbox', { name: /Gateway names, MACs or ids/ })
      .fill(`${gateway.gatewayMac.toLowerCase()}\nno such gateway`);
    await page.getByRole('button', { name: 'Prepare the site pack' }).click();
    const done = page.getByText(/^Done: 1 gateway with details/);
    await done.waitFor({ timeout: 60_000 });
    expect(await done.textContent()).toMatch(
      /Not found among the \d+ gateways of Acme Water North, so not in the pack: no such gateway\.$/,
    );
    const profileId = host.services.sessions.summary()!.profileId;
    const { pack } = (await host.services.sitePacks.get(profileId))!;
    expect(pack.scope).toEqual({ kind: 'customer', id: north.id, name: 'Acme Water North' });
    expect(Object.keys(pack.details)).toEqual([gateway.id]);
    expect(pack.unresolved).toEqual(['no such gateway']);
    expect(pack.customers?.find((known) => known.id === north.id)?.name).toBe('Acme Water North');

    // Fleet apply on Acme Water North's gateways, picked by name.
    await page.getByRole('link', { name: 'Fleet & report' }).click();
    await page.getByRole('link', { name: 'Fleet apply' }).click();
    await page.getByRole('combobox', { name: 'Gateways of' }).selectOption({ label: 'Acme Water North' });
    const row = page
      .getByRole('list', { name: 'Gateways to change' })
      .getByRole('checkbox', { name: new RegExp(`^${gateway.name} · `) });
    await row.check();
    await page.getByLabel('What to change').selectOption('pingTarget');
    await page.getByRole('textbox', { name: 'Ping target' }).fill('9.9.9.9');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    await page
      .getByRole('dialog', { name: /to 1 gateway\?$/ })
      .getByRole('button', { name: /^Apply to 1 gateway/ })
      .click();
    const result = page.getByRole('table', { name: 'Fleet result' });
    await result.locator('tbody tr[data-status="done"]').waitFor({ timeout: 30_000 });
    expect(await result.locator('tbody tr').count()).toBe(1);
    expect(await result.locator('tbody tr td:first-child').textContent()).toContain(gateway.name);

    // The events of the account's scope name each event's customer, sub-customers included.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
    const events = page.getByRole('table', { name: 'Enhanced events' });
    await events.waitFor();
    const customerColumn = (await events.getByRole('columnheader').allTextContents()).indexOf('Customer') + 1;
    const named = () => events.locator(`tbody tr td:nth-child(${customerColumn})`).allTextContents();
    await expect
      .poll(async () => [...new Set(await named())].sort())
      .toEqual(expect.arrayContaining(['Acme Water North']));
    expect(
      (await named()).every((name) => ['Acme Water', 'Acme Water North', 'Acme Water South'].includes(name)),
    ).toBe(true);
  }, 180_000);
});

describe('devices of a sub-customer by name, as tech@acme.demo', () => {
  it('offers Acme Water North by name in the Devices view and lists its devices', async () => {
    const { north } = northGateway();
    const account = passwordOf(simulator, 'acme');
    const { token } = await simulator.world.tokens.login(account.username, account.password);
    const response = await fetch(`${simulator.url}/api/subCustomer/${north.id}/devices`, {
      headers: { 'X-Authorization': `Bearer ${token}` },
    });
    const expected = (await response.json()) as { data: Array<{ name: string }>; totalElements: number };
    expect(expected.totalElements).toBeGreaterThan(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    const customer = page.getByRole('combobox', { name: 'Customer', exact: true });
    // Opens on the account's own customer; its sub-customer is there by name, no id typed.
    await expect
      .poll(() => customer.locator('option:checked').textContent())
      .toBe('Acme Water (your customer)');
    await customer.selectOption({ label: 'Acme Water North' });

    const counts = page.getByLabel('Device counts');
    await expect
      .poll(async () => (await counts.textContent())?.replace(/\s+/g, ' '))
      .toMatch(new RegExp(`^${expected.totalElements} devices? ·`));
    await page
      .getByRole('table', { name: 'Devices' })
      .getByText(expected.data[0]!.name, { exact: true })
      .waitFor();
    expect(await customer.locator('option:checked').textContent()).toBe('Acme Water North');
    expect(new URL(page.url()).hash).toBe(`#/devices/subCustomer/${north.id}/all`);
  }, 60_000);
});
