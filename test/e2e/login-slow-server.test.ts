import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host';
import { MemoryStore } from '../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { openLoginScreen } from './support/login-page';
import { ensureRendererBuilt } from './support/renderer-build';

// Signing in to a slow server and to a failing one, through the browser host and its demo simulator started with
// the simulator's own fault settings (latency, 503 answers): what the technician reads while waiting, and after.

let rendererDir: string;
let dataDir: string;
let browser: BrowserSession;
let host: StartedHost | undefined;

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  browser = await launchBrowser();
}, 120_000);

afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

afterAll(async () => {
  await browser?.close();
});

async function startDemoHost(simulator: { latencyMs?: number; failRate?: number }): Promise<StartedHost> {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-slow-login-'));
  host = await startHost({
    dataDir,
    rendererDir,
    demo: true,
    simulator,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: { info: () => undefined, error: () => undefined },
  });
  return host;
}

describe('signing in to a slow or failing server', () => {
  it('says which server it is signing in to, and when it gives up, while the server is slow', async () => {
    const started = await startDemoHost({ latencyMs: 1_500 });
    const { page } = browser;
    await (await openLoginScreen(page, started.url, /^Use tech@acme\.demo/)).click();
    await page.getByRole('button', { name: 'Sign in' }).click();

    const waiting = page.getByRole('status').filter({ hasText: 'Signing in to' });
    await waiting.waitFor();
    expect(await waiting.textContent()).toMatch(
      /^\s*Signing in to Demo network server \(http:\/\/127\.0\.0\.1:\d+\)… If the server does not answer, this gives up\s+after 30 s\.\s*$/,
    );
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 60_000);

  it('says a server answering 503 could not sign the user in, not that it refused', async () => {
    const started = await startDemoHost({ failRate: 1 });
    const { page } = browser;
    await (await openLoginScreen(page, started.url, /^Use tech@acme\.demo/)).click();
    await page.getByRole('button', { name: 'Sign in' }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'sign' });
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toMatch(/^The server could not sign you in \(HTTP 503: .+\); try again\.$/);
    expect(text).not.toContain('refused');
  }, 60_000);
});
