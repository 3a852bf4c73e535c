import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator';
import { findAxeViolations, findBrokenWords, findClippedHeaders, measurePageWidth } from '../helpers/axe';
import { healthyGateway } from '../integration/commissioning/simulator-session';
import { SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';

// Every view, wizard step and dialog in Chromium's default 1280×720 window and in the common laptop 1366×768,
// through the browser host and the simulator: the page never reaches wider than the window, no column header is
// cut, and axe-core finds no serious or critical violation (run once per screen, at 1280×720: it does not depend
// on the width, and it is the slow part).

const WINDOW = { width: 1280, height: 720 };
/** The other window each screen is measured in. */
const LAPTOP_WINDOW = { width: 1366, height: 768 };
/** A backup description of the longest length allowed: one word, so only wrapping keeps it inside the window. */
const LONGEST_DESCRIPTION = 'b'.repeat(128);

let app: CommissioningApp;
let simulator: RunningSimulator;
let page: Page;

beforeAll(async () => {
  app = await startCommissioningApp(SHORT_TIMINGS);
  simulator = app.host.simulator!;
  page = app.page;
  await page.setViewportSize(WINDOW);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** Asserts the screen shown fits both windows, cuts no header, and passes axe-core; `screen` names it in a failure. */
async function expectFitsAndAccessible(screen: string): Promise<void> {
  for (const window of [LAPTOP_WINDOW, WINDOW]) {
    await page.setViewportSize(window);
    const size = `${window.width}×${window.height}`;
    const { windowWidth } = await measurePageWidth(page);
    expect(windowWidth, `the window is ${window.width} px wide`).toBe(window.width);
    // Charts follow their box through a ResizeObserver, a frame after the window changed: wait for them.
    await expect
      .poll(async () => (await measurePageWidth(page)).scrollWidth, {
        message: `${screen} at ${size}: the page is wider than the window`,
      })
      .toBeLessThanOrEqual(windowWidth);
    expect(await findClippedHeaders(page), `${screen} at ${size}: column headers cut off`).toEqual([]);
    expect(await findBrokenWords(page), `${screen} at ${size}: a word of a button or heading broken`).toEqual(
      [],
    );
  }
  expect(await findAxeViolations(page), `${screen}: serious or critical axe-core violations`).toEqual([]);
}

function goTo(hash: string): Promise<unknown> {
  return page.goto(`${app.baseUrl}#/${hash}`);
}

describe('every view at 1280×720 and 1366×768', () => {
  it('fits the window and passes axe-core, each view of the main navigation', async () => {
    await goTo('gateways');
    const navigation = page.getByRole('navigation', { name: 'Main' });
    const labels = (await navigation.getByRole('link').allTextContents()).map((text) => text.trim());
    expect(labels.length).toBeGreaterThan(5);
    for (const label of labels) {
      await navigation.getByRole('link', { name: label, exact: true }).click();
      await page.locator('main h1:visible').first().waitFor();
      await expectFitsAndAccessible(`the ${label} view`);
    }
  });

  it('fits the window and passes axe-core, the gateway list with its rows and a gateway page', async () => {
    const gateway = healthyGateway(simulator, 0);
    await goTo('gateways');
    await page.getByRole('link', { name: gateway.name, exact: true }).waitFor();
    await expectFitsAndAccessible('the gateway list');
    await goTo(`gateways/${gateway.id}`);
    await page.getByRole('heading', { name: new RegExp(`^${gateway.name}`) }).waitFor();
    await expectFitsAndAccessible('the gateway page');
  });
});

describe('every wizard step at 1280×720 and 1366×768', () => {
  it('fits the window and passes axe-core, the edit and review steps of each settings wizard', async () => {
    const gateway = healthyGateway(simulator, 0);
    for (const wizard of ['connectivity', 'cellular', 'firewall']) {
      await app.open([gateway.id, 'wizard', wizard]);
      await page.getByRole('button', { name: 'Review changes' }).waitFor();
      await expectFitsAndAccessible(`the ${wizard} wizard's edit step`);
      await page.getByRole('button', { name: 'Review changes' }).click();
      await page.getByRole('heading', { name: 'What will change' }).waitFor();
      await expectFitsAndAccessible(`the ${wizard} wizard's review step`);
    }
  });

  it('fits the window and passes axe-core, the result step of an applied change', async () => {
    const gateway = healthyGateway(simulator, 1);
    await app.open([gateway.id, 'wizard', 'firewall']);
    await page.getByLabel('DoS burst limit').fill('78');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Applied and verified', { exact: true }).waitFor({ timeout: 30_000 });
    await expectFitsAndAccessible("the firewall wizard's result step");
  });

  it('fits the window and passes axe-core, software and diagnostics with the GPS fix and the RF meter', async () => {
    const gateway = healthyGateway(simulator, 2);
    await app.open([gateway.id, 'wizard', 'software']);
    await page.getByRole('heading', { name: 'Upgradable' }).waitFor();
    await expectFitsAndAccessible('the software wizard');
    await page.getByRole('button', { name: 'Upgrade all' }).click();
    const upgrade = page.getByRole('dialog', { name: new RegExp(`^Upgrade .* on ${gateway.name}`) });
    await upgrade.waitFor();
    await expectFitsAndAccessible('the upgrade confirmation');
    await upgrade.getByRole('button', { name: 'Cancel' }).click();
    await upgrade.waitFor({ state: 'hidden' });
    await app.open([gateway.id, 'diagnostics']);
    await page.getByText('Latitude', { exact: true }).waitFor();
    await expectFitsAndAccessible('diagnostics');
    await page.getByRole('button', { name: 'Start the RF meter' }).click();
    await page.getByRole('table', { name: 'RF readings' }).waitFor();
    await expectFitsAndAccessible('diagnostics with the RF meter running');
    await page.getByRole('button', { name: 'Stop the RF meter' }).click();
  });

  it('fits the window and passes axe-core, backups listing a 128-character description', async () => {
    const gateway = healthyGateway(simulator, 3);
    await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByLabel('Backup description').fill(LONGEST_DESCRIPTION);
    await page.getByRole('button', { name: 'Create a backup' }).click();
    await page
      .getByRole('table', { name: 'Backups' })
      .getByRole('cell', { name: LONGEST_DESCRIPTION, exact: true })
      .waitFor();
    await expectFitsAndAccessible('backups');
  });

  it('fits the window and passes axe-core, the fleet and site report pages', async () => {
    await app.open(['fleet']);
    await page.getByRole('list', { name: 'Gateways to change' }).getByRole('checkbox').first().waitFor();
    await expectFitsAndAccessible('fleet apply');
    await app.open(['report']);
    await page.getByRole('button', { name: 'Export PDF' }).waitFor();
    await expectFitsAndAccessible('the site report');
  });
});

describe('every dialog at 1280×720 and 1366×768', () => {
  it('fits the window and passes axe-core, the reboot and restore confirmations', async () => {
    const gateway = healthyGateway(simulator, 3);
    await app.open([gateway.id, 'diagnostics']);
    await page.getByRole('button', { name: 'Reboot the gateway' }).click();
    const reboot = page.getByRole('dialog', { name: new RegExp(`^Reboot ${gateway.name}`) });
    await reboot.waitFor();
    await expectFitsAndAccessible('the reboot confirmation');
    await reboot.getByRole('button', { name: 'Cancel' }).click();

    await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByRole('button', { name: `Restore ${LONGEST_DESCRIPTION}` }).click();
    const restore = page.getByRole('dialog', { name: new RegExp(`^Restore this backup on ${gateway.name}`) });
    await restore.waitFor();
    await expectFitsAndAccessible('the restore confirmation');
    await restore.getByRole('button', { name: 'Cancel' }).click();
  });

  it("fits the window and passes axe-core, the command console's confirmation of a disruptive command", async () => {
    const gateway = healthyGateway(simulator, 4);
    await goTo(`gateways/${gateway.id}/console`);
    await page
      .getByRole('navigation', { name: 'Commands' })
      .getByRole('button', { name: / reboot$/ })
      .click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Run “Restart the gateway”?' });
    await dialog.waitFor();
    await expectFitsAndAccessible("the console's confirmation");
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('fits the window and passes axe-core, the form that adds a server profile', async () => {
    await goTo('settings');
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await expectFitsAndAccessible('the new profile form');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('fits the window and passes axe-core, each dialog that opens a terminal', async () => {
    for (const opener of ['Reverse SSH to a gateway', 'Direct SSH', 'Serial console']) {
      await goTo('terminals');
      await page.getByRole('button', { name: opener }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await expectFitsAndAccessible(`the dialog of “${opener}”`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
  });
});

describe('the sign-in screen at 1280×720 and 1366×768', () => {
  it('fits the window and passes axe-core after signing out', async () => {
    await goTo('gateways');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectFitsAndAccessible('the sign-in screen');
  });
});
