import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachSerialConsole, type AttachedSerialConsole } from '../../simulator/serial/pty-console';
import {
  signInAndOpenTerminals,
  startTerminalRig,
  waitForTerminalText,
  type TerminalRig,
} from '../bench/terminal-rig';
import { openSerialConsole } from './support/serial-console';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../helpers/socat';

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

/** Everything the shown terminal holds, screen and scrollback. */
function readTerminalText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const id = document
      .querySelector('.pane:not([hidden]) [data-terminal-id]')
      ?.getAttribute('data-terminal-id');
    const probe = window.fieldKitTerminalProbe!;
    return (id && probe.serializers?.[id]?.()) || '';
  });
}

describe('serial triage in the browser', () => {
  it('asks the root password at the login prompt and shows a panel naming the Ethernet fault', async () => {
    await openSerialConsole(page, console.linkPath, gatewayId);

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
    // It had logged in itself, so it logged out; the screen shows the commands without the end markers.
    expect(await panel.textContent()).toContain('Logged out again: diagnostics had logged in as root.');
    await expect.poll(async () => (await readTerminalText(page)).trimEnd()).toMatch(/login:$/);
    const screen = await readTerminalText(page);
    expect(screen).toMatch(/# ip route\s/);
    expect(screen).not.toContain('__FK_');
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

  it('shows what it waits for, the command and the time left, and stops after that command on Cancel', async () => {
    const pair: SocatPair = await startSocatPair();
    let gatewaySide: RawPortEnd | undefined;
    try {
      gatewaySide = await openRawEnd(pair.pathB);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();
      await openSerialConsole(page, pair.pathA, 'kona-slow');
      await page.getByRole('button', { name: 'Collect diagnostics' }).click();
      await gatewaySide.waitForText('\r');
      await gatewaySide.write('\r\nroot@kona-slow:~# ');
      // The gateway is slow to answer the first command: the wait says what it waits for, and for how long.
      await gatewaySide.waitForText('system_version; echo __FK_END_');
      const wait = page.getByRole('status').filter({ hasText: 'Collecting diagnostics from kona-slow' });
      await wait.getByText('command 1 of 10').waitFor();
      expect(await wait.textContent()).toMatch(
        /command 1 of 10,\s+system_version\s+—\s+waiting for its answer\.\s+At most (\d+ min )?\d+ s left for the whole\s+run\./,
      );
      await page.getByRole('button', { name: 'Cancel (stops after this command)' }).click();
      await page.getByRole('button', { name: 'Cancelling…' }).waitFor();
      const marker = /(__FK_END_[0-9a-f]+-0_)\$\?/.exec(gatewaySide.received.toString('latin1'))![1]!;
      await gatewaySide.write(
        `system_version; echo ${marker}$?\r\nBSP version 7.1.2\r\n${marker}0\r\nroot@kona-slow:~# `,
      );
      const panel = page.getByRole('region', { name: 'Health of kona-slow' });
      await panel.waitFor();
      expect(await panel.getByRole('alert').textContent()).toBe(
        'Stopped early: Cancelled after `system_version` (1 of 10 commands run).',
      );
      // It did not log in, so it did not log out; the console stays usable.
      expect(await panel.textContent()).not.toContain('Logged out');
      expect(await page.getByTestId('terminal-state').textContent()).toBe('Connected');
      await waitForTerminalText(page, 'BSP version 7.1.2');
      expect(await readTerminalText(page)).not.toContain('__FK_');
      expect(gatewaySide.received.toString('latin1')).not.toContain('uptime');
    } finally {
      await gatewaySide?.close();
      await pair.cleanup();
    }
  }, 120_000);

  it('reports no page error', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
