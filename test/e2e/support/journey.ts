import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { demoProfileFields } from '../../../electron/app/demo-terminals';
import { startHost, type StartedHost, type StartHostOptions } from '../../../electron/host';
import { CREDENTIAL_SERVICE } from '../../../electron/services/credentials';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { demoAccountButtonName } from './login-page';
import { launchBrowser, type BrowserSession } from '../../helpers/browser';
import { ensureRendererBuilt } from './renderer-build';

/** Access-token lifetime of the journey's simulator (seconds), as issue 3 asks (`--access-ttl 3`). */
export const ACCESS_TTL_SECONDS = 3;
/** Refresh-token lifetime: long enough to refresh once, short enough to expire within the test. */
export const REFRESH_TTL_SECONDS = 8;

/** One WebSocket frame between renderer and main. */
export interface RecordedFrame {
  direction: 'renderer→main' | 'main→renderer';
  payload: string;
}

/** The running pieces of a journey: the simulator, the host against it, Chromium with frame recording. */
export interface JourneyRig {
  simulator: RunningSimulator;
  host: StartedHost;
  browser: BrowserSession;
  page: Page;
  frames: RecordedFrame[];
  /** Every access and refresh token the simulator issued during the run. */
  issuedTokens: string[];
  /** Console errors and uncaught exceptions of the page (a CSP violation shows up here too). */
  pageErrors: string[];
  close(): Promise<void>;
}

const SILENT_LOG = { info: () => undefined, error: () => undefined };

/** startHost's options but the folders startDemoHost makes itself, and where the demo profile finds the server. */
export interface DemoHostOptions extends Omit<
  StartHostOptions,
  'dataDir' | 'rendererDir' | 'demo' | 'simulator'
> {
  /** The server's address in the demo profile: the simulator's, unless a proxy stands in front of it. */
  baseUrl?: string;
}

/** A browser host started by startDemoHost. */
export interface DemoHost {
  host: StartedHost;
  /** Stops the host and deletes its data folder. */
  close(): Promise<void>;
}

/**
 * Builds the renderer when it is stale and starts the browser host on a fresh data folder (quiet unless `log` is
 * given), with `simulator` as its selected demo profile: what `--demo` does with the simulator it starts itself,
 * done with one the test can look behind.
 */
export async function startDemoHost(
  simulator: RunningSimulator,
  { baseUrl, ...options }: DemoHostOptions = {},
): Promise<DemoHost> {
  const rendererDir = await ensureRendererBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-data-'));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  let host: StartedHost;
  try {
    host = await startHost({ log: SILENT_LOG, ...options, dataDir, rendererDir });
  } catch (error) {
    await removeDataDir();
    throw error;
  }
  host.services.profiles.setDemoProfile(
    { ...demoProfileFields(simulator), ...(baseUrl === undefined ? {} : { baseUrl }) },
    { select: true },
  );
  return {
    host,
    async close() {
      await host.close();
      await removeDataDir();
    },
  };
}

/**
 * Starts the simulator with short token lifetimes, the browser host with a fresh data folder and the simulator
 * as its demo profile, and Chromium recording every WebSocket frame in both directions.
 */
export async function startJourneyRig(): Promise<JourneyRig> {
  await keytar.findCredentials(CREDENTIAL_SERVICE).catch((error: unknown) => {
    throw new Error(
      `No Secret Service keyring answered (${String(error)}): run the end-to-end tests under ` +
        '`dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/e2e`.',
    );
  });
  const simulator = await startSimulator({ accessTtl: ACCESS_TTL_SECONDS, refreshTtl: REFRESH_TTL_SECONDS });
  const issuedTokens: string[] = [];
  const tokenService = simulator.world.tokens;
  const login = tokenService.login.bind(tokenService);
  const refresh = tokenService.refresh.bind(tokenService);
  tokenService.login = async (username, password) => {
    const pair = await login(username, password);
    issuedTokens.push(pair.token, pair.refreshToken);
    return pair;
  };
  tokenService.refresh = async (refreshToken) => {
    const pair = await refresh(refreshToken);
    issuedTokens.push(pair.token, pair.refreshToken);
    return pair;
  };

  // The test's own simulator, so that it sees the tokens issued.
  const demoHost = await startDemoHost(simulator);
  const browser = await launchBrowser();
  const frames: RecordedFrame[] = [];
  const pageErrors: string[] = [];
  browser.page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  browser.page.on('pageerror', (error) => pageErrors.push(error.message));
  browser.page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) =>
      frames.push({ direction: 'renderer→main', payload: String(payload) }),
    );
    socket.on('framereceived', ({ payload }) =>
      frames.push({ direction: 'main→renderer', payload: String(payload) }),
    );
  });

  return {
    simulator,
    host: demoHost.host,
    browser,
    page: browser.page,
    frames,
    issuedTokens,
    pageErrors,
    async close() {
      await browser.close();
      await demoHost.close();
      await simulator.close();
      await keytar
        .findCredentials(CREDENTIAL_SERVICE)
        .then((entries) =>
          Promise.all(entries.map((entry) => keytar.deletePassword(CREDENTIAL_SERVICE, entry.account))),
        );
    },
  };
}

/** The keychain entries Field Kit holds now (account names and secrets). */
export function readKeychain(): Promise<{ account: string; password: string }[]> {
  return keytar.findCredentials(CREDENTIAL_SERVICE);
}

/** The last session summary main sent the renderer (a login answer or a `session:changed` event). */
export function lastSessionSummary(frames: RecordedFrame[]): { accessExpiresAt: number; state: string } {
  for (const frame of [...frames].reverse()) {
    if (frame.direction !== 'main→renderer') continue;
    const message = JSON.parse(frame.payload) as {
      event?: string;
      payload?: unknown;
      result?: { ok: boolean; value?: unknown };
    };
    const candidate = message.event === 'session:changed' ? message.payload : message.result?.value;
    if (
      typeof candidate === 'object' &&
      candidate !== null &&
      'accessExpiresAt' in candidate &&
      'state' in candidate
    )
      return candidate as { accessExpiresAt: number; state: string };
  }
  throw new Error('main never sent a session summary');
}

/** Waits, in the page, until the wall clock passes `deadline` (ms since the epoch). */
export async function waitUntil(page: Page, deadline: number): Promise<void> {
  await page.waitForFunction((until) => Date.now() > until, deadline, {
    polling: 200,
    timeout: Math.max(1000, deadline - Date.now() + 5000),
  });
}

/** Logs in to the demo profile through the login form, as the first account of the demo tenant. */
export async function signInToDemo(
  rig: JourneyRig,
  remember: string,
): Promise<{ username: string; password: string }> {
  const { page } = rig;
  const account = rig.simulator.fixture.accounts[0];
  if (!account) throw new Error('the demo tenant has no account');
  await page
    .getByRole('button', { name: demoAccountButtonName(`Use ${account.username} (${account.role})`) })
    .click();
  await page.getByRole('radio', { name: remember, exact: true }).check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  expect(await page.getByRole('region', { name: 'Session' }).textContent()).toContain(account.username);
  return account;
}
