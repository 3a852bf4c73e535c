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
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../helpers/socat';

// The terminal as a technician uses it at 1280×720: Chromium → browser host → TerminalManager → socat ptys (one to
// a simulated gateway's console, one whose far end the test plays). Screenshots go to SCREENSHOT_DIR.

const SCREENSHOT_DIR = join(tmpdir(), 'field-kit-terminal-room');

let rig: TerminalRig;
let page: Page;
let directory: string;
let gatewayConsole: AttachedSerialConsole;
let gatewayId: string;
let rootPassword: string;
let pair: SocatPair;
let gatewaySide: RawPortEnd;

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  const simulator = rig.simulator!;
  const gateway = simulator.world.tenant.gateways.find((entity) => !entity.isOfflineFromStart);
  if (!gateway) throw new Error('the demo tenant has no gateway online');
  gatewayId = gateway.id;
  rootPassword = gateway.rootPassword;
  directory = await mkdtemp(join(tmpdir(), 'terminal-room-e2e-'));
  gatewayConsole = await attachSerialConsole({
    ...simulator.serialConsoleOf(gatewayId),
    linkPath: join(directory, 'console'),
  });
  pair = await startSocatPair();
  gatewaySide = await openRawEnd(pair.pathB);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAndOpenTerminals(page, rig.url);
}, 120_000);

afterAll(async () => {
  await gatewaySide?.close();
  await pair?.cleanup();
  await rig?.close();
  await gatewayConsole?.close();
  await rm(directory, { recursive: true, force: true });
});

/** The shown terminal's rows and font size, as xterm has them. */
function shownTerminal(page: Page): Promise<{ rows: number; cols: number; fontSize: number }> {
  return page.evaluate(() => {
    const id = document
      .querySelector('.pane:not([hidden]) [data-terminal-id]')!
      .getAttribute('data-terminal-id')!;
    const terminal = window.fieldKitTerminalProbe!.terminals[id]!;
    return { rows: terminal.rows, cols: terminal.cols, fontSize: terminal.options.fontSize ?? 0 };
  });
}

/** True when the status bar is whole inside the window (nothing pushed it below). */
async function isStatusBarInView(page: Page): Promise<boolean> {
  const box = await page.getByLabel('Terminal status').boundingBox();
  return box !== null && box.y + box.height <= 720;
}

/** The shown terminal's lines as text (screen and scrollback, no escape sequences; a wrapped line is one). */
function terminalLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const id = document
      .querySelector('.pane:not([hidden]) [data-terminal-id]')!
      .getAttribute('data-terminal-id')!;
    const terminal = window.fieldKitTerminalProbe!.terminals[id]!;
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let index = 0; index < buffer.length; index++) {
      const line = buffer.getLine(index)!;
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += line.translateToString(true);
      else lines.push(line.translateToString(true));
    }
    return lines;
  });
}

/** Pastes text into the shown terminal the way a browser does (a paste event with the clipboard's text). */
async function pasteIntoTerminal(page: Page, text: string): Promise<void> {
  await page.locator('.pane:not([hidden]) .xterm-helper-textarea').evaluate((field, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    field.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

describe('the terminal at 1280×720', () => {
  it('fills the window: at least 24 rows, settings behind one button, no renderer name in the status bar', async () => {
    await openSerialConsole(page, gatewayConsole.linkPath, gatewayId);
    await typeInTerminal(page, '\r');
    await waitForTerminalText(page, 'login: ');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'terminal.png') });
    await expect.poll(async () => (await shownTerminal(page)).rows).toBeGreaterThanOrEqual(24);
    expect(await isStatusBarInView(page)).toBe(true);
    expect(await page.getByLabel('Font size').count()).toBe(0);
    expect(await page.getByLabel('Terminal status').textContent()).not.toMatch(/renderer|WebGL|DOM/);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'terminal.png') });
  }, 120_000);

  it('asks the diagnostics password in the drawer with the focus in its field, and keeps 24 rows with the health panel open', async () => {
    await page.getByRole('button', { name: 'Collect diagnostics' }).click();
    const password = page.getByLabel("Root password (from the gateway's label)");
    await password.waitFor({ timeout: 60_000 });
    expect(await password.evaluate((field) => field === document.activeElement)).toBe(true);
    // Its hint is right under it, in the drawer.
    const drawer = page.getByRole('complementary', { name: /^Diagnostics of / });
    expect(await drawer.locator('#' + (await password.getAttribute('aria-describedby'))).count()).toBe(1);
    expect((await shownTerminal(page)).rows).toBeGreaterThanOrEqual(24);
    expect(await isStatusBarInView(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'password.png') });
    await page.keyboard.type(rootPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: `Health of ${gatewayId}` }).waitFor({ timeout: 90_000 });
    await expect.poll(async () => (await shownTerminal(page)).rows).toBeGreaterThanOrEqual(24);
    expect(await isStatusBarInView(page)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'health-panel.png') });
  }, 150_000);

  it('finds text in the scrollback with Ctrl+Shift+F, and says when it is not there', async () => {
    // The diagnostics' commands scrolled by on the console.
    await page.locator('.pane:not([hidden]) .xterm-helper-textarea').focus();
    await page.keyboard.press('Control+Shift+F');
    const find = page.getByRole('textbox', { name: 'Find in the scrollback' });
    expect(await find.evaluate((field) => field === document.activeElement)).toBe(true);
    await find.fill('ip route');
    await find.press('Enter');
    await expect
      .poll(() =>
        page.evaluate(() => {
          const id = document
            .querySelector('.pane:not([hidden]) [data-terminal-id]')!
            .getAttribute('data-terminal-id')!;
          return window.fieldKitTerminalProbe!.terminals[id]!.getSelection();
        }),
      )
      .toBe('ip route');
    await find.fill('no-such-text-anywhere');
    await find.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Not found' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'search.png') });
    await find.press('Escape');
    expect(await find.count()).toBe(0);
  });

  it('asks before pasting several lines, showing how many and the first ones', async () => {
    await openSerialConsole(page, pair.pathA, 'kona-room');
    await gatewaySide.write('\r\nroot@kona-room:~# ');
    await waitForTerminalText(page, 'root@kona-room:~# ');
    await pasteIntoTerminal(page, 'echo one\necho two\necho three\necho four\n');
    const question = page.getByRole('dialog', { name: 'Paste 4 lines?' });
    await question.waitFor();
    expect(await question.textContent()).toContain('echo one ⏎ echo two ⏎ echo three ⏎ …');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'paste.png') });
    await question.getByRole('button', { name: 'Cancel' }).click();
    await pasteIntoTerminal(page, 'echo five\necho six');
    await page
      .getByRole('dialog', { name: 'Paste 2 lines?' })
      .getByRole('button', { name: 'Paste 2 lines' })
      .click();
    await gatewaySide.waitForText('echo six');
    expect(gatewaySide.received.toString('latin1')).not.toContain('echo one');
  });

  it('pastes one line without asking', async () => {
    await pasteIntoTerminal(page, 'uptime');
    await gatewaySide.waitForText('uptime');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('shows the time of each line once asked, and zooms with Ctrl +, − and 0', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('group', { name: 'Terminal settings' });
    await settings.getByRole('checkbox', { name: 'Show the time of each line' }).check();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'settings.png') });
    await page.keyboard.press('Escape');
    await gatewaySide.write('\r\nstamped line\r\n');
    await expect
      .poll(async () =>
        (await terminalLines(page)).some((line) => /^\[\d\d:\d\d:\d\d\.\d{3}\] stamped line$/.test(line)),
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('checkbox', { name: 'Show the time of each line' }).uncheck();
    await page.keyboard.press('Escape');

    await page.locator('.pane:not([hidden]) .xterm-helper-textarea').focus();
    const before = await shownTerminal(page);
    await page.keyboard.press('Control+Equal');
    await expect.poll(async () => (await shownTerminal(page)).fontSize).toBe(before.fontSize + 1);
    await page.keyboard.press('Control+Minus');
    await page.keyboard.press('Control+Minus');
    await expect.poll(async () => (await shownTerminal(page)).fontSize).toBe(before.fontSize - 1);
    await page.keyboard.press('Control+0');
    await expect.poll(async () => (await shownTerminal(page)).fontSize).toBe(14);
  });

  it('copies a selection as soon as it is made with Copy on select, and keeps a text copy for screen readers once asked', async () => {
    await rig.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(rig.url).origin,
    });
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('group', { name: 'Terminal settings' });
    await settings.getByRole('checkbox', { name: 'Copy on select' }).check();
    await settings.getByRole('checkbox', { name: 'Screen reader mode' }).check();
    await page.keyboard.press('Escape');
    await page.evaluate(() => {
      const id = document
        .querySelector('.pane:not([hidden]) [data-terminal-id]')!
        .getAttribute('data-terminal-id')!;
      window.fieldKitTerminalProbe!.terminals[id]!.selectAll();
    });
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain('root@kona-room:~# ');
    expect(await page.locator('.pane:not([hidden]) .xterm-accessibility-tree').count()).toBe(1);
    await page.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('checkbox', { name: 'Copy on select' }).uncheck();
    await settings.getByRole('checkbox', { name: 'Screen reader mode' }).uncheck();
    await page.keyboard.press('Escape');
  });

  it('writes a dim line into the terminal when the adapter goes, and another when the port is open again', async () => {
    await gatewaySide.close();
    await pair.stop();
    await waitForTerminalText(page, '— disconnected: ');
    const disconnected = (await terminalLines(page)).find((line) => line.startsWith('— disconnected: '));
    expect(disconnected).toMatch(/ \d\d:\d\d:\d\d —$/);
    await pair.restart();
    gatewaySide = await openRawEnd(pair.pathB);
    await waitForTerminalText(page, '— reconnected ', 60_000);
    expect((await terminalLines(page)).find((line) => line.startsWith('— reconnected '))).toMatch(
      /^— reconnected \d\d:\d\d:\d\d —$/,
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'reconnected.png') });
  }, 90_000);

  it('reports no page error', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
