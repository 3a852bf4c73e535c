import { formatMac } from '../../electron/shared/mac';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import type { RunningSimulator } from '../../simulator';
import { PROBE_SCRIPT, typeInTerminal, waitForTerminalText } from '../bench/terminal-rig';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../helpers/socat';
import { customersOf, passwordOf, startTestSimulator } from '../helpers/simulator';
import { ownKeychain } from './support/own-keychain';
import { ensureRendererBuilt } from './support/renderer-build';

// The site pack end to end: prepared on the simulator through the UI; then the simulator stops and the host
// restarts, and the technician searches, opens a gateway and exports a report from the pack alone; then the
// simulator comes back on the same port and the session resumes by itself.

const SILENT_LOG = { info: () => undefined, error: () => undefined };
/** The quiet server check's interval here (the app's default is 30 s). */
const SERVER_CHECK_MS = 300;

let rendererDir: string;
let dataDir: string;
let browser: BrowserSession;
let simulator: RunningSimulator | undefined;
let host: StartedHost | undefined;
let socat: SocatPair;
let gatewayEnd: RawPortEnd;
const credentials = ownKeychain();

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-field-pack-'));
  browser = await launchBrowser();
  await browser.page.addInitScript(PROBE_SCRIPT);
  socat = await startSocatPair();
  gatewayEnd = await openRawEnd(socat.pathB);
  simulator = await startTestSimulator({ gateways: 60 });
}, 120_000);

afterAll(async () => {
  await gatewayEnd?.close();
  await socat?.cleanup();
  await browser?.close();
  await host?.close();
  await simulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function startFieldHost(): Promise<StartedHost> {
  return startHost({
    dataDir,
    rendererDir,
    credentials,
    log: SILENT_LOG,
    serverCheckIntervalMs: SERVER_CHECK_MS,
  });
}

describe('the site pack, offline', () => {
  it('is prepared online, searched, shown and reported offline, and the session resumes with its terminal when the server is back', async () => {
    const { page } = browser;
    const running = simulator!;
    const port = Number(new URL(running.url).port);
    const acme = customersOf(running).acme;
    const account = passwordOf(running, 'acme');

    host = await startFieldHost();
    const profile = await host.services.profiles.save({ name: 'Acme OAM', baseUrl: running.url });
    await host.services.profiles.select(profile.id);

    // Online: sign in, remembering the password, and prepare the pack of the customer's gateways.
    await page.goto(host.url);
    await page.getByRole('textbox', { name: 'User name' }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('radio', { name: 'Keep me signed in and remember my password' }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('link', { name: 'Site pack' }).click();
    // The scope is picked by name (the account's own customer first), not typed as an id.
    const scopePicker = page.getByRole('combobox', { name: 'Customer', exact: true });
    await expect
      .poll(() => scopePicker.locator('option:checked').textContent())
      .toBe(`${acme.name} (your customer)`);
    expect(await page.getByRole('textbox', { name: 'Gateway group id' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Prepare the site pack' }).click();
    await page.getByText(/^Done: \d+ gateways with details/).waitFor({ timeout: 60_000 });
    await page.getByText('Gateways in the list').waitFor();
    const packed = await host.services.sitePacks.get(profile.id);
    const gateways = packed!.pack.gateways;
    expect(gateways.length).toBeGreaterThan(10);
    expect(packed!.pack.scope).toEqual({ kind: 'customer', id: acme.id, name: acme.name });
    const summary = new RegExp(
      `^Site pack of ${acme.name} — ${gateways.length} gateways, [\\d.]+ [kM]?B, .*\\d{1,2}:\\d{2}`,
    );
    expect(await page.getByText(/^Site pack of /).textContent()).toMatch(summary);
    // Never searched nor opened online: the last gateway of the list.
    const target = gateways.at(-1)!;

    // The server goes away; the app starts again on the roof.
    await running.close();
    simulator = undefined;
    await host.close();
    host = await startFieldHost();
    await page.goto(host.url);
    await page.getByText(/Your remembered session could not be resumed/).waitFor();
    await page.getByRole('button', { name: 'Work without signing in' }).click();
    await page.getByRole('heading', { name: 'Site pack' }).waitFor();
    // No session: the pack is still named by what it stored.
    await page.getByText(/^Site pack of /).waitFor();
    expect(await page.getByText(/^Site pack of /).textContent()).toMatch(summary);
    await page.getByRole('link', { name: 'Gateways', exact: true }).click();
    await page.getByText(`${gateways.length} gateways`).waitFor();

    const search = page.getByRole('searchbox', { name: 'Search by name or MAC' });
    // Typed as printed on the label: with colons, in lower case.
    await search.fill(formatMac(target.gatewayMac).toLowerCase());
    await page.getByText('1 gateway', { exact: true }).waitFor();
    await page.getByRole('link', { name: target.name, exact: true }).click();
    await page.getByRole('heading', { name: target.name }).waitFor();
    const banner = page.getByRole('status', { name: 'Offline copy' });
    expect(await banner.textContent()).toMatch(/showing this gateway as of/);
    // The status is the pack's, of its time: no live green light.
    expect(await page.getByRole('heading', { name: target.name }).textContent()).toMatch(/as of \d/);
    await page.getByRole('heading', { name: 'From the site pack' }).waitFor();
    // Nothing refreshes in field mode: the CPU line says why it is missing and promises no refresh.
    const cpuError = page.getByTestId('cpu-error');
    await cpuError.waitFor();
    expect(await cpuError.textContent()).toMatch(/Sign in to load them/);
    expect(await cpuError.textContent()).not.toContain('next refresh');

    // A serial console on the gateway, open while the server is away.
    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByRole('textbox', { name: 'Path' }).fill(socat.pathA);
    // Named as typed on the gateway's label: the visit journal names the session's gateway by the pack's identity.
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill(target.name);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });
    await gatewayEnd.write('before the server came back\r\n');
    await waitForTerminalText(page, 'before the server came back');

    // The site report of this visit, with no server.
    await page.getByRole('link', { name: 'Fleet & report' }).click();
    await page.getByText('Fleet & report needs the server, and you are not signed in.').waitFor();
    await page.getByRole('link', { name: 'site report' }).click();
    // The gateway the journal names (its console's session, resolved by the pack): the report offers it by name.
    await page.getByRole('checkbox', { name: new RegExp(`^${target.name} · `) }).check();
    await page.getByRole('button', { name: 'Export HTML' }).click();
    await page.getByRole('status', { name: 'Report written' }).waitFor();
    const reports = await readdir(join(dataDir, 'reports'));
    const html = await readFile(
      join(
        dataDir,
        'reports',
        reports.find((name) => name.endsWith('.html'))!,
      ),
      'utf8',
    );
    expect(html).toContain('From the site pack');
    expect(html).toContain(formatMac(target.gatewayMac));
    expect(html).toMatch(/as of \d{1,2} [A-Z][a-z]{2,3} \d{4},? \d\d:\d\d/);

    // The server comes back on the same port: the session resumes by itself, the view stays.
    simulator = await startTestSimulator({ gateways: 60, port });
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Field mode: not signed in').count()).toBe(0);
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    // The terminal opened in field mode runs on, both ways.
    await page.getByRole('link', { name: 'Terminals' }).click();
    await gatewayEnd.write('after the session resumed\r\n');
    await waitForTerminalText(page, 'after the session resumed');
    await typeInTerminal(page, 'uptime\r');
    await gatewayEnd.waitForText('uptime\r');
  }, 180_000);
});
