import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startCommissioningApp, type CommissioningApp } from './wizards-harness';

// Fleet apply in Chromium through the browser host, against a simulator that answers 20 % of requests with
// 503 (--fail-rate 0.2): every chosen gateway must end in the result table, failures with their reason.

let app: CommissioningApp;
const FINAL_STATUSES = new Set(['done', 'unchanged', 'failed', 'skipped']);

beforeAll(async () => {
  app = await startCommissioningApp({
    simulator: { failRate: 0.2, commandTimeoutMs: 200, gateways: 30, seed: 7 },
    // One attempt per gateway, so some of them surely fail and the failure path is seen.
    timing: { commandTimeoutMs: 5_000, fleetMaxAttempts: 1 },
  });
}, 120_000);

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
    await page.getByLabel(/^Firewall settings to set/).fill('{ "doSPrevention": { "burstLimit": 77 } }');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();
    const rerun = page.getByRole('button', { name: 'Re-run only the failed' });
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

    const failed = final.filter((status) => status === 'failed').length;
    expect(failed).toBeGreaterThan(0);
    await rerun.click();
    await expect.poll(async () => (await statuses(page)).length, { timeout: 60_000 }).toBe(failed);
    await page.getByRole('button', { name: 'Re-run only the failed' }).waitFor({ timeout: 60_000 });
    expect((await statuses(page)).every((status) => FINAL_STATUSES.has(status))).toBe(true);
  }, 180_000);
});
