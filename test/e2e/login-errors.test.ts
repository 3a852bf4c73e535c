import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host';
import { MemoryStore } from '../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { ensureRendererBuilt } from './support/renderer-build';

// The login screen's messages against the real browser host and its demo simulator: the host's error codes
// must lead to the words the technician needs. Secrets go to an in-memory store; the keychain is journey's.

let dataDir: string;
let host: StartedHost;
let browser: BrowserSession;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-login-'));
  host = await startHost({
    dataDir,
    rendererDir,
    demo: true,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: { info: () => undefined, error: () => undefined },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (it was free a moment ago and is closed again). */
async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

describe('login against the real host', () => {
  it('says the user name or password is wrong when the demo server refuses them', async () => {
    const { page } = browser;
    await page.goto(host.url);
    await page.getByRole('textbox', { name: 'User name' }).fill('tech@acme.demo');
    await page.getByLabel('Password', { exact: true }).fill('certainly-not-it');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Wrong user name or password').waitFor();
  });

  it('shows that nothing can be remembered when no keychain is available', async () => {
    const { page } = browser;
    await page.goto(host.url);
    await page.getByText('No keychain answered on this computer').waitFor();
    expect(await page.getByRole('radio', { name: 'Keep me signed in', exact: true }).isDisabled()).toBe(true);
  });

  it('saves a new profile through the form and names its server when it cannot be reached', async () => {
    const port = await findClosedPort();
    const { page } = browser;
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByRole('textbox', { name: 'Profile name' }).fill('Closed port');
    await page.getByRole('textbox', { name: 'Server address (base URL)' }).fill(`http://127.0.0.1:${port}`);
    await page.getByRole('textbox', { name: 'Default user name' }).fill('field@closed.example');
    await page.getByRole('button', { name: 'Save profile' }).click();

    const picker = page.getByRole('combobox', { name: 'Server profile' });
    await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Closed port');
    expect(await page.getByRole('textbox', { name: 'User name' }).inputValue()).toBe('field@closed.example');
    await page.getByLabel('Password', { exact: true }).fill('anything');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText(`Can't reach the server at http://127.0.0.1:${port}`).waitFor();
  });
});
