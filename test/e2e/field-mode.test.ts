import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { CREDENTIAL_SERVICE, refreshTokenAccount } from '../../electron/services/credentials';
import { PROBE_SCRIPT, typeInTerminal, waitForTerminalText } from '../bench/terminal-rig';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../helpers/socat';
import { ownKeychain } from './support/own-keychain';
import { ensureRendererBuilt } from './support/renderer-build';

// Field mode end to end with NO server process at all: Chromium → browser host → TerminalManager → a socat pty,
// first with an empty data folder, then with a profile whose server refuses connections.

const SILENT_LOG = { info: () => undefined, error: () => undefined };

let rendererDir: string;
let browser: BrowserSession;
let socat: SocatPair;
let gatewayEnd: RawPortEnd;
let dataDir: string;
let host: StartedHost | undefined;

/** A loopback port nothing listens on (a server that refuses connections). */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  browser = await launchBrowser();
  await browser.page.addInitScript(PROBE_SCRIPT);
  socat = await startSocatPair();
  gatewayEnd = await openRawEnd(socat.pathB);
}, 120_000);

afterAll(async () => {
  await gatewayEnd?.close();
  await socat?.cleanup();
  await browser?.close();
});

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-field-mode-'));
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** From the first screen: "Open a serial console" → the socat pty → bytes both ways, with no sign-in. */
async function openSerialConsoleWithoutSigningIn(marker: string): Promise<void> {
  const { page } = browser;
  await page.getByRole('button', { name: 'Open a serial console' }).click();
  const dialog = page.getByRole('dialog', { name: 'Serial console' });
  await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
  await dialog.getByRole('textbox', { name: 'Path' }).fill(socat.pathA);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await dialog.waitFor({ state: 'detached' });
  await gatewayEnd.write(`\r\nBusyBox v1.36 ${marker} login: `);
  await waitForTerminalText(page, `${marker} login:`);
  await typeInTerminal(page, `root-${marker}\r`);
  await gatewayEnd.waitForText(`root-${marker}\r`);
  expect(await page.getByText('Field mode: not signed in').count()).toBe(1);
  // Its session log is listed, with no server either.
  await page.getByText('Session logs of this run').click();
  await page.getByRole('listitem').filter({ hasText: 'still open' }).filter({ hasText: '.log' }).waitFor();
}

describe('field mode with no server', () => {
  it('opens a serial console on first start with an empty data folder, without signing in', async () => {
    host = await startHost({ dataDir, rendererDir, credentials: ownKeychain(), log: SILENT_LOG });
    await browser.page.goto(host.url);
    // The first start asks for a server profile, and offers the serial console beside it.
    await browser.page.getByRole('heading', { name: 'Add a server profile' }).waitFor();
    await openSerialConsoleWithoutSigningIn('first-start');
  }, 60_000);

  it('offers the serial console at once when the remembered profile’s server refuses connections', async () => {
    const credentials = ownKeychain();
    host = await startHost({ dataDir, rendererDir, credentials, log: SILENT_LOG });
    const profile = await host.services.profiles.save({
      name: 'Rooftop server',
      baseUrl: `http://127.0.0.1:${await refusingPort()}`,
    });
    await host.services.profiles.select(profile.id);
    await credentials.store.set(CREDENTIAL_SERVICE, refreshTokenAccount(profile.id), 'remembered-token');
    await browser.page.goto(host.url);
    await browser.page.getByRole('button', { name: 'Open a serial console' }).waitFor();
    await browser.page.getByText(/Your remembered session could not be resumed/).waitFor();
    await openSerialConsoleWithoutSigningIn('refused');
    // Reverse SSH needs the server: greyed, with the reason.
    expect(await browser.page.getByRole('button', { name: 'Reverse SSH to a gateway' }).isDisabled()).toBe(
      true,
    );
    await browser.page.getByText(/Reverse SSH needs the server/).waitFor();
  }, 60_000);
});
