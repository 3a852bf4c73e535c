import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachSerialConsole, type AttachedSerialConsole } from '../../simulator/serial/pty-console';
import {
  signInAndOpenTerminals,
  startTerminalRig,
  typeInTerminal,
  waitForTerminalText,
  type TerminalRig,
} from '../bench/terminal-rig';
import { openSerialConsole } from './support/serial-console';

// Runbooks end to end at 1280×720: Chromium → browser host → TerminalManager → two socat ptys, each the serial
// console of a simulated gateway; the packet forwarder runs on the first and is stopped on the second.
// Screenshots go to SCREENSHOT_DIR.

const SCREENSHOT_DIR = join(tmpdir(), 'field-kit-runbooks');

let rig: TerminalRig;
let page: Page;
let directory: string;
const consoles: Array<{ attached: AttachedSerialConsole; gatewayId: string; rootPassword: string }> = [];

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  const simulator = rig.simulator!;
  directory = await mkdtemp(join(tmpdir(), 'runbooks-e2e-'));
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const gateways = simulator.world.tenant.gateways.filter((entity) => !entity.isOfflineFromStart).slice(0, 2);
  for (const [index, gateway] of gateways.entries()) {
    const options = simulator.serialConsoleOf(gateway.id);
    const attached = await attachSerialConsole({
      ...options,
      shellContext: { ...options.shellContext, isPacketForwarderRunning: index === 0 },
      linkPath: join(directory, `console-${index}`),
    });
    consoles.push({ attached, gatewayId: gateway.id, rootPassword: gateway.rootPassword });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAndOpenTerminals(page, rig.url);
}, 120_000);

afterAll(async () => {
  await rig?.close();
  await Promise.all(consoles.map(({ attached }) => attached.close()));
  await rm(directory, { recursive: true, force: true });
});

describe('runbooks in the browser', () => {
  it('runs the packet forwarder status on two consoles, passing on one and stopping at the failing step on the other', async () => {
    for (const { attached, gatewayId, rootPassword } of consoles) {
      await openSerialConsole(page, attached.linkPath, gatewayId);
      await typeInTerminal(page, '\r');
      await waitForTerminalText(page, 'login: ');
      await typeInTerminal(page, 'root\r');
      await waitForTerminalText(page, 'Password: ');
      await typeInTerminal(page, `${rootPassword}\r`);
      await waitForTerminalText(page, ':~# ');
    }

    await page.getByRole('button', { name: 'Runbooks' }).click();
    const drawer = page.getByRole('complementary', { name: 'Runbooks' });
    await drawer.getByRole('combobox', { name: 'Runbook' }).selectOption({
      label: 'Show LoRa packet forwarder status (3 steps)',
    });
    // A shorter wait on the first step, through the editor: the stopped forwarder fails it sooner.
    await drawer.getByRole('button', { name: 'Edit…' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit “Show LoRa packet forwarder status”' });
    await editor.getByLabel('Step 1: time limit in seconds').fill('4');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'editor.png') });
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });

    // The tab shown (the second console) is ticked; the first is ticked too.
    await drawer.getByRole('checkbox', { name: new RegExp(consoles[0]!.gatewayId) }).check();
    await drawer.getByRole('button', { name: 'Run on 2 sessions' }).click();
    await drawer
      .getByText(/waiting… \d s left/)
      .first()
      .waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'running.png') });

    const results = drawer.getByRole('region', { name: 'Results of Show LoRa packet forwarder status' });
    await drawer.getByRole('button', { name: 'Run on 2 sessions' }).waitFor({ timeout: 30_000 });
    const passed = results.locator('[data-outcome="ok"]');
    const failed = results.locator('[data-outcome="failed"]');
    expect(await passed.getByRole('heading').textContent()).toContain(consoles[0]!.gatewayId);
    expect(await passed.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^\/etc\/init\.d\/pkt_fwd status\s*seen after \d+\.\d s$/),
      expect.stringMatching(/^ps \| grep pkt_fwd\s*seen after/),
      expect.stringMatching(/^logread \| grep pkt_fwd \| tail -n 20\s*seen after/),
    ]);
    expect(await failed.getByRole('heading').textContent()).toContain(consoles[1]!.gatewayId);
    expect(await failed.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/not seen within 4 s$/),
      expect.stringMatching(/not run$/),
      expect.stringMatching(/not run$/),
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'results.png') });
  }, 150_000);

  it('refuses a file that is not a runbook file, saying why, and keeps the runbooks', async () => {
    const drawer = page.getByRole('complementary', { name: 'Runbooks' });
    const chooser = page.waitForEvent('filechooser');
    await drawer.getByRole('button', { name: 'Import…' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"runbooks": []}'),
    });
    await drawer
      .getByText(/^Not imported: This file is not a runbook file: Field Kit reads the files its Export makes/)
      .waitFor();
    expect(await drawer.getByRole('combobox', { name: 'Runbook' }).locator('option').count()).toBe(3);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'import-refused.png') });
  }, 60_000);

  it('says in the editor why a pattern is refused, and saves nothing', async () => {
    const drawer = page.getByRole('complementary', { name: 'Runbooks' });
    await drawer.getByRole('button', { name: 'New…' }).click();
    const editor = page.getByRole('dialog', { name: 'New runbook' });
    await editor.getByLabel('Name').fill('Forwarder restarts');
    await editor.getByLabel('Step 1: line to send').fill('logread | grep restart');
    await editor.getByLabel('Step 1: wait for').selectOption({ label: 'wait for pattern' });
    await editor.getByLabel('Step 1: pattern to wait for').fill('(restart.*)+');
    await editor
      .getByText(
        'A repeated group may not itself repeat or hold alternatives (like (a+)+ or (a|ab)*): it can take forever to match.',
      )
      .first()
      .waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'pattern-refused.png') });
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor
      .getByRole('alert')
      .getByText(/^Step 1, wait for: A repeated group/)
      .waitFor();
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'detached' });
    expect(
      await drawer.getByRole('combobox', { name: 'Runbook' }).locator('option').allTextContents(),
    ).not.toContain('Forwarder restarts (1 steps)');
  }, 60_000);
});
