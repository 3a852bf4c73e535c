import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host';
import { startSimulator, type RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { startDemoHost, type DemoHost } from './support/journey';
import { demoAccountButtonName, signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// The devices, events and telemetry views in Chromium, through the browser host and the simulator (default
// token lifetimes, so the session outlives the file). Every `api:call` the renderer sends is recorded from the
// WebSocket, so a test can say which request a control produced.

interface ApiCallInput {
  endpoint: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

let simulator: RunningSimulator;
let demoHost: DemoHost;
let host: StartedHost;
let browser: BrowserSession;
let token: string;
let baseUrl: string;
const apiCalls: ApiCallInput[] = [];

beforeAll(async () => {
  simulator = await startSimulator({});
  demoHost = await startDemoHost(simulator, { credentials: ownKeychain() });
  host = demoHost.host;
  browser = await launchBrowser();
  browser.page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { channel?: string; input?: ApiCallInput };
      if (message.channel === 'api:call' && message.input) apiCalls.push(message.input);
    });
  });
  const account = simulator.fixture.accounts[0]!;
  const { page } = browser;
  await signIn(page, host.url, `Use ${account.username} (${account.role})`, { remember: false });
  baseUrl = page.url().split('#')[0]!;
  token = (await simulator.world.tokens.login(account.username, account.password)).token;
});

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await simulator?.close();
});

async function open(hash: string): Promise<Page> {
  const { page } = browser;
  await page.goto(`${baseUrl}${hash}`);
  return page;
}

async function fetchFromSimulator<Value>(path: string): Promise<Value> {
  const response = await fetch(`${simulator.url}${path}`, {
    headers: { 'X-Authorization': `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Value;
}

function firstCustomerId(): string {
  const customer = simulator.fixture.customers[0];
  if (!customer) throw new Error('the demo tenant has no customer');
  return customer.id;
}

function callsTo(endpoint: string): ApiCallInput[] {
  return apiCalls.filter((call) => call.endpoint === endpoint);
}

describe('devices view', () => {
  it('sends active=true for the online filter and shows the counts the API gives', async () => {
    const customerId = firstCustomerId();
    const page = await open(`#/devices/customer/${customerId}/online`);
    const counts = page.getByLabel('Device counts');
    await counts.waitFor();

    const all = await fetchFromSimulator<{ data: Array<{ active: boolean }>; totalElements: number }>(
      `/api/customer/${customerId}/devices`,
    );
    const online = all.data.filter((device) => device.active).length;
    await expect.poll(() => counts.textContent()).toContain(`${all.totalElements} devices`);
    expect(await counts.textContent()).toContain(`${online} online`);
    expect(await counts.textContent()).toContain(`${all.totalElements - online} offline`);
    expect(callsTo('listCustomerDevices')).toContainEqual({
      endpoint: 'listCustomerDevices',
      params: { customerId },
      query: { active: true },
    });
    const onlineList = await fetchFromSimulator<{ totalElements: number }>(
      `/api/customer/${customerId}/devices?active=true`,
    );
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Showing' }).textContent())
      .toContain(`of ${onlineList.totalElements} online devices`);
  });

  it('sends active=false when the offline filter is chosen, and keeps the filter in the address', async () => {
    const customerId = firstCustomerId();
    const page = await open(`#/devices/customer/${customerId}/all`);
    await page.getByRole('radio', { name: 'Offline' }).check();
    await expect
      .poll(() => callsTo('listCustomerDevices').some((call) => call.query?.active === false))
      .toBe(true);
    expect(page.url()).toContain(`#/devices/customer/${customerId}/offline`);
    expect(callsTo('listCustomerDevices').some((call) => call.query && !('active' in call.query))).toBe(true);
  });

  it('shows each last activity as "never" or as a relative time', async () => {
    const page = await open(`#/devices/customer/${firstCustomerId()}/all`);
    const firstRow = page.getByRole('table', { name: 'Devices' }).locator('[data-row-index="0"]');
    await firstRow.waitFor();
    expect(await firstRow.textContent()).toMatch(/never|ago|now|yesterday|\d{4}/);
  });

  it('explains a customer that does not exist in words, with Retry', async () => {
    const page = await open('#/devices/customer/no-such-customer/all');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Could not load the devices: the server does not know what was asked for');
  });
});

describe('events view', () => {
  function lastCallTo(endpoint: string): ApiCallInput | undefined {
    return callsTo(endpoint).at(-1);
  }

  it('sends every filter of the form in the request', async () => {
    const page = await open('#/events/all');
    const form = page.getByRole('form', { name: 'Event filters' });
    await form.getByLabel('From').fill('2026-01-01T00:00');
    await form.getByLabel('To (optional)').fill('2026-12-31T23:59');
    await form.getByLabel('Entity id (uuid)').fill('3f1c2a10-0000-4000-8000-000000000001');
    await form.getByLabel('Entity name (device EUI or gateway id)').fill('gw-0001');
    await form.getByLabel('Event name').selectOption('GATEWAY_LOW_BATTERY_ALARM');
    await form.getByLabel('Category', { exact: true }).selectOption('Alarms');
    await form.getByLabel('ITU type').fill('equipmentAlarm');
    await form.getByLabel('Severity').selectOption('Major');
    await form.getByLabel('Source').selectOption('GATEWAY');
    await form.getByLabel('State').selectOption('Raised');
    await form.getByLabel('Sort by field').fill('severity');
    await form.getByLabel('Sort order').selectOption('asc');
    await form.getByLabel('Page size').fill('7');
    const before = apiCalls.length;
    await form.getByRole('button', { name: 'Show events' }).click();
    await expect.poll(() => apiCalls.length).toBeGreaterThan(before);
    expect(lastCallTo('listEnhancedEvents')?.query).toEqual({
      startTs: new Date('2026-01-01T00:00').getTime(),
      endTs: new Date('2026-12-31T23:59').getTime(),
      entityIdUuid: '3f1c2a10-0000-4000-8000-000000000001',
      entityName: 'gw-0001',
      eventName: 'GATEWAY_LOW_BATTERY_ALARM',
      eventType: 'Alarms',
      ituType: 'equipmentAlarm',
      severity: 'Major',
      source: 'GATEWAY',
      state: 'Raised',
      sortField: 'severity',
      sortOrder: 'asc',
      limit: 7,
      page: 0,
    });
    expect(decodeURIComponent(page.url())).toContain('severity=Major');
  });

  it('refuses a page size of 101 next to the field and sends nothing', async () => {
    const page = await open('#/events/raised');
    const form = page.getByRole('form', { name: 'Event filters' });
    await page.getByRole('status', { name: 'Event count' }).waitFor();
    await form.getByLabel('Page size').fill('101');
    const before = apiCalls.length;
    await form.getByRole('button', { name: 'Show events' }).click();
    const field = form.getByRole('textbox', { name: 'Page size' });
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByText('limit must be 1 to 100').isVisible()).toBe(true);
    expect(apiCalls.length).toBe(before);
  });

  it('pages through the list: the next page asks for page 1 and shows what the API has there', async () => {
    const startTs = Date.now() - 30 * 86_400_000;
    const firstPage = await fetchFromSimulator<{ totalElements: number; data: Array<{ eventName: string }> }>(
      `/api/enhancedEvents?startTs=${startTs}&limit=5&page=1&sortField=start_ts&sortOrder=desc`,
    );
    expect(firstPage.totalElements).toBeGreaterThan(5);
    const page = await open('#/events/all');
    const form = page.getByRole('form', { name: 'Event filters' });
    await form.getByLabel('Page size').fill('5');
    await form.getByLabel('From').fill(toLocalInputOf(startTs));
    await form.getByRole('button', { name: 'Show events' }).click();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => lastCallTo('listEnhancedEvents')?.query?.page).toBe(1);
    await expect
      .poll(() => page.getByRole('status', { name: 'Event count' }).textContent())
      .toContain('page 2');
    const rows = page.getByRole('table', { name: 'Enhanced events' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
  });
});

function toLocalInputOf(timeMs: number): string {
  const date = new Date(timeMs);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

describe('telemetry view', () => {
  function onlineGatewayId(): string {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE');
    if (!gateway) throw new Error('the demo tenant has no online gateway');
    return gateway.id;
  }

  async function showGatewaySeries(
    limit: number,
  ): Promise<{ page: Page; first: ApiCallInput; count: number }> {
    const gatewayId = onlineGatewayId();
    const before = apiCalls.length;
    const page = await open(`#/telemetry/gateway/${gatewayId}/system/cpuUsage/24h/-/${limit}`);
    const status = page.getByRole('status', { name: 'Samples loaded' });
    await status.waitFor();
    const text = (await status.textContent()) ?? '';
    const [, count = '0'] = /(\d+) samples/.exec(text) ?? [];
    const first = apiCalls.slice(before).find((call) => call.endpoint === 'getGatewayPerformance');
    if (!first) throw new Error('no performance request was recorded');
    return { page, first, count: Number(count) };
  }

  it('loads a range larger than the page size whole, in several requests', async () => {
    const before = apiCalls.length;
    const { page, first, count } = await showGatewaySeries(50);
    const requests = apiCalls.slice(before).filter((call) => call.endpoint === 'getGatewayPerformance');
    expect(requests.length).toBeGreaterThan(1);
    const { startMs, stopMs } = first.query as { startMs: number; stopMs: number };
    const whole = await fetchFromSimulator<unknown[]>(
      `/api/gateway/${onlineGatewayId()}/performance/system/cpuUsage?startMs=${startMs}&stopMs=${stopMs}&order=ASC&limit=1000`,
    );
    expect(whole.length).toBeGreaterThan(50);
    expect(count).toBe(whole.length);
    expect(await page.getByRole('status', { name: 'Samples loaded' }).textContent()).toContain(
      `in ${requests.length} requests`,
    );
    await page.getByRole('img', { name: `Processor load of ${onlineGatewayId()}` }).waitFor();
  });

  it('exports the loaded samples as CSV, one line per sample as the API gives them', async () => {
    const { page, first } = await showGatewaySeries(1000);
    const { startMs, stopMs } = first.query as { startMs: number; stopMs: number };
    const whole = await fetchFromSimulator<Array<{ timeMs: number; value: number }>>(
      `/api/gateway/${onlineGatewayId()}/performance/system/cpuUsage?startMs=${startMs}&stopMs=${stopMs}&order=ASC&limit=1000`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^system-cpuUsage-.*\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('timeMs,isoTime,value');
    expect(lines.slice(1)).toEqual(
      whole.map((sample) => `${sample.timeMs},${new Date(sample.timeMs).toISOString()},${sample.value}`),
    );
  });

  it('refuses an empty measurement next to the field and sends nothing', async () => {
    const page = await open(`#/telemetry/gateway/${onlineGatewayId()}/system/cpuUsage/1h`);
    await page.getByRole('status', { name: 'Samples loaded' }).waitFor();
    const form = page.getByRole('form', { name: 'Telemetry series' });
    await form.getByLabel('Measurement', { exact: true }).fill('');
    const before = apiCalls.length;
    await form.getByRole('button', { name: 'Show chart' }).click();
    await form.getByText('measurement must not be empty').waitFor();
    expect(apiCalls.length).toBe(before);
  });
});

describe('more of the telemetry and events views', () => {
  it('draws one series per tag combination for an aggregated query with showTags', async () => {
    const customerId = firstCustomerId();
    const page = await open(`#/telemetry/customer/${customerId}/system/cpuUsage/1h/gatewayId/1000`);
    await page.getByRole('status', { name: 'Samples loaded' }).waitFor();
    const first = callsTo('getCustomerPerformance').at(-1)!;
    expect(first.query?.showTags).toBe('gatewayId');
    const { startMs, stopMs } = first.query as { startMs: number; stopMs: number };
    const samples = await fetchFromSimulator<Array<{ tags?: Record<string, string> }>>(
      `/api/gatewayPerformance/customer/${customerId}/system/cpuUsage?startMs=${startMs}&stopMs=${stopMs}&order=ASC&limit=100000&showTags=gatewayId`,
    );
    const gatewayIds = new Set(samples.map((sample) => sample.tags?.gatewayId));
    expect(gatewayIds.size).toBeGreaterThan(1);
    // uPlot's legend: one row for the time axis, then one per series.
    const legendRows = page.locator('.u-legend .u-series');
    await expect.poll(() => legendRows.count()).toBe(gatewayIds.size + 1);
  });

  it('exports the chart as a PNG image', async () => {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE')!;
    const page = await open(`#/telemetry/gateway/${gateway.id}/system/temperature/6h/-/1000`);
    await page.getByRole('img', { name: `Temperature of ${gateway.id}` }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PNG' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.png$/);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('asks the per-entity endpoint with entity type, id and category in the path', async () => {
    const gateway = simulator.fixture.gateways[0]!;
    const page = await open('#/events/entity');
    const form = page.getByRole('form', { name: 'Event filters' });
    await form.getByLabel('Entity type').selectOption('GATEWAY');
    await form.getByLabel('Entity id').fill(gateway.id);
    await form.getByLabel('Category').selectOption('Faults');
    await form.getByLabel('Page size').fill('9');
    await form.getByRole('button', { name: 'Show events' }).click();
    await expect
      .poll(() => callsTo('listEntityEnhancedEvents').at(-1)?.params)
      .toEqual({ entityType: 'GATEWAY', entityId: gateway.id, eventType: 'Faults' });
    expect(callsTo('listEntityEnhancedEvents').at(-1)?.query).toMatchObject({ limit: 9, page: 0 });
    await page.getByRole('status', { name: 'Event count' }).waitFor();
  });

  it('gives every control of the three views an accessible name', async () => {
    const namedRoles =
      'button|textbox|combobox|link|radio|checkbox|listbox|spinbutton|switch|slider|searchbox|tab';
    const unnamed = new RegExp(`^\\s*- (${namedRoles})(\\s*\\[[^\\]]*\\])*\\s*:?\\s*$`);
    for (const hash of [`#/devices/customer/${firstCustomerId()}/all`, '#/events/all', '#/telemetry']) {
      const page = await open(hash);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const tree = await page.locator('main').ariaSnapshot();
      expect(tree.split('\n').filter((line) => unnamed.test(line))).toEqual([]);
    }
  });
});

describe('zoom and sub-customers', () => {
  it('zooms in on a dragged span and shows the whole range again on double-click', async () => {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE')!;
    const page = await open(`#/telemetry/gateway/${gateway.id}/system/ramUsage/24h/-/1000`);
    await page.getByRole('img', { name: `Memory use of ${gateway.id}` }).waitFor();
    const overlay = page.locator('.u-over');
    const box = (await overlay.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
    await page.mouse.up();
    await page.getByText('Zoomed in').waitFor();
    await overlay.dblclick();
    await page.getByText('Drag across the chart to zoom in').waitFor();
  });

  it('lists a sub-customer named in the address through the sub-customer endpoint', async () => {
    const subCustomer = simulator.fixture.customers.flatMap((customer) => customer.subCustomers)[0];
    if (!subCustomer) throw new Error('the demo tenant has no sub-customer');
    const page = await open(`#/devices/subCustomer/${subCustomer.id}/all`);
    await page.getByLabel('Device counts').waitFor();
    expect(callsTo('listSubCustomerDevices').at(-1)).toEqual({
      endpoint: 'listSubCustomerDevices',
      params: { subCustomerId: subCustomer.id },
      query: {},
    });
    const list = await fetchFromSimulator<{ totalElements: number }>(
      `/api/subCustomer/${subCustomer.id}/devices`,
    );
    expect(await page.getByLabel('Device counts').textContent()).toContain(`${list.totalElements} devices`);
  });

  it('lists a customer added by its id in the picker, with no id typed anywhere else', async () => {
    const subCustomer = simulator.fixture.customers.flatMap((customer) => customer.subCustomers)[1];
    if (!subCustomer) throw new Error('the demo tenant has no second sub-customer');
    const page = await open('#/devices');
    const picker = page.getByRole('group', { name: 'Whose devices' });
    await picker
      .getByRole('combobox', { name: 'Customer', exact: true })
      .selectOption({ label: 'Add a customer by id or link…' });
    await picker.getByRole('textbox', { name: 'Customer id or link' }).fill(subCustomer.id);
    await picker.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Device counts').waitFor();
    expect(callsTo('listCustomerDevices').at(-1)).toEqual({
      endpoint: 'listCustomerDevices',
      params: { customerId: subCustomer.id },
      query: {},
    });
    const chosen = picker.getByRole('combobox', { name: 'Customer', exact: true }).locator('option:checked');
    await expect.poll(() => chosen.textContent()).toBe(subCustomer.name);
  });
});

describe('telemetry loading progress', () => {
  it('shows progress while paging through a long range and stops when cancelled', async () => {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE')!;
    const before = apiCalls.length;
    // Two samples a request over 7 days: about 2,000 requests, long enough to press Cancel in the middle.
    const page = await open(`#/telemetry/gateway/${gateway.id}/system/diskUsage/7d/-/2`);
    const progress = page.getByRole('status', { name: 'Loading progress' });
    await expect.poll(async () => /([1-9]\d*) samples/.test((await progress.textContent()) ?? '')).toBe(true);
    await page.getByRole('button', { name: 'Cancel loading' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Loading stopped');
    const sent = apiCalls.slice(before).filter((call) => call.endpoint === 'getGatewayPerformance').length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(2000);
    expect(await page.getByRole('button', { name: 'Cancel loading' }).count()).toBe(0);
  });
});

describe('devices view for a customer user', () => {
  it("opens on the user's own customer and explains a 403 for another customer in words", async () => {
    const { page } = browser;
    const customerAccount = simulator.fixture.accounts.find((account) => account.role === 'CUSTOMER_USER');
    if (!customerAccount) throw new Error('the demo tenant has no customer user');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page
      .getByRole('button', {
        name: demoAccountButtonName(`Use ${customerAccount.username} (${customerAccount.role})`),
      })
      .click();
    await page.getByRole('radio', { name: "Don't remember me", exact: true }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Devices' }).click();
    await page.getByLabel('Device counts').waitFor();
    const ownCustomerId = customerAccount.customerId;
    const ownCustomer = simulator.fixture.customers.find((customer) => customer.id === ownCustomerId)!;
    const chosen = page.getByRole('combobox', { name: 'Customer', exact: true }).locator('option:checked');
    await expect.poll(() => chosen.textContent()).toBe(`${ownCustomer.name} (your customer)`);
    expect(callsTo('listCustomerDevices').at(-1)?.params).toEqual({ customerId: ownCustomerId });
    // Shown in place: the address is not rewritten, so Back does not bounce.
    expect(page.url()).toMatch(/#\/devices$/);

    const otherCustomer = simulator.fixture.customers.find((customer) => customer.id !== ownCustomerId)!;
    await open(`#/devices/customer/${otherCustomer.id}/all`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Could not load the devices: your account has no access to it');
  });
});

// Last in the file: the fake clock stays installed in the browser context from here on.
describe('events auto-refresh', () => {
  it('reloads the list every 30 s until auto-refresh is switched off', async () => {
    const { page } = browser;
    await page.clock.install();
    await open('#/events/raised');
    await page.reload();
    await page.getByRole('status', { name: 'Event count' }).waitFor();
    const raisedCalls = () => callsTo('listRaisedEnhancedEvents').length;
    const before = raisedCalls();
    await page.clock.runFor(30_000);
    await expect.poll(raisedCalls).toBe(before + 1);

    await page.getByRole('checkbox', { name: 'Refresh every 30 s' }).uncheck();
    await page.clock.runFor(90_000);
    // A manual load after the fake minutes proves the page was listening; the timer added nothing before it.
    await page.getByRole('button', { name: 'Show events' }).click();
    await expect.poll(raisedCalls).toBe(before + 2);
  });
});
