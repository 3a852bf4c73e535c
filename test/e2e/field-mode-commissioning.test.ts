import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host';
import { MemoryStore } from '../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { ensureRendererBuilt } from './support/renderer-build';

// A gateway's Diagnostics and wizard pages in field mode (nobody signed in): they say, in the app's one line,
// that they need the server, and offer to sign in; never a bare "Log in first."

let dataDir: string;
let host: StartedHost;
let browser: BrowserSession;
let gatewayId: string;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-field-commissioning-'));
  host = await startHost({
    dataDir,
    rendererDir,
    demo: true,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: { info: () => undefined, error: () => undefined },
  });
  gatewayId = host.simulator!.fixture.gateways[0]!.id;
  browser = await launchBrowser();
  await browser.page.setViewportSize({ width: 1280, height: 720 });
  await browser.page.goto(host.url);
  await browser.page.getByRole('button', { name: 'Work without signing in' }).click();
  await browser.page.getByRole('navigation', { name: 'Main' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a gateway's commissioning pages in field mode", () => {
  it('says Diagnostics needs the server and offers to sign in', async () => {
    const { page } = browser;
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/diagnostics`), gatewayId);
    const notice = page.locator('.needs-server');
    await notice.waitFor();
    expect((await notice.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      `Diagnostics of ${gatewayId} needs the server, and you are not signed in. Sign in`,
    );
    expect(await page.getByText('Log in').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reboot the gateway' }).count()).toBe(0);
  });

  it('names the wizard, and its Sign in opens the sign-in', async () => {
    const { page } = browser;
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/wizard/cellular`), gatewayId);
    const notice = page.locator('.needs-server');
    await notice.getByText(`Cellular modem and APN of ${gatewayId} needs the server`).waitFor();
    await notice.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
  });
});
