import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build, type Plugin } from 'vite';
import { startHost, type StartedHost } from '../../electron/host';
import type { CommissioningOptions } from '../../electron/app/domains/engines';
import type { SimulatorSettingsInput } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { openLoginScreen } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// The commissioning e2e tests drive the real renderer through the browser host and the simulator. Until the
// app's navigation gives the commissioning pages a view of their own, the test build mounts CommissioningView
// in the `integrations` view slot (a transform of main.ts in this build only), so these tests do not depend
// on another view's routing.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RENDERER_DIR = join(ROOT, 'renderer');
/** The view whose slot the test build gives to the commissioning pages. */
export const HARNESS_VIEW = 'commissioning';

const mountCommissioning: Plugin = {
  name: 'fieldkit-commissioning-harness',
  transform(code, id) {
    if (!id.endsWith('/renderer/src/main.ts')) return null;
    return [
      "import { VIEW_COMPONENTS as HARNESS_VIEWS } from './views/view-components';",
      "import HarnessCommissioningView from './views/wizards/CommissioningView.svelte';",
      `HARNESS_VIEWS['${HARNESS_VIEW}'] = HarnessCommissioningView;`,
      code,
    ].join('\n');
  },
};

/** Builds the renderer with the commissioning pages mounted (see above) into a fresh folder. */
export async function buildCommissioningRenderer(outDir: string): Promise<void> {
  await build({
    configFile: join(RENDERER_DIR, 'vite.config.ts'),
    logLevel: 'error',
    plugins: [mountCommissioning],
    build: { outDir, emptyOutDir: true },
  });
}

/** A running app: simulator inside the host (demo mode), Chromium logged in as the demo provider. */
export interface CommissioningApp {
  host: StartedHost;
  browser: BrowserSession;
  page: Page;
  baseUrl: string;
  dataDir: string;
  /** Opens a commissioning page: `['fleet']`, `['report']`, `[gatewayId, 'wizard', 'firewall']`… */
  open(path: string[]): Promise<Page>;
  close(): Promise<void>;
}

const SILENT_LOG = { info: () => undefined, error: () => undefined };

/** What startCommissioningApp takes: the simulator's settings and the engines' timings. */
export interface CommissioningAppOptions {
  simulator: SimulatorSettingsInput;
  timing: CommissioningOptions['timing'];
  stepTimeoutMs?: number;
  /**
   * The browser's language ('de-DE'): the app follows it once the language setting is "as this computer". The
   * sign-in below reads English words, so it signs in with the setting at English; the test chooses the setting.
   */
  locale?: string;
}

/** A simulator and engines with short timings: reboots, upgrades and waits take seconds, not minutes. */
export const SHORT_TIMINGS: CommissioningAppOptions = {
  simulator: { commandTimeoutMs: 300, rebootMs: 1_500, upgradeMs: 1_000, gateways: 40 },
  timing: {
    commandTimeoutMs: 5_000,
    verifyTimeoutMs: 4_000,
    gatewayReturnTimeoutMs: 8_000,
    waitInitialDelayMs: 100,
    waitMaxDelayMs: 400,
    pollIntervalMs: 250,
  },
};

/** Starts the host in demo mode with these simulator settings and engine timings, and logs in. */
export async function startCommissioningApp(options: CommissioningAppOptions): Promise<CommissioningApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-commissioning-'));
  const rendererDir = join(dataDir, 'renderer');
  let host: StartedHost | undefined;
  let browser: BrowserSession | undefined;
  try {
    await buildCommissioningRenderer(rendererDir);
    host = await startHost({
      port: 0,
      demo: true,
      simulator: options.simulator,
      dataDir,
      rendererDir,
      log: SILENT_LOG,
      credentials: ownKeychain(),
      commissioningTiming: options.timing,
    });
    browser = await launchBrowser({ stepTimeoutMs: options.stepTimeoutMs ?? 15_000, locale: options.locale });
    const { page } = browser;
    if (options.locale !== undefined) {
      await page.goto(host.url);
      await page.evaluate(() => localStorage.setItem('fieldKit.language', 'en'));
    }
    await (await openLoginScreen(page, host.url, /^Use provider@fieldkit\.demo/)).click();
    await page.getByRole('radio', { name: "Don't remember me", exact: true }).check();
    const navigation = page.getByRole('navigation', { name: 'Main' });
    // Under --fail-rate a sign-in can meet a simulated 503: sign in again, a bounded number of times.
    for (let attempt = 1; attempt <= 20 && (await navigation.count()) === 0; attempt++) {
      await page.getByRole('button', { name: 'Sign in' }).click();
      await Promise.race([navigation.waitFor(), page.getByRole('alert').first().waitFor()]);
    }
    await navigation.waitFor();
    const baseUrl = page.url().split('#')[0]!;
    const started = { host, browser };
    return {
      ...started,
      page,
      baseUrl,
      dataDir,
      async open(path) {
        // Through the view's index first, so opening the page already shown starts it afresh.
        await page.goto(`${baseUrl}#/${HARNESS_VIEW}`);
        await page.goto(`${baseUrl}#/${[HARNESS_VIEW, ...path.map(encodeURIComponent)].join('/')}`);
        return page;
      },
      async close() {
        await started.browser.close();
        await started.host.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await host?.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
