import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import type { RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { passwordOf, startTestSimulator } from '../helpers/simulator';
import { TcpRelay } from '../helpers/tcp-relay';
import { ensureRendererBuilt } from './support/renderer-build';

// The shell as a technician met it in a walk of the app, signed in at 1280×720 with no system keychain (its badge
// shows) to a server behind a TCP relay that stops and starts: a modal dialog never stays open in a hidden view,
// the server's status follows the server on a view that sends no requests, a refused connection is worded as
// the server being down, and the header fits in every language with its badges and a long profile name.

const SILENT_LOG = { info: () => undefined, error: () => undefined };
const WINDOW = { width: 1280, height: 720 };
const PROFILE_NAME = 'Acme Water north region server';

let dataDir: string;
let simulator: RunningSimulator;
let relay: TcpRelay;
let host: StartedHost;
let browser: BrowserSession;
let page: Page;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  simulator = await startTestSimulator();
  relay = new TcpRelay(Number(new URL(simulator.url).port));
  await relay.start();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-shell-status-'));
  host = await startHost({
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: SILENT_LOG,
    serverCheckIntervalMs: 1_000,
    serverAnsweringCheckIntervalMs: 2_000,
  });
  const account = passwordOf(simulator, 'acme');
  const profile = await host.services.profiles.save({
    name: PROFILE_NAME,
    baseUrl: `http://127.0.0.1:${relay.port}`,
    username: account.username,
  });
  await host.services.profiles.select(profile.id);
  browser = await launchBrowser({ windowSize: WINDOW });
  page = browser.page;
  await page.setViewportSize(WINDOW);
  await page.goto(host.url);
  await page.locator('input[autocomplete="current-password"]').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await relay?.stop();
  await simulator?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const banner = () => page.locator('.shell').getByRole('status', { name: 'Server' });
/** Opens a view from the main navigation, as a technician does. */
async function openView(name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}
const currentView = () => page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');

describe('the shell', () => {
  it('keeps the view while a modal dialog is open, and closes a dialog whose view is hidden', async () => {
    await openView('Terminals');
    await page.getByRole('button', { name: 'Serial console', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.waitFor();
    // Alt+9 is the Site pack's shortcut: the dialog has the keyboard, and the view stays.
    await page.keyboard.press('Alt+9');
    expect(await currentView().textContent()).toBe('Terminals');
    expect(await dialog.isVisible()).toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'fieldkit-shell-dialog-alt9.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The view changed another way (the address): the hidden dialog is closed, and the page takes clicks.
    await page.getByRole('button', { name: 'Serial console', exact: true }).click();
    await dialog.waitFor();
    await page.evaluate(() => (location.hash = '#/site-pack'));
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog:modal') === null)).toBe(true);
    await page.getByRole('link', { name: 'Settings', exact: true }).click({ timeout: 5_000 });
    expect(await currentView().textContent()).toBe('Settings');
  });

  it('says the server does not answer on a quiet view, blames the server, and the "back" notice goes', async () => {
    await openView('Site pack');
    await relay.stop();
    // No request on this view: the checks while the server answered notice it.
    await banner().getByText(`${PROFILE_NAME} does not answer.`).waitFor({ timeout: 15_000 });
    expect(await page.locator('.shell > header').textContent()).not.toContain(`${PROFILE_NAME} answers`);
    await page.screenshot({ path: join(tmpdir(), 'fieldkit-shell-server-gone.png') });

    await openView('Devices');
    const failure = page.getByRole('alert').filter({ hasText: 'Could not load' }).first();
    await failure.waitFor();
    expect(await failure.textContent()).toMatch(/the server does not answer\. It refused the connection/);
    expect(await failure.textContent()).not.toContain("Check this laptop's network");
    await page.screenshot({ path: join(tmpdir(), 'fieldkit-shell-refused.png') });

    await relay.start();
    await banner().getByText(`${PROFILE_NAME} answers.`).waitFor({ timeout: 15_000 });
    // Said for a few seconds, then gone: an old "answers" would go untrue unseen.
    await banner().waitFor({ state: 'detached', timeout: 20_000 });
    expect(await page.locator('.shell > header').textContent()).not.toContain('answer');
  });
});
