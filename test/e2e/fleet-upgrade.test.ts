import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';

// A fleet software upgrade in Chromium through the browser host, against a simulator whose upgrades take 1 s
// and whose reboots 1.5 s: the dialog says how many restart together, and a row says done only once its gateway
// is back with the new version.

let app: CommissioningApp;

beforeAll(async () => {
  app = await startCommissioningApp({
    simulator: { ...SHORT_TIMINGS.simulator, gateways: 12, offlineFraction: 0 },
    timing: SHORT_TIMINGS.timing,
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('fleet software upgrade', () => {
  it('says how many restart at once, follows each gateway back and reads the new version', async () => {
    const page = await app.open(['fleet']);
    const boxes = page.getByRole('list', { name: 'Gateways to change' }).getByRole('checkbox');
    await boxes.first().waitFor();
    for (let index = 0; index < 6; index++) await boxes.nth(index).check();
    await page.getByLabel('What to change').selectOption('softwareUpgrade');
    await page.getByLabel('Package (empty: every package)').fill('kona-pkt-forwarder');
    await page.getByRole('button', { name: 'Apply to the gateways' }).click();

    const ask = page.getByRole('dialog', { name: 'Upgrade kona-pkt-forwarder on 6 gateways?' });
    await ask
      .getByText(
        'At most 2 of the 6 gateways restart at the same time (3 rounds): each is followed until it answers again with its new versions before the next one starts, and the others keep forwarding meanwhile.',
      )
      .waitFor();
    await ask.getByText(/open terminals and tunnels to it drop/).waitFor();
    await ask.getByRole('button', { name: 'Upgrade 6 gateways' }).click();

    // While a gateway restarts, its row is in progress and says so: never done before it is back.
    const restarting = page.locator('tr[data-status="running"]', {
      hasText: 'not answering (it restarts to finish the upgrade): waiting for the gateway to answer again',
    });
    await restarting.first().waitFor({ timeout: 30_000 });
    await page
      .getByRole('button', { name: /^Re-run/ })
      .first()
      .waitFor({ timeout: 60_000 });
    const rows = page.getByRole('table', { name: 'Fleet result' }).locator('tbody tr');
    expect(
      await rows.evaluateAll((cells) =>
        cells.map((row) => [row.getAttribute('data-status'), row.children[2]?.textContent?.trim()]),
      ),
    ).toEqual(
      Array.from({ length: 6 }, () => ['done', 'upgraded and read back: kona-pkt-forwarder 4.2.1 → 4.3.0']),
    );
    expect(await page.getByLabel('Fleet counts').textContent()).toContain(
      '6 of 6 finished: 6 done (verified)',
    );
  }, 120_000);
});
