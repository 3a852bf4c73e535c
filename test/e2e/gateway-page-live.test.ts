import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import type { Gateway } from '../../electron/shared/api';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { signIn } from './support/login-page';
import { ensureRendererBuilt } from './support/renderer-build';

declare global {
  interface Window {
    /** Set by the live-page test; gone after a reload, so still there means the page was never reloaded. */
    notReloaded?: boolean;
  }
}

// The gateway page follows the gateway as it is now: Chromium → browser host → the in-process simulator, whose
// gateways reboot in REBOOT_MS (--reboot-ms).

const SILENT_LOG = { info: () => undefined, error: () => undefined };
const REBOOT_MS = 6_000;

let host: StartedHost;
let browser: BrowserSession;
let page: Page;
let dataDir: string;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-gateway-live-'));
  host = await startHost({
    demo: true,
    simulator: { rebootMs: REBOOT_MS, offlineFraction: 0 },
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: SILENT_LOG,
  });
  browser = await launchBrowser();
  page = browser.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  await signIn(page, host.url, /^Use .*PROVIDER_USER/);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** An online gateway of the signed-in provider, as the API lists it. */
async function onlineGateway(): Promise<Gateway> {
  const providerId = host.services.sessions.summary()?.providerId ?? '';
  const answer = (await host.services.sessions.requireSession().call('listProviderGateways', {
    params: { providerId },
    query: { limit: 20, page: 0, sortField: 'NAME', sortDirection: 'ASC' },
  })) as { data: Gateway[] };
  const gateway = answer.data.find((candidate) => candidate.status === 'ONLINE');
  if (!gateway) throw new Error('no online gateway in the demo tenant');
  return gateway;
}

/** The page's title (name and status badge) and the line under it, as `title|line`. */
function headlineOf(name: string): Promise<string> {
  return page.evaluate((wanted) => {
    const title = [...document.querySelectorAll('h2')].find((heading) =>
      heading.textContent?.includes(wanted),
    );
    const line = document.querySelector('[data-testid="gateway-freshness"]');
    return `${title?.textContent?.trim() ?? ''}|${line?.textContent?.replace(/\s+/g, ' ').trim() ?? ''}`;
  }, name);
}

describe('the live gateway page', () => {
  it('a reboot from the console shows Offline and then Online on the open gateway page, no reload', async () => {
    const gateway = await onlineGateway();
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/console`), gateway.id.id);
    const title = page.getByRole('heading', { name: gateway.name, level: 2 });
    await title.waitFor();
    // The title says "reading status…" until the first status read answers.
    await expect.poll(() => title.textContent()).toContain('Online');
    // Gone after a reload: its presence at the end says the page was never reloaded.
    await page.evaluate(() => (window.notReloaded = true));

    await page.getByRole('navigation', { name: 'Commands' }).getByRole('button', { name: 'reboot' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Run “Restart the gateway”?' })
      .getByRole('button', { name: 'Run “Restart the gateway” now' })
      .click();

    await page.getByText('Done (the gateway returned no data).').waitFor();
    expect(await page.getByText('{0 fields}').count()).toBe(0);
    // The wait says what it waits for and the time left from its first second.
    await expect
      .poll(() => headlineOf(gateway.name))
      .toMatch(
        /\|Following “Restart the gateway”: waiting for the gateway to (go down|come back) — about .+ left \(gives up at .+\); status read every 2 s\.$/,
      );
    await page.getByTestId('gateway-freshness').screenshot({ path: '/tmp/fieldkit-reboot-wait.png' });
    // Badge and line read in one go: the page may see the gateway back at any moment after REBOOT_MS.
    await expect
      .poll(() => headlineOf(gateway.name), { timeout: 10_000 })
      .toMatch(/Offline\|Following “Restart the gateway”: waiting for the gateway to come back/);
    await expect.poll(() => title.textContent(), { timeout: REBOOT_MS + 15_000 }).toContain('Online');
    expect(await page.getByTestId('gateway-freshness').textContent()).toContain('read again every 10 s');
    expect(await page.evaluate(() => window.notReloaded)).toBe(true);
  }, 60_000);

  it("lists the reboot's shutdown alarm among the gateway's events of the last 24 hours", async () => {
    const events = page.getByRole('table', { name: 'Events of the last 24 hours' });
    await expect
      .poll(() => events.getByRole('cell', { name: 'Gateway shut down', exact: true }).count(), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
  }, 30_000);
});
