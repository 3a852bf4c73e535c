import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { attachSerialConsole, type AttachedSerialConsole } from '../../simulator/serial/pty-console';
import { HEALTHY_NETWORK } from '../../simulator/shell/gateway-network';
import { PROBE_SCRIPT } from '../bench/terminal-rig';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { makeGateway, makeSitePack } from '../helpers/factories';
import { startSocatPair, type SocatPair } from '../helpers/socat';
import { ownKeychain } from './support/own-keychain';
import { ensureRendererBuilt } from './support/renderer-build';

// Issue 27, as a new user met it on a roof with no network: field mode, no server process, a site pack on disk; a
// serial console on a socat pty to a simulated gateway whose Ethernet cable has no link; "Collect diagnostics"
// without ever opening the gateway's page; then the PDF export. Page one must name the gateway and its fault.

const run = promisify(execFile);
const SILENT_LOG = { info: () => undefined, error: () => undefined };
const GATEWAY_NAME = 'acme-gw-0013';
const ROOT_PASSWORD = 'label-password-13';

let rendererDir: string;
let dataDir: string;
let browser: BrowserSession;
let host: StartedHost;
let gatewayConsole: AttachedSerialConsole;
let unnamedPort: SocatPair | undefined;

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-visit-triage-'));
  gatewayConsole = await attachSerialConsole({
    gateway: { gatewayId: 'gw-13', hostname: GATEWAY_NAME, bspVersion: '5.1.0', rootPassword: ROOT_PASSWORD },
    shellContext: { network: () => ({ ...HEALTHY_NETWORK, hasEthernetLink: false, activeLink: 'cellular' }) },
    linkPath: join(dataDir, 'console'),
  });
  host = await startHost({ dataDir, rendererDir, credentials: ownKeychain(), log: SILENT_LOG });
  // A profile whose server is not running: nothing listens on port 9 of the loopback.
  const profile = await host.services.profiles.save({ name: 'Acme OAM', baseUrl: 'http://127.0.0.1:9' });
  await host.services.profiles.select(profile.id);
  await host.services.sitePacks.save(
    makeSitePack(20, {
      profileId: profile.id,
      gateways: Array.from({ length: 20 }, (_, index) =>
        makeGateway(index, { name: `acme-gw-${String(index).padStart(4, '0')}` }),
      ),
    }),
  );
  browser = await launchBrowser();
  await browser.page.addInitScript(PROBE_SCRIPT);
  await browser.page.setViewportSize({ width: 1280, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await gatewayConsole?.close();
  await unnamedPort?.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a serial triage in field mode, reported from the visit journal', () => {
  it('names the gateway of the site pack and its Ethernet fault on page one of the PDF', async () => {
    const { page } = browser;
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Work without signing in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByLabel('Path', { exact: true }).fill(join(dataDir, 'console'));
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill(GATEWAY_NAME);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Collect diagnostics' }).click();
    await page.getByLabel("Root password (from the gateway's label)").fill(ROOT_PASSWORD);
    await page.getByRole('button', { name: 'Log in and collect' }).click();
    await page.getByRole('region', { name: `Health of ${GATEWAY_NAME}` }).waitFor({ timeout: 60_000 });

    // Straight to the report: the gateway's page is never opened, and no gateway is ticked.
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    await page.getByLabel('Site', { exact: true }).fill('Harbour roof');
    // The preview is the report's own rendering: page one names the gateway and its fault there too.
    const preview = page.getByRole('document', { name: 'Report preview' });
    await preview.getByText('Harbour roof').first().waitFor();
    const previewRow = preview.getByRole('row').filter({ hasText: GATEWAY_NAME }).first();
    expect(await previewRow.textContent()).toContain('fault found — Ethernet eth0 has no link');
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    await download;
    const written = page.getByLabel('Report written');
    await written.waitFor();
    const pdfPath = /and (\/\S+\.pdf);/.exec((await written.textContent()) ?? '')?.[1];
    expect(pdfPath).toBeDefined();

    const { stdout: pageOne } = await run('pdftotext', ['-f', '1', '-l', '1', pdfPath!, '-']);
    const flat = pageOne.replace(/\s+/g, ' ');
    expect(flat).toContain(GATEWAY_NAME);
    expect(flat).toContain('00:80:00:00:00:0D');
    expect(flat).toContain('fault found — Ethernet eth0 has no link');
    expect(flat).not.toContain('only inspected');
    const { stdout: whole } = await run('pdftotext', [pdfPath!, '-']);
    expect(whole.replace(/\s+/g, ' ')).not.toContain('not matched to a gateway');
    // Every page: the site and the visit's date in the header, "Page n of N" in the footer.
    const pages = whole.split('\f').filter((text) => text.trim() !== '');
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((text, index) => {
      expect(text).toContain('Harbour roof');
      expect(text).toContain(`Page ${index + 1} of ${pages.length}`);
    });
    expect(whole).not.toContain('file://');
  }, 180_000);

  it('asks once which gateway a console named by a text neither the server nor the pack knows was, and keeps it', async () => {
    const { page } = browser;
    unnamedPort = await startSocatPair();
    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByLabel('Path', { exact: true }).fill(unnamedPort.pathA);
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill('roof box');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    const pick = page.getByRole('dialog', { name: 'Which gateway is “roof box”?' });
    await pick.getByRole('textbox', { name: 'Search by name or MAC' }).fill('acme-gw-0014');
    await pick.getByRole('radio', { name: 'acme-gw-0014 · 00:80:00:00:00:0E' }).check();
    await pick.getByRole('button', { name: 'This is the gateway' }).click();
    await pick.waitFor({ state: 'detached' });

    // Asked once: leaving the view and coming back does not ask again.
    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    // The view was left: what the earlier export said is gone, so this is the new one.
    const written = page.getByLabel('Report written');
    expect(await written.count()).toBe(0);
    await page.getByRole('button', { name: 'Export HTML' }).click();
    await written.waitFor();
    expect(await page.getByRole('dialog', { name: /^Which gateway is/ }).count()).toBe(0);
    const htmlPath = /Saved (\/\S+\.html)/.exec((await written.textContent()) ?? '')?.[1];
    const html = await readFile(htmlPath!, 'utf8');
    const section = html.slice(html.indexOf('<h2>acme-gw-0014 · '));
    expect(section.slice(0, section.indexOf('</section>'))).toContain('roof box');
    expect(html).not.toContain('not matched to a gateway');
  }, 120_000);
});
