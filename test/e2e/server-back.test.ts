import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import type { RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { passwordOf, startTestSimulator } from '../helpers/simulator';
import { TcpRelay } from '../helpers/tcp-relay';
import { ownKeychain } from './support/own-keychain';
import { ensureRendererBuilt } from './support/renderer-build';

// Back online (issue 29): the simulator sits behind a TCP relay that stops (the server goes away) and starts
// again on the same port. Field mode with the server away says so in the banner and the header alike, notices the
// server answering again by its quiet checks, by "Check now" and by the OS's "online" event, and the sign-in
// dialog is a modal dialog saying the same thing, with the focus in the first empty field; the header follows a
// rename of the profile.

const SILENT_LOG = { info: () => undefined, error: () => undefined };
/** The screenshots' window size (the issue's laptop). */
const WINDOW = { width: 1280, height: 720 };
/** A check interval no test waits out: what changes on screen then came from "Check now" or the OS's event. */
const NEVER_MS = 60 * 60_000;

let rendererDir: string;
let dataDir: string;
let browser: BrowserSession;
let page: Page;
let simulator: RunningSimulator;
let relay: TcpRelay;
let host: StartedHost | undefined;

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  browser = await launchBrowser({ windowSize: WINDOW });
  page = browser.page;
  simulator = await startTestSimulator();
  relay = new TcpRelay(Number(new URL(simulator.url).port));
  await relay.start();
  await relay.stop();
}, 120_000);

afterEach(async () => {
  await host?.close();
  host = undefined;
  await relay.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

afterAll(async () => {
  await browser?.close();
  await simulator?.close();
});

/** A host whose selected profile is the relayed simulator, with the acme user name kept; the relay is stopped. */
async function startFieldHost(serverCheckIntervalMs?: number): Promise<StartedHost> {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-server-back-'));
  const started = await startHost({
    dataDir,
    rendererDir,
    credentials: ownKeychain(),
    log: SILENT_LOG,
    serverCheckIntervalMs,
  });
  const profile = await started.services.profiles.save({
    name: 'Acme OAM',
    baseUrl: `http://127.0.0.1:${relay.port}`,
    username: passwordOf(simulator, 'acme').username,
  });
  await started.services.profiles.select(profile.id);
  return started;
}

/** Opens the app with the server away and works without signing in. */
async function enterFieldMode(url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Work without signing in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

const banner = () => page.locator('.shell').getByRole('status', { name: 'Server' });
const header = () => page.locator('header');

describe('back online', () => {
  it('says the server does not answer, then that it answers within a check interval of its return', async () => {
    host = await startFieldHost();
    await enterFieldMode(host.url);
    await banner().getByText('Acme OAM does not answer.').waitFor({ timeout: 30_000 });
    expect(await header().textContent()).toContain('Acme OAM does not answer');
    await page.screenshot({ path: join(tmpdir(), 'fieldkit-server-away.png') });

    await relay.start();
    await banner().getByText('Acme OAM answers.').waitFor({ timeout: 30_000 });
    expect(await header().textContent()).toContain('Acme OAM answers');
    expect(await header().textContent()).not.toContain('does not answer');
  });

  it('checks at once on "Check now" and on the OS’s "online" event', async () => {
    host = await startFieldHost(NEVER_MS);
    await enterFieldMode(host.url);
    // Nothing checked yet: the network coming back (the OS's event) is a reason to look at once.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await banner().getByText('Acme OAM does not answer.').waitFor();

    await relay.start();
    await banner().getByRole('button', { name: 'Check now' }).click();
    await banner().getByText('Acme OAM answers.').waitFor();
  });

  it('signs in through a modal dialog with the focus in Password, saying what the banner says', async () => {
    host = await startFieldHost(NEVER_MS);
    await enterFieldMode(host.url);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.waitFor();
    expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
    // The user name is known (the profile keeps it): the first empty field is Password.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete')))
      .toBe('current-password');

    // Signing in while the server is away fails, saying so; once a check finds it answering, the dialog says
    // that, in the banner's words, and the older failure is gone.
    await page.keyboard.type(passwordOf(simulator, 'acme').password);
    await page.keyboard.press('Enter');
    await dialog
      .getByRole('alert')
      .getByText(/does not answer: it refused the connection/)
      .waitFor();
    await relay.start();
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await dialog.getByRole('status', { name: 'Server' }).getByText('Acme OAM answers.').waitFor();
    expect(await dialog.textContent()).not.toMatch(/Can't reach|refused/);
    expect(await banner().textContent()).toContain('Acme OAM answers.');
    await page.screenshot({ path: join(tmpdir(), 'fieldkit-sign-in-dialog.png') });

    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const sessionInHeader = page.getByRole('region', { name: 'Session' });
    await sessionInHeader.getByText('on Acme OAM').waitFor();

    // Renamed in Settings while signed in: the header follows the profile's current name.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Edit profile Acme OAM' }).click();
    await page.getByRole('textbox', { name: 'Profile name' }).fill('Acme north site');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await sessionInHeader.getByText('on Acme north site').waitFor();
  });
});
