import { it } from 'vitest';
import { healthyGateway } from '../integration/commissioning/simulator-session';
import { startCommissioningApp } from './wizards-harness';

it('shots', async () => {
  const app = await startCommissioningApp({
    simulator: { commandTimeoutMs: 300, rebootMs: 1_500, upgradeMs: 1_000, gateways: 40 },
    timing: { commandTimeoutMs: 5_000, verifyTimeoutMs: 4_000, gatewayReturnTimeoutMs: 8_000, waitInitialDelayMs: 100, waitMaxDelayMs: 400, pollIntervalMs: 250 },
  });
  const page = app.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  const simulator = app.host.simulator!;
  const gateway = healthyGateway(simulator, 0);
  const all = await page.evaluate(() => 1);
  void all;
  await page.goto(`${app.baseUrl}#/gateways`);
  await page.getByRole('link', { name: gateway.name, exact: true }).waitFor();
  await page.screenshot({ path: '/tmp/h21-shots/list.png' });
  await page.getByLabel('Search by name or MAC').fill('64:7f');
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/h21-shots/list-search.png' });
  await app.open([gateway.id, 'diagnostics']);
  await page.getByText('Latitude', { exact: true }).waitFor();
  await page.screenshot({ path: '/tmp/h21-shots/diagnostics.png', fullPage: true });
  await app.open([gateway.id, 'wizard', 'firewall']);
  await page.getByLabel('DoS burst limit').fill('99999999999999999999');
  await page.getByLabel('DoS burst limit').press('Tab');
  await page.screenshot({ path: '/tmp/h21-shots/firewall.png', fullPage: true });
  await app.open([gateway.id, 'wizard', 'cellular']);
  await page.getByRole('button', { name: 'Review changes' }).waitFor();
  await page.screenshot({ path: '/tmp/h21-shots/cellular.png', fullPage: true });
  await app.open([gateway.id, 'wizard', 'backups']);
  await page.getByLabel('Backup description').fill('x'.repeat(130));
  await page.getByLabel('Backup description').press('Tab');
  await page.screenshot({ path: '/tmp/h21-shots/backups.png', fullPage: true });
  await page.goto(`${app.baseUrl}#/gateways/${gateway.id}`);
  await page.getByRole('heading', { name: new RegExp(`^${gateway.name}`) }).waitFor();
  await page.getByRole('heading', { name: 'Command console' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/h21-shots/console.png' });
  // axe sanity: a deliberately broken element is reported.
  const { findAxeViolations } = await import('../helpers/axe');
  await page.evaluate(() => {
    const image = document.createElement('img');
    image.src = 'data:,';
    document.querySelector('main')!.append(image);
  });
  console.log('AXE', JSON.stringify(await findAxeViolations(page)));
  await app.open(['report']);
  await page.getByRole('button', { name: 'Export PDF' }).waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/h21-shots/report.png', fullPage: true });
  await app.close();
}, 120_000);
