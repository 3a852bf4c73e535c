import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../electron/services/visit';
import { attachSerialConsole, type AttachedSerialConsole } from '../../simulator/serial/pty-console';
import { HEALTHY_NETWORK } from '../../simulator/shell/gateway-network';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { stopChild } from '../helpers/child-process';
import type { HostChildConfig } from '../helpers/host-child';
import { ensureRendererBuilt } from './support/renderer-build';

// The visit kept by main, seen from the report view in field mode (nobody signed in, no server): Site and Notes
// typed, a photo and a serial triage survive a visit to the Gateways view, a reload and a `kill -9` of the host
// process, and the open visit is offered again with all of them; the customer's acknowledgement is recorded; the
// export writes a bundle that verifies, on the command line's verifier and in the app's "Verify a report".

const GATEWAY_NAME = 'acme-gw-0013';
const ROOT_PASSWORD = 'label-password-13';

let dataDir: string;
let rendererDir: string;
let host: ChildProcess | undefined;
let browser: BrowserSession | undefined;
let gatewayConsole: AttachedSerialConsole | undefined;

/** Starts the browser host in a process of its own (test/helpers/host-child.ts) and resolves its link. */
async function spawnHost(): Promise<string> {
  const config: HostChildConfig = { dataDir, rendererDir };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '..', 'helpers', 'host-child.ts'), JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  host = child;
  return new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^Field Kit UI: (\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the host process exited (${code}) before listening`)));
  });
}

/** A small real PNG of one colour. */
function solidPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([200, 80, 40], 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Starts the host on the test's data folder and opens the app in field mode. */
async function startInFieldMode() {
  const url = await spawnHost();
  browser = await launchBrowser();
  await browser.page.setViewportSize({ width: 1280, height: 900 });
  await browser.page.goto(url);
  await enterFieldMode();
  return browser.page;
}

async function enterFieldMode() {
  await browser!.page.getByRole('button', { name: 'Work without signing in' }).click();
  await browser!.page.getByRole('navigation', { name: 'Main' }).waitFor();
}

async function openReport() {
  const page = browser!.page;
  await page.evaluate(() => (location.hash = '#/commissioning/report'));
  await page.getByRole('heading', { name: 'Site report' }).waitFor();
  // The console named its gateway by a text no server or pack knows (there is none): the view asks once per page.
  await page
    .getByRole('dialog', { name: `Which gateway is “${GATEWAY_NAME}”?` })
    .getByRole('button', { name: 'Keep as typed' })
    .click();
  return page;
}

/** Opens the gateway's serial console and runs "Collect diagnostics" on it, as a technician on site does. */
async function triageOverSerial() {
  const page = browser!.page;
  await page.getByRole('link', { name: 'Terminals' }).click();
  await page.getByRole('button', { name: 'Serial console' }).click();
  const dialog = page.getByRole('dialog', { name: 'Serial console' });
  await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
  await dialog.getByLabel('Path', { exact: true }).fill(gatewayConsole!.linkPath);
  await dialog.getByLabel('Gateway (names the tab and the log file)').fill(GATEWAY_NAME);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Collect diagnostics' }).click();
  await page.getByLabel("Root password (from the gateway's label)").fill(ROOT_PASSWORD);
  await page.getByRole('button', { name: 'Log in and collect' }).click();
  await page.getByRole('region', { name: `Health of ${GATEWAY_NAME}` }).waitFor({ timeout: 60_000 });
}

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-visit-'));
  gatewayConsole = await attachSerialConsole({
    gateway: { gatewayId: 'gw-13', hostname: GATEWAY_NAME, bspVersion: '5.1.0', rootPassword: ROOT_PASSWORD },
    shellContext: { network: () => ({ ...HEALTHY_NETWORK, hasEthernetLink: false, activeLink: 'cellular' }) },
    linkPath: join(dataDir, 'console'),
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (host) await stopChild(host);
  await gatewayConsole?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the visit in the report view, in field mode', () => {
  it('offers the open visit again after kill -9 with Site, Notes, the triage and a photo, then exports a bundle', async () => {
    await startInFieldMode();
    let page = browser!.page;
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    await page.getByLabel('Site', { exact: true }).fill('Harbour warehouse roof');
    await page
      .getByRole('textbox', { name: 'Notes', exact: true })
      .fill('Antenna cable checked; APN to be confirmed.');
    await page
      .getByRole('status', { name: 'Open visit' })
      .getByText('Visit at Harbour warehouse roof')
      .waitFor();

    await page
      .getByLabel('Photo file')
      .setInputFiles({ name: 'mast.png', mimeType: 'image/png', buffer: solidPng(40, 30) });
    await page.getByLabel('Caption').fill('Mast after the visit');
    await page.getByRole('button', { name: 'Attach photo' }).click();
    await page
      .getByRole('list', { name: 'Attached photos' })
      .getByRole('img', { name: 'Mast after the visit' })
      .waitFor();

    await triageOverSerial();
    await page.evaluate(() => (location.hash = '#/gateways'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor({ state: 'detached' });
    page = await openReport();
    await expect
      .poll(() => page.getByLabel('Site', { exact: true }).inputValue())
      .toBe('Harbour warehouse roof');
    expect(await page.getByRole('textbox', { name: 'Notes', exact: true }).inputValue()).toBe(
      'Antenna cable checked; APN to be confirmed.',
    );

    await page.reload();
    await enterFieldMode();
    page = await openReport();
    await expect
      .poll(() => page.getByLabel('Site', { exact: true }).inputValue())
      .toBe('Harbour warehouse roof');

    await browser!.close();
    browser = undefined;
    const killed = new Promise((resolve) => host!.once('exit', resolve));
    host!.kill('SIGKILL');
    await killed;
    await startInFieldMode();
    await browser!.page
      .getByText(
        new RegExp(
          `The visit at Harbour warehouse roof, started .*, is still open and goes on with everything in it: the notes typed, 1 photo, 1 serial triage \\(${GATEWAY_NAME}\\)`,
        ),
      )
      .first()
      .waitFor();
    page = await openReport();
    await expect
      .poll(() => page.getByLabel('Site', { exact: true }).inputValue())
      .toBe('Harbour warehouse roof');
    expect(await page.getByRole('textbox', { name: 'Notes', exact: true }).inputValue()).toBe(
      'Antenna cable checked; APN to be confirmed.',
    );
    await page
      .getByRole('list', { name: 'Attached photos' })
      .getByRole('img', { name: 'Mast after the visit' })
      .waitFor();

    const acknowledgement = page.getByRole('group', { name: 'Customer acknowledgement' });
    await acknowledgement.getByLabel('Person acknowledging').fill('Dana Okafor');
    await acknowledgement.getByLabel('Technician').fill('Sam Field');
    await acknowledgement.getByLabel('Their words (optional)').fill('Mast and antenna fine.');
    await acknowledgement.getByRole('checkbox', { name: 'The customer acknowledged the work' }).check();
    await acknowledgement.getByRole('button', { name: 'Record acknowledgement' }).click();
    await page
      .getByRole('status', { name: 'Acknowledgement recorded' })
      .getByText(/^Acknowledged by Dana Okafor to Sam Field at .+: “Mast and antenna fine\.”\.$/)
      .waitFor();

    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByLabel('Report written');
    await written.waitFor({ timeout: 60_000 });
    const bundle = /beside it in (\/\S+)\./.exec((await written.textContent()) ?? '')?.[1];
    expect(bundle).toMatch(/\/site-report_Harbour-warehouse-roof_\d{4}-\d{2}-\d{2}_\d{4}$/);
    const verdict = await verifyBundle(bundle!);
    expect(verdict).toMatchObject({ isIntact: true, problems: [] });

    await page.getByLabel('Bundle folder').setInputFiles(bundle!);
    const result = page.getByRole('status', { name: 'Verification result' });
    await result.waitFor();
    expect(await result.textContent()).toContain(
      `Verified: nothing was changed, added or removed. ${verdict.entries} journal entries, 1 photo,`,
    );
    expect(await result.textContent()).toContain(verdict.head);
  }, 180_000);

  it('ends the visit with a session open, then exports that closed visit from the visits list with its log', async () => {
    const page = browser!.page;
    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByLabel('Path', { exact: true }).fill(gatewayConsole!.linkPath);
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill(GATEWAY_NAME);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();
    // The list is the journal's: the triage and both sessions (one of them still open) are in it.
    const list = page.getByRole('table', { name: 'Visit entries' });
    await expect.poll(() => list.getByRole('row').filter({ hasText: 'Terminal session:' }).count()).toBe(2);
    expect(
      await list
        .getByRole('row')
        .filter({ hasText: `Serial triage: ${GATEWAY_NAME}` })
        .count(),
    ).toBe(1);

    await page.getByRole('button', { name: 'End the visit', exact: true }).click();
    await page.getByRole('button', { name: 'End the visit at this time' }).click();
    await page
      .getByText(/^No visit is open:/)
      .first()
      .waitFor();

    await page.getByText(/^Visits on this computer \(1\)$/).click();
    const visitsList = page.getByRole('list', { name: 'Visits on this computer' });
    await visitsList
      .getByRole('listitem')
      .filter({ hasText: 'Harbour warehouse roof' })
      .getByRole('button', {
        name: 'Report of this visit',
      })
      .click();
    const closed = page.getByRole('region', { name: 'Report of a closed visit' });
    await closed.waitFor();
    expect(await closed.textContent()).toContain('its fields can no longer be changed');
    expect(await closed.getByRole('definition').allTextContents()).toContain('Harbour warehouse roof');
    // Its fields are shown, never offered for editing.
    expect(await page.getByLabel('Site', { exact: true }).count()).toBe(0);
    await expect.poll(() => list.getByRole('row').filter({ hasText: 'Terminal session:' }).count()).toBe(2);

    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByLabel('Report written');
    await written.waitFor({ timeout: 60_000 });
    const bundle = /beside it in (\/\S+)\./.exec((await written.textContent()) ?? '')?.[1];
    const verdict = await verifyBundle(bundle!);
    // The session still open when the visit ended had its log attached then: the closed visit's bundle holds it.
    expect(verdict).toMatchObject({
      isIntact: true,
      problems: [],
      files: { reports: 1, photos: 1, logs: 1 },
    });
  }, 120_000);
});
