import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewaysWhere, healthyGateway } from '../integration/commissioning/simulator-session';
import type { RunningSimulator } from '../../simulator';
import { SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';

// The commissioning wizards, diagnostics and the site report in Chromium, through the browser host and the
// simulator with short timings: each wizard's happy path and its failure path as a technician sees them.

const run = promisify(execFile);
let app: CommissioningApp;
let simulator: RunningSimulator;
const visitStartedAt = Date.now();

beforeAll(async () => {
  app = await startCommissioningApp(SHORT_TIMINGS);
  simulator = app.host.simulator!;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('choosing the gateway to commission', () => {
  it('finds it by MAC as the technician types, opens its wizards and names it in the way back', async () => {
    const gateway = healthyGateway(simulator, 1);
    const page = await app.open([]);
    await page.getByLabel('Gateway', { exact: true }).pressSequentially(gateway.gatewayMac.slice(-6));
    const matches = page.getByRole('list', { name: 'Matching gateways' });
    await matches.getByRole('button', { name: new RegExp(`^${gateway.name} `) }).click();
    await page.getByRole('button', { name: 'Open its wizards' }).click();
    await page.getByRole('heading', { name: 'WAN connectivity' }).waitFor();
    expect(page.url()).toContain(`/${gateway.id}/wizard/connectivity`);
    expect(await page.getByRole('link', { name: `← Gateway ${gateway.name}` }).count()).toBe(1);
  });

  it('opens the gateway whose whole name was typed and sent at once, before the lookup paused for typing', async () => {
    const gateway = healthyGateway(simulator, 2);
    const page = await app.open([]);
    const field = page.getByLabel('Gateway', { exact: true });
    await field.fill(gateway.name);
    await field.press('Enter');
    await page.getByRole('heading', { name: 'WAN connectivity' }).waitFor();
    expect(page.url()).toContain(`/${gateway.id}/wizard/connectivity`);
  });
});

describe('firewall wizard', () => {
  it('asks for the typed confirmation after a plain warning before ping is blocked', async () => {
    const gateway = healthyGateway(simulator, 0);
    const page = await app.open([gateway.id, 'wizard', 'firewall']);
    await page.getByLabel('Ping allowed').uncheck();
    await page.getByRole('button', { name: 'Review changes' }).click();
    const guard = page.getByRole('group', { name: 'Lockout warning' });
    await guard.waitFor();
    const apply = page.getByRole('button', { name: 'Apply', exact: true });
    expect(await apply.isDisabled()).toBe(true);
    await guard.getByRole('button', { name: 'I understand the risk' }).click();
    const confirmation = guard.getByLabel('Type BLOCK PING to go ahead');
    await confirmation.fill('block ping');
    expect(await apply.isDisabled()).toBe(true);
    await confirmation.fill('BLOCK PING');
    expect(await apply.isDisabled()).toBe(false);
  });

  it('applies a DoS limit after a backup and shows it verified', async () => {
    const gateway = healthyGateway(simulator, 0);
    const page = await app.open([gateway.id, 'wizard', 'firewall']);
    await page.getByLabel('DoS burst limit').fill('77');
    await page.getByRole('button', { name: 'Review changes' }).click();
    const changes = page.getByRole('table', { name: 'Changes' });
    await expect.poll(() => changes.textContent()).toContain('DoS burst limit');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Applied and verified', { exact: true }).waitFor();
    expect(await page.getByText(/Safety backup: “fieldkit-before-firewall-/).count()).toBe(1);
  });
});

describe('cellular wizard', () => {
  it('rolls a wrong APN back after the data call fails to connect, and says so', async () => {
    const gateway = healthyGateway(simulator, 2);
    const page = await app.open([gateway.id, 'wizard', 'cellular']);
    const first = page.getByLabel('APN 1');
    await first.waitFor();
    const previous = await first.inputValue();
    await first.fill('internet.wrong.example');
    await page.getByRole('button', { name: 'Review changes' }).click();
    // The review numbers the APN as the form did.
    const changes = page.getByRole('table', { name: 'Changes' });
    await expect.poll(() => changes.textContent()).toContain('APN 1');
    expect(await changes.textContent()).not.toContain('APN 0');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Verification failed: previous settings restored').waitFor({ timeout: 30_000 });
    expect(await page.locator('.result-message').textContent()).toMatch(
      /got no data call within .*; rolled back to ".*" — data call connected again/,
    );
    await page.getByRole('button', { name: 'Read the settings again' }).click();
    await expect.poll(() => page.getByLabel('APN 1').inputValue(), { timeout: 15_000 }).toBe(previous);
  });
});

describe('stopping a read', () => {
  it('stops waiting for a silent gateway when asked, and offers to try again', async () => {
    const offline = gatewaysWhere(simulator, (entity) => entity.isOfflineFromStart)[1]!;
    const page = await app.open([offline.id, 'wizard', 'cellular']);
    await page.getByText(/^Waiting for the gateway to answer again/).waitFor();
    await page.getByRole('button', { name: 'Stop reading' }).click();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
  });
});

describe('connectivity wizard', () => {
  it('shows the warning that the gateway reboots when both links fail', async () => {
    const gateway = healthyGateway(simulator, 1);
    const page = await app.open([gateway.id, 'wizard', 'connectivity']);
    await page.getByLabel('Ping target').waitFor();
    expect(await page.getByText(/both the preferred and the fallback link fail/).count()).toBeGreaterThan(0);
  });
});

describe('a gateway that does not answer', () => {
  it('explains the timeout instead of failing silently', async () => {
    const offline = gatewaysWhere(simulator, (entity) => entity.isOfflineFromStart)[0]!;
    const page = await app.open([offline.id, 'wizard', 'firewall']);
    await page
      .getByText(/^Waiting for the gateway to answer again \(.+\) — about .+ left \(gives up at .+\)$/)
      .waitFor();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/did not answer for .*powered off, rebooting/);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
  });
});

describe('diagnostics', () => {
  it('reboots after a confirmation and waits in view, focused, until the gateway answers again', async () => {
    const gateway = healthyGateway(simulator, 3);
    const page = await app.open([gateway.id, 'diagnostics']);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('button', { name: 'Reboot the gateway' }).click();
    await page.getByRole('button', { name: 'Reboot and wait' }).click();
    // The button is at the bottom of the page, the wait line at the top: the wait comes into view with focus.
    const wait = page.getByText('Restarting the gateway', { exact: true });
    await wait.waitFor();
    const isInViewAndFocused = (element: Element) => {
      const box = element.getBoundingClientRect();
      const holder = element.closest('[tabindex="-1"]');
      // Within a pixel: scrolling into view may land a fraction of a pixel off.
      return box.top >= -1 && box.bottom <= window.innerHeight + 1 && holder === document.activeElement;
    };
    await expect.poll(() => wait.evaluate(isInViewAndFocused)).toBe(true);
    const done = page.getByText(/The gateway restarted and answered again after/);
    await done.waitFor({ timeout: 30_000 });
    await expect.poll(() => done.evaluate(isInViewAndFocused)).toBe(true);
  }, 60_000);

  it('pings from the gateway and shows how many packets came back', async () => {
    const gateway = healthyGateway(simulator, 3);
    const page = await app.open([gateway.id, 'diagnostics']);
    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    await expect
      .poll(() => page.getByLabel('Ping result').textContent())
      .toMatch(/\d+ of 4 packets came back/);
  });

  it('reads the counters of each radio, and says so when it resets them', async () => {
    const gateway = healthyGateway(simulator, 4);
    const page = await app.open([gateway.id, 'diagnostics']);
    await page.getByRole('button', { name: 'Read radio statistics' }).click();
    const table = page.getByRole('table', { name: 'Radio statistics' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Counter',
      'Radio 0',
      'Radio 1',
    ]);
    // Counters in words; the API's name (numRxPackets) is only the row's tooltip.
    expect(await table.textContent()).toContain('Packets received');
    expect(await table.textContent()).not.toContain('numRxPackets');
    await page.getByRole('button', { name: 'Reset the counters' }).click();
    await page.getByRole('status').filter({ hasText: 'Radio counters reset to zero.' }).waitFor();
  });
});

describe('live RF meter', () => {
  it('plots the readings and shows the best value seen of each figure', async () => {
    const gateway = healthyGateway(simulator, 2);
    const page = await app.open([gateway.id, 'diagnostics']);
    await page.getByRole('button', { name: 'Start the RF meter' }).click();
    const readings = page.getByRole('table', { name: 'RF readings' });
    await readings.waitFor();
    expect(await readings.textContent()).toMatch(/Signal strength\s*-?\d+ dBm\s*-?\d+\s+dBm at/);
    expect(await page.locator('.charts canvas').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop the RF meter' }).click();
    await page.getByRole('button', { name: 'Start the RF meter' }).waitFor();
  });
});

describe('software wizard', () => {
  it('asks before upgrading, naming the restart and the downtime; only the yes sends the upgrade', async () => {
    const gateway = healthyGateway(simulator, 4);
    const fleet = simulator.world.fleet;
    const lastInstall = () => structuredClone(fleet.stateOf(fleet.entityOf(gateway.id)).lastInstall);
    const page = await app.open([gateway.id, 'wizard', 'software']);
    const upgradeAll = page.getByRole('button', { name: 'Upgrade all' });
    const before = lastInstall();
    await upgradeAll.click();
    const ask = page.getByRole('dialog', { name: `Upgrade every package on ${gateway.name}?` });
    await ask.getByText(/then restarts: it is offline for a few minutes/).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(lastInstall()).toEqual(before);

    await upgradeAll.click();
    await ask.getByRole('button', { name: `Upgrade and restart ${gateway.name}` }).click();
    await page
      .getByText(/^Upgraded .*kona-pkt-forwarder 4\.2\.1 → 4\.3\.0.*; the gateway was away for \d+ sec/)
      .waitFor({ timeout: 30_000 });
  });
});

describe('backups', () => {
  it('creates a backup with a description, lists it, and restores it waiting for the gateway', async () => {
    const gateway = healthyGateway(simulator, 5);
    const page = await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByLabel('Backup description').fill('before the antenna swap');
    await page.getByRole('button', { name: 'Create a backup' }).click();
    await page.getByText('Backup "before the antenna swap" created.').waitFor();
    const table = page.getByRole('table', { name: 'Backups' });
    await expect.poll(() => table.textContent()).toContain('before the antenna swap');
    await page.getByRole('button', { name: 'Restore before the antenna swap' }).click();
    await page.getByRole('button', { name: 'Restore and wait' }).click();
    await page.getByText(/restored; the gateway answered again after/).waitFor({ timeout: 30_000 });
  });
});

describe('site report', () => {
  it('exports a PDF whose text holds the change made during the visit', async () => {
    const page = await app.open(['report']);
    const started = new Date(visitStartedAt - 60_000);
    const pad = (value: number) => String(value).padStart(2, '0');
    await page
      .getByLabel('Visit started')
      .fill(
        `${started.getFullYear()}-${pad(started.getMonth() + 1)}-${pad(started.getDate())} ${pad(started.getHours())}:${pad(started.getMinutes())}`,
      );
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const written = page.getByLabel('Report written');
    await written.waitFor();
    const pdfPath = /and (\/\S+\.pdf);/.exec((await written.textContent()) ?? '')?.[1];
    expect(pdfPath).toBeDefined();
    const { stdout } = await run('pdftotext', [pdfPath!, '-']);
    expect(stdout).toContain('77');
    expect(stdout).toMatch(/DoS burst limit|doSPrevention\.burstLimit/);
    expect(stdout).not.toContain('demo-provider');
    expect((await readFile(pdfPath!)).subarray(0, 4).toString()).toBe('%PDF');
  }, 90_000);
});
