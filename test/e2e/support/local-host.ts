import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost, type StartedHost } from '../../../electron/host/start-host';
import { MemoryStore } from '../../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../../helpers/browser';
import { ensureRendererBuilt } from './renderer-build';

/** A browser host with no server behind it, its own data folder, and Chromium at 1280×720 on it. */
export interface LocalHostRig {
  dataDir: string;
  host: StartedHost;
  browser: BrowserSession;
  /** Closes the browser and the host and removes the data folder. */
  close(): Promise<void>;
}

const SILENT_LOG = { info: () => undefined, error: () => undefined };

/**
 * Starts the browser host without a server (the technician works in field mode) and a session-only keychain, in a
 * fresh data folder named after `name`, and Chromium at 1280×720.
 */
export async function startLocalHost(name: string): Promise<LocalHostRig> {
  const rendererDir = await ensureRendererBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), `fieldkit-e2e-${name}-`));
  const host = await startHost({
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
