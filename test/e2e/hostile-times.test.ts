import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import type { Gateway } from '../../electron/shared/api';
import type { RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { startRewritingProxy, type RewritingProxy } from '../helpers/rewriting-proxy';
import { customersOf, passwordOf, startTestSimulator } from '../helpers/simulator';
import { signIn } from './support/login-page';
import { ensureRendererBuilt } from './support/renderer-build';

// A server that names times no `Date` holds (issue 28: `lastSeenTime: 9e15` left the gateway page on "Loading
// gateway…" with uncaught RangeErrors): Chromium → browser host → a relay that sets every gateway's times to 9e15
// → the simulator, signed in as Acme's technician.

const HOSTILE_TIME = 9e15;

/** Sets lastSeenTime and createdTime of every gateway record in an answer (a page's `data` or one record). */
function withHostileTimes(answer: unknown): unknown {
  const isGateway = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && 'gatewayMac' in value;
  const hostile = (record: Record<string, unknown>) => ({
    ...record,
    lastSeenTime: HOSTILE_TIME,
    createdTime: HOSTILE_TIME,
  });
  if (isGateway(answer)) return hostile(answer);
  if (typeof answer === 'object' && answer !== null && Array.isArray((answer as { data?: unknown }).data)) {
    const page = answer as { data: unknown[] };
    return { ...page, data: page.data.map((item) => (isGateway(item) ? hostile(item) : item)) };
  }
  return answer;
}

let simulator: RunningSimulator;
let proxy: RewritingProxy;
let host: StartedHost;
let browser: BrowserSession;
let page: Page;
let dataDir: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-hostile-times-'));
  simulator = await startTestSimulator();
  proxy = await startRewritingProxy(simulator.url, withHostileTimes);
  host = await startHost({
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: { info: () => undefined, error: () => undefined },
  });
  host.services.profiles.setDemoProfile(
    {
      name: 'Demo network server',
      baseUrl: proxy.url,
      demoAccounts: simulator.fixture.accounts.map(({ username, password, role }) => ({
        username,
        password,
        role,
      })),
    },
    { select: true },
  );
  browser = await launchBrowser();
  page = browser.page;
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
  await page.setViewportSize({ width: 1280, height: 720 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await proxy?.close();
  await simulator?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a server naming times no Date holds', () => {
  it('lists the gateways and opens a gateway page with its times as unknown, without a page error', async () => {
    const acme = passwordOf(simulator, 'acme');
    await signIn(page, host.url, `Use ${acme.username} (CUSTOMER_USER)`);
    await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor();
    const firstRow = page.locator('[data-row-index="0"] a');
    await firstRow.waitFor();

    const listed = (await host.services.sessions.requireSession().call('listCustomerGateways', {
      params: { customerId: customersOf(simulator).acme.id },
      query: { limit: 1, page: 0, sortField: 'NAME', sortDirection: 'ASC' },
    })) as { data: Gateway[] };
    const gateway = listed.data[0]!;

    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), gateway.id.id);
    await page.getByRole('heading', { name: gateway.name, level: 2 }).waitFor();
    const lastSeen = page.locator('dt', { hasText: 'Last seen' }).locator('xpath=following-sibling::dd[1]');
    expect((await lastSeen.textContent())?.trim()).toBe('unknown time');
    expect(await page.getByText('Loading gateway…').count()).toBe(0);
    expect(proxy.rewritten).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
