import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium: `npx playwright install` cannot download browsers on these machines. */
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
  /** The window's outer size in CSS pixels (default: Chromium's headless 800 × 600). */
  windowSize?: { width: number; height: number };
  /** The browser's language (`navigator.languages`), e.g. 'de-DE' (default: Chromium's, English). */
  locale?: string;
}

/**
 * Removes a Chromium user-data directory. Chromium's helper processes can still write to it for a moment after the
 * browser process exited (an rmdir then failed with ENOTEMPTY about once in six benchmark runs): rm retries.
 */
function removeUserDataDir(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
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
      ...(options.locale === undefined ? {} : { locale: options.locale }),
      timeout: 30_000,
    });
  } catch (error) {
    await removeUserDataDir(userDataDir);
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
      await removeUserDataDir(userDataDir);
    },
  };
}

/** A Chromium this process started with a DevTools port, driven by Playwright until `releasePlaywright()`. */
export interface DebuggableBrowserSession extends BrowserSession {
  /** The loopback port of Chromium's DevTools endpoint (for a bare CdpPage). */
  debuggingPort: number;
  /** Chromium's browser process; its renderers, GPU and network processes run under it. */
  pid: number;
  /** Disconnects Playwright, which stops its per-frame instrumentation; Chromium and its pages stay up. */
  releasePlaywright(): Promise<void>;
}

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/127\.0\.0\.1:(\d+)\/\S+)/;

/**
 * Starts Chromium with a DevTools port on 127.0.0.1 and connects Playwright to it, so a benchmark can set a page up
 * with Playwright and then measure it over a bare DevTools connection (see CdpPage).
 */
export async function launchDebuggableBrowser(
  options: LaunchOptions = {},
): Promise<DebuggableBrowserSession> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'fieldkit-chromium-'));
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_ARGS,
      ...(options.windowSize
        ? [`--window-size=${options.windowSize.width},${options.windowSize.height}`]
        : []),
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stopChromium = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await removeUserDataDir(userDataDir);
  };
  try {
    const endpoint = await new Promise<{ url: string; port: number }>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`Chromium printed no DevTools endpoint: ${output}`)),
        30_000,
      );
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = output.match(DEVTOOLS_LINE);
        if (match) {
          clearTimeout(timer);
          resolve({ url: match[1]!, port: Number(match[2]) });
        }
      });
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${output}`)));
    });
    const browser = await chromium.connectOverCDP(endpoint.url, { timeout: 30_000 });
    const context = browser.contexts()[0]!;
    context.setDefaultTimeout(options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS);
    const page = context.pages()[0] ?? (await context.newPage());
    if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
    let isReleased = false;
    const release = async () => {
      if (isReleased) return;
      isReleased = true;
      await browser.close().catch(() => undefined);
    };
    return {
      context,
      page,
      debuggingPort: endpoint.port,
      pid: child.pid!,
      releasePlaywright: release,
      async close() {
        await release();
        await stopChromium();
      },
    };
  } catch (error) {
    await stopChromium();
    throw error;
  }
}
