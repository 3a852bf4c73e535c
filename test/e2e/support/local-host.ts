import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost, type StartedHost, type StartHostOptions } from '../../../electron/host/start-host';
import { MemoryStore } from '../../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../../helpers/browser';
import { ensureRendererBuilt } from './renderer-build';

/** A browser host (no server behind it, or the in-process demo server), its own data folder, and Chromium at 1280×720. */
export interface LocalHostRig {
  dataDir: string;
  host: StartedHost;
  browser: BrowserSession;
  /** Closes the browser and the host and removes the data folder. */
  close(): Promise<void>;
}

const SILENT_LOG = { info: () => undefined, error: () => undefined };

/**
 * Starts the browser host with a session-only keychain, in a fresh data folder named after `name`, and Chromium at
 * 1280×720: without a server (the technician works in field mode), or with `demo` the in-process demo server
 * (`--demo`) built with `simulator`'s options, which the test reaches through `host.simulator`.
 */
export async function startLocalHost(
  name: string,
  server: Pick<StartHostOptions, 'demo' | 'simulator'> = {},
): Promise<LocalHostRig> {
  const rendererDir = await ensureRendererBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), `fieldkit-e2e-${name}-`));
  const host = await startHost({
    ...server,
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: SILENT_LOG,
  });
  const browser = await launchBrowser();
  await browser.page.setViewportSize({ width: 1280, height: 720 });
  return {
    dataDir,
    host,
    browser,
    async close() {
      await browser.close();
      await host.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
