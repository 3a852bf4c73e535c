import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium: `npx playwright install` cannot download browsers on these machines (DESIGN §8). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags that keep Chromium quiet, offline and deterministic in tests. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A running Chromium with one page; `close` ends it and deletes its profile directory. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Options of {@link launchBrowser}. */
export interface LaunchOptions {
  colorScheme?: 'light' | 'dark';
  /** How long one Playwright action or wait may take. */
  stepTimeoutMs?: number;
}

/** Default limit of one Playwright action or wait. */
export const DEFAULT_STEP_TIMEOUT_MS = 10_000;

/** Starts Chromium with a fresh user-data directory (no cookies, storage or cache from any earlier run). */
export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserSession> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'fieldkit-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
      colorScheme: options.colorScheme ?? 'light',
      timeout: 30_000,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  // Fail a step with its own message (what it waited for) well before the test's timeout would.
  context.setDefaultTimeout(options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
