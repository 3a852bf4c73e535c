import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachSerialConsole, type AttachedSerialConsole } from '../../simulator/serial/pty-console';
import { signInAndOpenTerminals, startTerminalRig, type TerminalRig } from '../bench/terminal-rig';

// "Collect diagnostics" end to end: Chromium → browser host → TerminalManager → a socat pty → the serial console
// of a simulated gateway whose Ethernet cable has no link (attached as `--serial` attaches it).

let rig: TerminalRig;
let page: Page;
let directory: string;
let console: AttachedSerialConsole;
let gatewayId: string;
let rootPassword: string;

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  const simulator = rig.simulator!;
  const broken = simulator.world.tenant.gateways.find(
    (entity) => !entity.hasEthernetLink && !entity.isOfflineFromStart,
  );
  if (!broken) throw new Error('the demo tenant has no gateway without an Ethernet link');
  gatewayId = broken.id;
  rootPassword = broken.rootPassword;
  directory = await mkdtemp(join(tmpdir(), 'serial-triage-e2e-'));
  console = await attachSerialConsole({
    ...simulator.serialConsoleOf(gatewayId),
    linkPath: join(directory, 'console'),
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAndOpenTerminals(page, rig.url);
}, 120_000);

afterAll(async () => {
  await rig?.close();
  await console?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('serial triage in the browser', () => {
  it('asks the root password at the login prompt and shows a panel naming the Ethernet fault', async () => {
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByLabel('Path', { exact: true }).fill(console.linkPath);
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill(gatewayId);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Collect diagnostics' }).click();
    const password = page.getByLabel("Root password (from the gateway's label)");
    await password.fill(rootPassword);
    await page.getByRole('button', { name: 'Log in and collect' }).click();

    const panel = page.getByRole('region', { name: `Health of ${gatewayId}` });
    await panel.waitFor({ timeout: 60_000 });
    const findings = panel.getByRole('list', { name: 'Findings' }).getByRole('listitem');
    expect(await findings.first().textContent()).toBe(
      'Fault Ethernet eth0 has no link (no carrier: check the cable and the switch port).',
    );
    expect(await panel.textContent()).toContain('Default route: ppp0 (metric 20), the cellular link.');
    expect(await panel.textContent()).toContain('WAN works: 3 of 3 pings to 8.8.8.8 answered.');
    // The panel fits the window: nothing wider than the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  }, 120_000);

  it('puts the panel into the site report', async () => {
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await navigation.getByRole('link', { name: 'Fleet & report' }).click();
    await page.getByRole('link', { name: 'Site report' }).click();
    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByLabel('Report written');
    await written.waitFor({ timeout: 60_000 });
    const htmlPath = /Saved (\/\S+\.html)/.exec((await written.textContent()) ?? '')?.[1];
    expect(htmlPath).toBeDefined();
    const html = await readFile(htmlPath!, 'utf8');
    const section = html.slice(html.indexOf('<h4>Serial triage: '));
    expect(section).toContain(
      '<li><span class="failed">fault</span> Ethernet eth0 has no link (no carrier: check the cable and the switch port).</li>',
    );
  }, 120_000);

  it('reports no page error', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
