import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host';
import { startSimulator, type RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { ensureRendererBuilt } from './support/renderer-build';

// The devices, events and telemetry views in Chromium, through the browser host and the simulator (default
// token lifetimes, so the session outlives the file). Every `api:call` the renderer sends is recorded from the
// WebSocket, so a test can say which request a control produced.

interface ApiCallInput {
  endpoint: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

let simulator: RunningSimulator;
let host: StartedHost;
let browser: BrowserSession;
let dataDir: string;
let token: string;
let baseUrl: string;
const apiCalls: ApiCallInput[] = [];

const SILENT_LOG = { info: () => undefined, error: () => undefined };

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-views-'));
  simulator = await startSimulator({});
  host = await startHost({ dataDir, rendererDir, log: SILENT_LOG });
  host.services.profiles.setDemoProfile(
    {
      name: 'Demo network server',
      baseUrl: simulator.url,
      demoAccounts: simulator.fixture.accounts.map(({ username, password, role }) => ({
        username,
        password,
        role,
      })),
    },
    { select: true },
  );
  browser = await launchBrowser();
  browser.page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { channel?: string; input?: ApiCallInput };
      if (message.channel === 'api:call' && message.input) apiCalls.push(message.input);
    });
  });
  const account = simulator.fixture.accounts[0]!;
  const { page } = browser;
  await page.goto(host.url);
  await page.getByRole('button', { name: `Use ${account.username} (${account.role})` }).click();
  await page.getByRole('radio', { name: "Don't remember me", exact: true }).check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  baseUrl = page.url().split('#')[0]!;
  token = (await simulator.world.tokens.login(account.username, account.password)).token;
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await simulator?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
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
    expect(await firstRow.textContent()).toMatch(/never|ago|just now/);
  });

  it('explains a customer that does not exist in words', async () => {
    const page = await open('#/devices/customer/no-such-customer/all');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('This customer no longer exists');
  });
});
