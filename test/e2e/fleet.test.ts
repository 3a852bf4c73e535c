import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseFirewall } from '../../electron/services/commissioning';
import type { RunningSimulator } from '../../simulator';
import { startCommissioningApp, type CommissioningApp } from './wizards-harness';

// Fleet apply in Chromium through the browser host, against a simulator that answers 20 % of requests with
// 503 (--fail-rate 0.2): every chosen gateway must end in the result table, failures with their reason. Every
// write first asks "Apply … to N gateways?"; lockouts want the wizard's typed text.

let app: CommissioningApp;
let simulator: RunningSimulator;
const FINAL_STATUSES = new Set(['done', 'unchanged', 'failed', 'unknown', 'skipped']);

beforeAll(async () => {
  app = await startCommissioningApp({
    simulator: { failRate: 0.2, commandTimeoutMs: 200, gateways: 30, seed: 7 },
    // One attempt per gateway, so some of them surely fail and the failure path is seen.
    timing: { commandTimeoutMs: 5_000, fleetMaxAttempts: 1 },
  });
  simulator = app.host.simulator!;
}, 120_000);

/** SSH allowed or refused on each gateway, as the simulator holds it. */
function sshStates(): Record<string, boolean> {
  const fleet = simulator.world.fleet;
  return Object.fromEntries(
    simulator.fixture.gateways.map((gateway) => [
      gateway.id,
      parseFirewall(fleet.stateOf(fleet.entityOf(gateway.id)).configuration.firewall).ssh.enabled,
    ]),
  );
}

/** The gateway ids of the result rows with this status. */
async function rowIds(page: Page, status: string): Promise<string[]> {
  const names = await page
    .locator(`tr[data-status="${status}"] td:first-child`)
    .evaluateAll((cells) => cells.map((cell) => cell.firstChild?.textContent?.trim() ?? ''));
  return names.map((name) => {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.name === name);
    if (!gateway) throw new Error(`no gateway named "${name}" in the fixture`);
    return gateway.id;
  });
}

afterAll(async () => {
  await app?.close();
});

/** Opens the fleet page until its gateway list loaded (the list read itself can meet a simulated 503). */
async function openFleet(): Promise<Page> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const page = await app.open(['fleet']);
    const list = page.getByRole('list', { name: 'Gateways to change' }).getByRole('checkbox');
    await Promise.race([list.first().waitFor(), page.getByRole('alert').first().waitFor()]);
    if ((await list.count()) > 0) return page;
  }
  throw new Error('the gateway list never loaded');
}

async function statuses(page: Page): Promise<string[]> {
  return page
    .getByRole('table', { name: 'Fleet result' })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-status') ?? ''));
}

describe('fleet apply under --fail-rate', () => {
  it('accounts for every chosen gateway and re-runs only the failed ones', async () => {
    const page = await openFleet();
    const chosen = await page.getByRole('list', { name: 'Gateways to change' }).getByRole('checkbox').count();
    await page.getByRole('button', { name: /^Choose all shown/ }).click();
    await page.getByLabel('What to change').selectOption('firewall');
    await page.getByLabel('DoS burst limit').fill('77');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    const offline = simulator.fixture.gateways.filter(
      (gateway) => gateway.initialStatus === 'OFFLINE',
    ).length;
    const ask = page.getByRole('dialog', {
      name: `Apply firewall settings (DoS burst limit 77) to ${chosen - offline} gateways?`,
    });
    await ask.getByRole('button', { name: `Apply to ${chosen - offline} gateways` }).click();
    const rerun = page.getByRole('button', { name: /^Re-run (only the failed|the failed and the unknown)$/ });
    await rerun.waitFor({ timeout: 60_000 });

    const final = await statuses(page);
    expect(final).toHaveLength(chosen);
    expect(final.every((status) => FINAL_STATUSES.has(status))).toBe(true);
    const failedReasons = await page
      .locator('tr[data-status="failed"] td:nth-child(3)')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim() ?? ''));
    expect(failedReasons.every((reason) => reason.length > 0)).toBe(true);
    const counts = await page.getByLabel('Fleet counts').textContent();
    expect(counts).toContain(`${chosen} of ${chosen} finished`);

    const failed = final.filter((status) => status === 'failed' || status === 'unknown').length;
    expect(failed).toBeGreaterThan(0);
    await rerun.click();
    await page
      .getByRole('dialog', { name: /^Apply firewall settings \(DoS burst limit 77\) to \d+ gateways?\?$/ })
      .getByRole('button', { name: /^Apply to/ })
      .click();
    await expect.poll(async () => (await statuses(page)).length, { timeout: 60_000 }).toBe(failed);
    await rerun.waitFor({ timeout: 60_000 });
    expect((await statuses(page)).every((status) => FINAL_STATUSES.has(status))).toBe(true);
  }, 180_000);
});

describe('fleet apply of a lockout', () => {
  it('asks for DISABLE SSH naming the count; cancelling sends nothing, confirming changes only what it says', async () => {
    const page = await openFleet();
    const chosen = await page.getByRole('list', { name: 'Gateways to change' }).getByRole('checkbox').count();
    await page.getByRole('button', { name: /^Choose all shown/ }).click();
    await page.getByLabel('What to change').selectOption('firewall');
    // The form keeps what the last job set (the DoS burst limit above): back to "keep", SSH off only.
    await page.getByRole('textbox', { name: 'DoS burst limit' }).fill('');
    await page.getByLabel('SSH access').selectOption('off');
    const before = sshStates();

    const offline = simulator.fixture.gateways.filter(
      (gateway) => gateway.initialStatus === 'OFFLINE',
    ).length;
    expect(offline).toBeGreaterThan(0);
    // The question counts the gateways that get the change; the offline ones are named as skipped.
    const reachable = chosen - offline;
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    const ask = page.getByRole('dialog', {
      name: `Apply firewall settings (SSH refused) to ${reachable} gateways?`,
    });
    await ask.getByText(`SSH will be refused on all ${reachable} gateways`).waitFor();
    expect(await ask.getByRole('heading').textContent()).toBe(
      `Apply firewall settings (SSH refused) to ${reachable} gateways? (${offline} more chosen but listed offline: skipped, nothing sent to them)`,
    );
    const apply = ask.getByRole('button', { name: `Apply to ${reachable} gateways (${offline} skipped)` });
    expect(await apply.isDisabled()).toBe(true);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(sshStates()).toEqual(before);
    expect(await page.getByRole('table', { name: 'Fleet result' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    await ask.getByRole('button', { name: 'I understand the risk' }).click();
    await ask.getByLabel('Type DISABLE SSH to go ahead').fill('DISABLE SSH');
    await apply.click();
    await page
      .getByRole('button', { name: /^Re-run (only the failed|the failed and the unknown)$/ })
      .waitFor({ timeout: 60_000 });
    const after = sshStates();
    const done = await rowIds(page, 'done');
    expect(done.length).toBeGreaterThan(0);
    for (const id of done) expect(after[id]).toBe(false);
    for (const id of await rowIds(page, 'failed')) expect(after[id]).toBe(before[id]);
  }, 180_000);
});

describe('fleet apply on a laptop screen', () => {
  it('brings the result into view, with the focus, after Apply at 1280×720', async () => {
    const page = await openFleet();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('button', { name: /^Choose all shown/ }).click();
    await page.getByLabel('What to change').selectOption('pingTarget');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    await page
      .getByRole('dialog', { name: /^Apply ping target/ })
      .getByRole('button', { name: /^Apply to/ })
      .click();
    const heading = page.getByRole('heading', { name: /^Result:/ });
    await heading.waitFor();
    // The heading on screen, and the focus on the result it heads (no longer on the Apply button far above).
    await expect
      .poll(() =>
        heading.evaluate((element) => {
          const { top, bottom } = element.getBoundingClientRect();
          const focused = document.activeElement;
          // Sub-pixel layout can put the top a fraction of a pixel above the edge.
          return focused !== null && focused.contains(element) && top > -1 && bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await page.screenshot({ path: '/tmp/fieldkit-fleet-result.png' });
  }, 120_000);
});
