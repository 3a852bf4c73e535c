import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host';
import { MemoryStore } from '../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { makeSelfSignedCertificate } from '../helpers/self-signed-certificate';
import { ensureRendererBuilt } from './support/renderer-build';

// The login screen's messages against the real browser host and its demo simulator: the host's error codes
// must lead to the words the technician needs, and a self-signed server can be trusted by its fingerprint.
// Secrets go to an in-memory store here; the real keychain is journey.test.ts's.

let dataDir: string;
let host: StartedHost;
let browser: BrowserSession;
let proxy: HttpsServer | undefined;

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
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
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
    // Nothing listens there: the words blame the server, not the laptop's network.
    await page
      .getByRole('alert')
      .getByText(`The server at http://127.0.0.1:${port} does not answer: it refused the connection`)
      .waitFor();
  });
});

/**
 * Serves the demo simulator over HTTPS with a fresh self-signed certificate for 127.0.0.1 (what a customer's
 * server with its own certificate looks like). Returns the proxy's base URL and the certificate's fingerprint.
 */
async function startSelfSignedProxy(upstream: string): Promise<{ url: string; sha256: string }> {
  const { key, cert, fingerprint256 } = await makeSelfSignedCertificate('127.0.0.1');
  proxy = createHttpsServer({ key, cert }, (request, response) => {
    const forward = httpRequest(
      new URL(request.url ?? '/', upstream),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.writeHead(502).end());
    request.pipe(forward);
  });
  const server = proxy;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `https://127.0.0.1:${port}`, sha256: fingerprint256 };
}

describe('a server with a self-signed certificate', () => {
  it('shows the certificate’s fingerprint, trusts it when asked, and signs in', async () => {
    if (!host.simulatorUrl) throw new Error('the host started no demo simulator');
    const { url, sha256 } = await startSelfSignedProxy(host.simulatorUrl);
    const account = host.services.profiles.get('demo').demoAccounts?.[0];
    if (!account) throw new Error('the demo profile has no account');
    const { page } = browser;
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByRole('textbox', { name: 'Profile name' }).fill('Self-signed');
    await page.getByRole('textbox', { name: 'Server address (base URL)' }).fill(url);
    await page.getByRole('button', { name: 'Save profile' }).click();
    const picker = page.getByRole('combobox', { name: 'Server profile' });
    await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Self-signed');

    await page.getByRole('textbox', { name: 'User name' }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'certificate is not trusted' });
    await warning.getByText(sha256).waitFor();

    await page.getByRole('button', { name: 'Trust this certificate and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const saved = host.services.profiles.list().profiles.find((profile) => profile.name === 'Self-signed');
    expect(saved?.trustedCertificateSha256?.replace(/:/g, '').toUpperCase()).toBe(sha256.replace(/:/g, ''));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to OAM Field Kit' }).waitFor();
  });
});
