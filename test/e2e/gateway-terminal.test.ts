import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTerminalRig, type TerminalRig } from '../bench/terminal-rig';
import { signIn } from './support/login-page';

// A reverse-SSH terminal opened from a gateway's page, through the browser host, the simulator's relay and a demo
// gateway's shell. "On screen" is what xterm drew (its DOM renderer's rows in the pane shown), not its buffer.

let rig: TerminalRig;
let page: Page;

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  await page.setViewportSize({ width: 1280, height: 720 });
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

/** The text xterm drew in the terminal shown, once that terminal has a size (a hidden one has none). */
async function screenText(): Promise<string> {
  return page.evaluate(() => {
    const screen = document.querySelector<HTMLElement>('.pane:not([hidden]) .xterm-screen');
    if (!screen || screen.getBoundingClientRect().height === 0) return '';
    return screen.querySelector('.xterm-rows')?.textContent ?? '';
  });
}

describe('a terminal opened from the gateway page', () => {
  it("reverse SSH opened from the gateway page shows the gateway's prompt on screen", async () => {
    await signIn(page, rig.url, /^Use /);
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), rig.gateway.id);
    await page.getByRole('heading', { name: rig.gateway.name, level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Terminal on this gateway (reverse SSH)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reverse SSH to a gateway' });
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.getByLabel('Root password of the gateway').fill(rig.gateway.rootPassword);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 90_000 });

    await expect.poll(screenText, { timeout: 30_000 }).toContain(`root@${rig.gateway.name}:~#`);
    expect(await page.getByTestId('terminal-state').textContent()).toBe('Connected');
  }, 120_000);

  it('draws the same screen again after a reload, without asking for the gateway again', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Terminals', level: 1 }).waitFor();

    await expect.poll(screenText, { timeout: 30_000 }).toContain(`root@${rig.gateway.name}:~#`);
    expect(await screenText()).toContain('BusyBox');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(new URL(page.url()).hash).toBe('#/terminals');
  }, 60_000);

  it('runs a command typed after the reload and shows its answer below the replayed screen', async () => {
    await page.locator('.pane:not([hidden]) .xterm-helper-textarea').focus();
    await page.keyboard.type('uname -a\r');
    await expect.poll(screenText, { timeout: 30_000 }).toContain('armv7l GNU/Linux');
  }, 60_000);

  it('reports no page error', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
