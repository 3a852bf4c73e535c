import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { signIn } from './support/login-page';
import { ensureRendererBuilt } from './support/renderer-build';

// Interrupted is not unreachable (issue 29, part 3): the simulator carries out every gateway write and then cuts
// the connection without an answer (--drop-after-rate 1). The console says the change may have been taken, offers
// to read it back in place, and the form keeps what was typed.

const SILENT_LOG = { info: () => undefined, error: () => undefined };

let host: StartedHost;
let browser: BrowserSession;
let page: Page;
let dataDir: string;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-interrupted-'));
  host = await startHost({
    demo: true,
    simulator: { dropAfterRate: 1, offlineFraction: 0 },
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: SILENT_LOG,
  });
  browser = await launchBrowser({ windowSize: { width: 1280, height: 720 } });
  page = browser.page;
  await signIn(page, host.url, /^Use .*PROVIDER_USER/);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a change whose connection drops after it was sent', () => {
  it('says it was interrupted, offers Read it back in place, and the form keeps its values', async () => {
    const providerId = host.services.sessions.summary()?.providerId ?? '';
    const listed = (await host.services.sessions.requireSession().call('listProviderGateways', {
      params: { providerId },
      query: { limit: 1, page: 0, sortField: 'NAME', sortDirection: 'ASC' },
    })) as { data: Array<{ id: { id: string } }> };
    const gatewayId = listed.data[0]!.id.id;
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/console`), gatewayId);
    await page
      .getByRole('navigation', { name: 'Commands' })
      .getByRole('button', { name: / setPreferredPingIpAddress$/ })
      .click();
    const form = page.getByRole('form', { name: 'Run “Set the WAN check address”' });
    const address = form.getByRole('textbox').first();
    await address.fill('9.9.9.9');
    await form.getByRole('button', { name: 'Run', exact: true }).click();

    const interrupted = page.getByRole('alert', { name: 'Interrupted' });
    await interrupted.waitFor();
    const said = (await interrupted.textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(said).toMatch(
      /dropped after the request was sent — the gateway may have the change; read it back/,
    );
    expect(said).not.toMatch(/could not be reached/i);
    expect(await address.inputValue()).toBe('9.9.9.9');
    await page.screenshot({ path: join(tmpdir(), 'fieldkit-command-interrupted.png') });

    await interrupted.getByRole('button', { name: 'Read it back: “Read the WAN check address”' }).click();
    await page.getByText('Read back after the connection of “Set the WAN check address” dropped').waitFor();
    const answer = page.getByRole('table', { name: 'Answer of “Read the WAN check address”' });
    await answer.getByRole('cell', { name: '9.9.9.9' }).waitFor();
    expect(await address.inputValue()).toBe('9.9.9.9');
  });
});
