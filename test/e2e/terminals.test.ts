import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkFloodInPage,
  openReverseTerminal,
  signInAndOpenTerminals,
  startTerminalRig,
  typeInTerminal,
  waitForTerminalText,
  type TerminalRig,
} from '../bench/terminal-rig';
import { playwrightPage } from '../helpers/cdp-page';

declare global {
  interface Window {
    /** Bytes the terminal probe has been handed since the flood test started counting. */
    bytesSeen?: number;
  }
}

// The terminals end to end: Chromium → browser host → TerminalManager → SSH relay / demo serial console of the
// in-process simulator, with xterm.js drawing (DOM renderer: headless Chromium has only a software WebGL here).

let rig: TerminalRig;
let page: Page;

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  await signInAndOpenTerminals(page, rig.url);
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe('terminals in the browser', () => {
  it('opens a reverse-SSH terminal to a demo gateway after asking its root password once, and runs uname -a', async () => {
    await openReverseTerminal(page, rig.gateway.id, rig.gateway.rootPassword);
    await waitForTerminalText(page, `root@`);
    await typeInTerminal(page, 'uname -a\r');
    await waitForTerminalText(page, 'armv7l GNU/Linux');
    expect(await page.getByTestId('terminal-state').textContent()).toBe('Connected');
    expect(await page.getByLabel('Terminal status').textContent()).toMatch(/Log: .*\.log/);
    // Typed as an id, named as the gateway list (the first view after sign-in) showed it.
    expect(await page.getByRole('tab', { selected: true }).textContent()).toContain(
      `${rig.gateway.name} (reverse SSH)`,
    );
  }, 120_000);

  it('draws with the DOM renderer when WebGL would run on the CPU (SwiftShader here), and does not say so', async () => {
    expect(await page.locator('.pane:not([hidden]) [data-terminal-id]').getAttribute('data-renderer')).toBe(
      'DOM',
    );
    expect(await page.getByLabel('Terminal status').textContent()).not.toContain('renderer');
  });

  it('runs no animation while the terminal waits at its prompt (each animation frame is CPU, here about 12% of a core)', async () => {
    await page.locator('.pane:not([hidden]) .xterm-helper-textarea').focus();
    const running = await page.evaluate(() =>
      document.getAnimations().map((animation) => (animation as CSSAnimation).animationName ?? animation.id),
    );
    expect(running).toEqual([]);
  });

  it('finds text in the scrollback (or says it is not there), sizes the font and scrollback, and counts bytes', async () => {
    const shown = () =>
      page.evaluate(() => {
        const id = document
          .querySelector('.pane:not([hidden]) [data-terminal-id]')!
          .getAttribute('data-terminal-id')!;
        const terminal = window.fieldKitTerminalProbe!.terminals[id]!;
        return { selection: terminal.getSelection(), ...terminal.options };
      });
    await page.getByRole('button', { name: 'Find…' }).click();
    const find = page.getByRole('textbox', { name: 'Find in the scrollback' });
    await find.fill('armv7l');
    await find.press('Enter');
    expect((await shown()).selection).toBe('armv7l');
    expect(await page.getByText('Not found').count()).toBe(0);
    await find.fill('no-such-text-here');
    await find.press('Enter');
    await page.getByText('Not found').waitFor();
    await find.press('Escape');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Font size').fill('20');
    await expect.poll(async () => (await shown()).fontSize).toBe(20);
    await page.getByLabel('Font size').fill('14');
    await page.getByLabel('Scrollback').fill('50000');
    await expect.poll(async () => (await shown()).scrollback).toBe(50_000);
    // Settings are kept across reloads now: back to the default, as the flood checks below read the whole buffer.
    await page.getByLabel('Scrollback').fill('10000');
    await expect.poll(async () => (await shown()).scrollback).toBe(10_000);
    await page.keyboard.press('Escape');
    // Typed so far in this tab: `uname -a` and Enter.
    await expect.poll(() => page.getByLabel('Terminal status').textContent()).toMatch(/In \d.* Out 9 bytes/);
  });

  it('receives a 20 MB flood complete: the SHA-256 of the bytes the page received matches the gateway’s line', async () => {
    const result = await checkFloodInPage(playwrightPage(page), 20, 180_000);
    expect(result.bytes).toBe(20_000_000);
    expect(result.actual).toBe(result.expected);
  }, 240_000);

  it('streams on after a reload in the middle of a flood: nothing stays paused for what the old page never acknowledged', async () => {
    await page.evaluate(() => {
      const probe = window.fieldKitTerminalProbe!;
      const onBytes = probe.onBytes.bind(probe);
      let bytesSeen = 0;
      window.bytesSeen = bytesSeen;
      probe.onBytes = (id, bytes) => {
        window.bytesSeen = bytesSeen += bytes.length;
        onBytes(id, bytes);
      };
    });
    await typeInTerminal(page, 'flood 100\r');
    // Reloaded while xterm has a few MB of the flood in hand, unacknowledged.
    await page.waitForFunction(() => (window.bytesSeen ?? 0) > 2e6, undefined, {
      polling: 20,
      timeout: 60_000,
    });
    await page.reload();
    await page.getByRole('tab', { name: `${rig.gateway.name} (reverse SSH)` }).waitFor();
    await waitForTerminalText(page, 'sha256 ', 120_000);
    await typeInTerminal(page, 'uname -a\r');
    await waitForTerminalText(page, 'armv7l GNU/Linux');
    expect(await page.getByTestId('terminal-state').textContent()).toBe('Connected');
  }, 240_000);

  it('opens the demo serial console, logs in and runs a command', async () => {
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Demo gateway console' });
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitForTerminalText(page, 'login: ');
    await typeInTerminal(page, 'root\r');
    await waitForTerminalText(page, 'Password:');
    await typeInTerminal(page, `${rig.gateway.rootPassword}\r`);
    await waitForTerminalText(page, ':~# ');
    await typeInTerminal(page, 'uname -a\r');
    await waitForTerminalText(page, 'armv7l GNU/Linux');
    expect(await page.getByRole('tab').count()).toBe(2);
    expect(await page.getByLabel('Terminal status').textContent()).toContain('115200 8N1');
    // Named after the gateway behind the demo console, tab and log file alike.
    expect(await page.getByRole('tab', { selected: true }).textContent()).toContain(
      `${rig.gateway.name} · 115200 8N1`,
    );
    expect(await page.getByLabel('Terminal status').getByRole('link').textContent()).toMatch(
      new RegExp(`^${rig.gateway.name}_\\d{4}-\\d{2}-\\d{2}_`),
    );
  }, 120_000);

  it('shows DTR and RTS as the port has them and toggles one without touching the other', async () => {
    const dtr = page.getByRole('button', { name: /^DTR: / });
    const rts = page.getByRole('button', { name: /^RTS: / });
    // Left as the port opened: asserted.
    expect([await dtr.textContent(), await rts.textContent()]).toEqual(['DTR: on', 'RTS: on']);
    await dtr.click();
    await page.getByRole('button', { name: 'DTR: off' }).waitFor();
    expect(await dtr.getAttribute('aria-pressed')).toBe('false');
    expect(await rts.textContent()).toBe('RTS: on');
  });

  it('frees the serial port with Disconnect, keeping the tab, and connects again with Reconnect', async () => {
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => page.getByTestId('terminal-state').textContent()).toBe('Disconnected');
    expect(await page.getByLabel('Terminal status').textContent()).toContain(
      'the port is free for other programs',
    );
    // A port that is not open has no line state: unknown, not the last one set.
    expect([
      await page.getByTestId('signal-dtr').textContent(),
      await page.getByTestId('signal-rts').textContent(),
    ]).toEqual(['DTR: —', 'RTS: —']);
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(() => page.getByTestId('terminal-state').textContent()).toBe('Connected');
    // Reopened, the port gets the lines as the user last set them (DTR released above).
    expect(await page.getByTestId('signal-dtr').textContent()).toBe('DTR: off');
    // The console starts over at its login prompt; the screen kept what was there before.
    await typeInTerminal(page, '\r');
    await waitForTerminalText(page, 'login: ');
    await waitForTerminalText(page, 'armv7l GNU/Linux');
    await typeInTerminal(page, 'root\r');
    await waitForTerminalText(page, 'Password:');
    await typeInTerminal(page, `${rig.gateway.rootPassword}\r`);
    await waitForTerminalText(page, ':~# ');
  });

  it('shows what the serial console sends as hex while Hex view is on', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const hexView = page.getByRole('checkbox', { name: 'Hex view' });
    await hexView.check();
    await page.keyboard.press('Escape');
    await typeInTerminal(page, '\r');
    // The prompt again, as a hex dump line: CR LF, then the prompt's '# '.
    await waitForTerminalText(page, '0d 0a');
    await waitForTerminalText(page, '23 20');
    await page.getByRole('button', { name: 'Settings' }).click();
    await hexView.uncheck();
    await page.keyboard.press('Escape');
    expect(rig.pageErrors).toEqual([]);
  });

  it('finds a gateway by name in the reverse-SSH dialog and names the tab after it', async () => {
    await page.getByRole('button', { name: 'Reverse SSH to a gateway' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reverse SSH to a gateway' });
    const field = dialog.getByLabel('Gateway', { exact: true });
    await field.pressSequentially('no-such-gateway');
    await dialog.getByText('No gateway of yours has “no-such-gateway” in its name or MAC').waitFor();
    await field.clear();
    await field.pressSequentially(rig.gateway.name.slice(0, -1));
    const matches = dialog.getByRole('list', { name: 'Matching gateways' });
    await matches.getByRole('button', { name: new RegExp(`^${rig.gateway.name} `) }).click();
    expect(await dialog.getByText(`ID ${rig.gateway.id}`).count()).toBe(1);
    // The root password was kept in the keychain by the first session: no question this time.
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 90_000 });
    // The second session to this gateway: its tab is the last one of that name.
    const tab = page.getByRole('tab', { name: `${rig.gateway.name} (reverse SSH)` }).last();
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    await waitForTerminalText(page, `root@`);
  }, 120_000);

  it('moves between terminal tabs with the arrow keys, Home and End, showing the panel of the tab reached', async () => {
    const tabs = page.getByRole('tab');
    const titles = await tabs.allTextContents();
    expect(titles).toHaveLength(3);
    const selected = async () => ({
      tab: await page.getByRole('tab', { selected: true }).textContent(),
      focused: await page.evaluate(() => document.activeElement?.textContent ?? ''),
      panel: await page.getByRole('tabpanel').getAttribute('aria-labelledby'),
    });
    await page.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('Home');
    expect(await selected()).toMatchObject({ tab: titles[0], focused: titles[0] });
    await page.keyboard.press('ArrowLeft');
    expect(await selected()).toMatchObject({ tab: titles[2], focused: titles[2] });
    await page.keyboard.press('ArrowRight');
    const first = await selected();
    expect(first).toMatchObject({ tab: titles[0], focused: titles[0] });
    expect(first.panel).toBe(await tabs.first().getAttribute('id'));
    await page.keyboard.press('End');
    expect(await selected()).toMatchObject({ tab: titles[2], focused: titles[2] });
  });

  it('pastes the clipboard into the shell with Paste, and copies the selection with Copy', async () => {
    await rig.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(rig.url).origin,
    });
    // The tab shown (the last one) holds only its prompt so far: the answer can only come from the paste.
    expect(await page.getByRole('tab', { selected: true }).textContent()).toContain('(reverse SSH)');
    await page.evaluate(() => navigator.clipboard.writeText('uname -a'));
    await page.getByRole('button', { name: 'Paste', exact: true }).click();
    await waitForTerminalText(page, '# uname -a');
    await typeInTerminal(page, '\r');
    await waitForTerminalText(page, 'armv7l GNU/Linux');
    await page.evaluate(() => {
      const id = document
        .querySelector('.pane:not([hidden]) [data-terminal-id]')!
        .getAttribute('data-terminal-id')!;
      window.fieldKitTerminalProbe!.terminals[id]!.selectAll();
    });
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain('armv7l GNU/Linux');
  });

  it('names the log of a terminal closed during the visit in the site report', async () => {
    const firstTab = page.getByRole('tab').first();
    await firstTab.click();
    // The status bar shows the log's file name, with the full path as the link's title.
    const logLink = page.getByLabel('Terminal status').getByRole('link');
    const logPath = await logLink.getAttribute('title');
    expect(logPath).toMatch(/^\/.*\.log$/);
    expect(await logLink.textContent()).toBe(logPath!.split('/').pop());
    const title = (await firstTab.textContent())!.trim();
    const closeButton = page.getByRole('button', { name: `Close terminal ${title}` }).first();
    await closeButton.click();
    // A live session asks first; Cancel keeps it.
    const confirm = page.getByRole('dialog', { name: 'Close this terminal?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByRole('tab').count()).toBe(3);
    await closeButton.click();
    await confirm.getByRole('button', { name: 'Close the terminal' }).click();
    await expect.poll(() => page.getByRole('tab').count()).toBe(2);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await navigation.getByRole('link', { name: 'Fleet & report' }).click();
    await page.getByRole('link', { name: 'Site report' }).click();
    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByLabel('Report written');
    await written.waitFor({ timeout: 60_000 });
    const htmlPath = /Saved (\/\S+\.html)/.exec((await written.textContent()) ?? '')?.[1];
    expect(htmlPath).toBeDefined();
    const html = await readFile(htmlPath!, 'utf8');
    // Named by its place in the exported bundle, where the export attaches it (no file:// link).
    expect(html).toContain(`<code>logs/${basename(logPath!)}</code>`);
  }, 120_000);

  it('shows the terminals as they were after a look at another view, scrollback and all', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();
    await expect.poll(() => page.getByRole('tab').count()).toBe(2);
    // Printed before the visit to the report, and nothing was typed since.
    await waitForTerminalText(page, 'armv7l GNU/Linux', 5_000);
  });

  it('opens the reverse-SSH dialog for a gateway from its page, with the terminals view already open', async () => {
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), rig.gateway.id);
    await page.getByRole('link', { name: 'Terminal on this gateway (reverse SSH)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reverse SSH to a gateway' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Gateway', { exact: true }).inputValue()).toBe(rig.gateway.name);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  }, 60_000);

  it('on Reconnect to a reinstalled gateway, refuses its new host key until "Replace key", then reconnects', async () => {
    const tab = page.getByRole('tab', { name: `${rig.gateway.name} (reverse SSH)` });
    expect(await tab.count()).toBe(1);
    await tab.click();
    await rig.simulator!.sshWorld!.reinstallGateway(rig.gateway.id);
    await expect
      .poll(() => page.getByTestId('terminal-state').textContent(), { timeout: 30_000 })
      .toBe('Disconnected');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'The host key has changed' });
    await warning.waitFor({ timeout: 60_000 });
    expect(await warning.textContent()).toContain(
      rig.simulator!.sshWorld!.gatewayHostKey(rig.gateway.id).fingerprint,
    );
    expect(await page.getByTestId('terminal-state').textContent()).toBe('Disconnected');
    await warning.getByRole('button', { name: 'Replace key' }).click();
    await expect
      .poll(() => page.getByTestId('terminal-state').textContent(), { timeout: 60_000 })
      .toBe('Connected');
    await warning.waitFor({ state: 'detached' });
    await typeInTerminal(page, 'uptime\r');
    await waitForTerminalText(page, 'load average');
  }, 180_000);

  it('checks a direct SSH session to a gateway named in the dialog against the key reverse SSH pinned for it, and names the tab after it', async () => {
    const address = await rig.simulator!.sshWorld!.gatewayAddress(rig.gateway.id);
    await page.getByRole('button', { name: 'Direct SSH' }).click();
    const dialog = page.getByRole('dialog', { name: 'Direct SSH' });
    await dialog.getByLabel('Host').fill(address.host);
    await dialog.getByLabel('Port').fill(String(address.port));
    await dialog.getByLabel('Password').fill(rig.gateway.rootPassword);
    await dialog.getByLabel('Gateway (optional)').pressSequentially(rig.gateway.name.slice(0, -1));
    const matches = dialog.getByRole('list', { name: 'Matching gateways' });
    await matches.getByRole('button', { name: new RegExp(`^${rig.gateway.name} `) }).click();
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    const tab = page.getByRole('tab', { name: `${rig.gateway.name} (SSH)` });
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    await waitForTerminalText(page, 'root@');
    // Pinned by gateway, the key is the one already trusted: not new, as it would be for an address seen first.
    const status = await page.getByLabel('Terminal status').textContent();
    expect(status).toContain(
      `Gateway key ${rig.simulator!.sshWorld!.gatewayHostKey(rig.gateway.id).fingerprint}`,
    );
    expect(status).not.toContain('trusted on first use');
    await page.getByRole('button', { name: `Close terminal ${rig.gateway.name} (SSH)` }).click();
    await page.getByRole('button', { name: 'Close the terminal' }).click();
    await tab.waitFor({ state: 'detached' });
  }, 120_000);

  it('asks for the new root password when Reconnect is refused the one it had, and connects with it', async () => {
    const state = () => page.getByTestId('terminal-state').textContent();
    await page
      .getByRole('tab', { name: `${rig.gateway.name} (reverse SSH)` })
      .first()
      .click();
    expect(await state()).toBe('Connected');
    // Another technician changed it: the gateway's shells end, and the password kept for it no longer works.
    await rig.simulator!.sshWorld!.changeRootPassword(rig.gateway.id, 'changed-Pa55');
    await expect.poll(state, { timeout: 30_000 }).toBe('Disconnected');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    const newPassword = page.getByLabel('New password');
    await newPassword.waitFor({ timeout: 60_000 });
    expect(await page.getByLabel('Terminal status').textContent()).toMatch(
      /refused the root password .*Enter the one on its label/,
    );
    await newPassword.fill('changed-Pa55');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(state, { timeout: 60_000 }).toBe('Connected');
    await typeInTerminal(page, 'uptime\r');
    await waitForTerminalText(page, 'load average');
  }, 180_000);

  it('fits the terminal in the window: every row whole, the status bar in sight, no page scroll', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const layout = async () =>
      page.evaluate(() => {
        const pane = document.querySelector('.pane:not([hidden]) [data-terminal-id]')!;
        const screen = pane.querySelector('.xterm-screen')!;
        return {
          paneBottom: pane.getBoundingClientRect().bottom,
          screenBottom: screen.getBoundingClientRect().bottom,
          statusBottom: document.querySelector('[aria-label="Terminal status"]')!.getBoundingClientRect()
            .bottom,
          windowHeight: window.innerHeight,
          pageHeight: document.documentElement.scrollHeight,
        };
      });
    await expect.poll(async () => (await layout()).pageHeight).toBe(720);
    const { paneBottom, screenBottom, statusBottom, windowHeight } = await layout();
    expect(screenBottom).toBeLessThanOrEqual(paneBottom);
    expect(statusBottom).toBeLessThanOrEqual(windowHeight);
  });

  it('reports no page error while doing all that', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
