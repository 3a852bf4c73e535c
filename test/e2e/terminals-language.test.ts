import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import { PROBE_SCRIPT, typeInTerminal, waitForTerminalText } from '../bench/terminal-rig';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { ensureRendererBuilt } from './support/renderer-build';

// The terminals in German end to end: Chromium started in de-DE → browser host → TerminalManager → the demo serial
// console. The controls, the status bar and both drawers speak German, including what main writes (the demo
// port's label, the shipped runbooks' names); switching to French in Settings redraws them in place while the open
// console and its scrollback stay (no reload, no reconnect).

declare global {
  interface Window {
    /** Set by the test before the language changes: still there afterwards means the page was not reloaded. */
    languageSwitchMarker?: boolean;
  }
}

let host: StartedHost;
let browser: BrowserSession;
let page: Page;
let dataDir: string;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-terminals-language-'));
  host = await startHost({
    demo: true,
    simulator: { offlineFraction: 0 },
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: { info: () => undefined, error: () => undefined },
  });
  browser = await launchBrowser({ locale: 'de-DE', stepTimeoutMs: 30_000 });
  page = browser.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.addInitScript(PROBE_SCRIPT);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Everything the shown terminal holds, screen and scrollback. */
function readTerminalText(): Promise<string> {
  return page.evaluate(() => {
    const id = document
      .querySelector('.pane:not([hidden]) [data-terminal-id]')
      ?.getAttribute('data-terminal-id');
    return (id && window.fieldKitTerminalProbe!.serializers?.[id]?.()) || '';
  });
}

describe('the terminals in German', () => {
  it('opens the demo serial console from the first screen, its port named in German by main', async () => {
    await page.goto(host.url);
    // The first screen's "Open a serial console" (its words belong to the login screen): no sign-in needed.
    await page.locator('section[aria-labelledby="field-title"] button').first().click();
    const dialog = page.getByRole('dialog');
    const port = dialog.locator('select[name="port"]');
    await port.selectOption({ label: 'Konsole des Demo-Gateways' });
    await dialog.locator('button[type="submit"]').click();
    await dialog.waitFor({ state: 'detached' });
    await waitForTerminalText(page, 'login: ');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Terminals');
  }, 180_000);

  it('shows the controls and the status bar in German', async () => {
    const toolbar = page.getByRole('toolbar', { name: 'Terminal-Aktionen' });
    for (const name of ['Suchen…', 'Kopieren', 'Einfügen', 'Break senden', 'Diagnose sammeln', 'Trennen'])
      await toolbar.getByRole('button', { name, exact: true }).waitFor();
    expect(await toolbar.getByTestId('signal-dtr').textContent()).toBe('DTR: ein');
    expect(await page.getByTestId('terminal-state').textContent()).toBe('Verbunden');
    const status = (await page.getByLabel('Terminal-Status').textContent()) ?? '';
    expect(status).toMatch(/Empfangen .*Gesendet .*Protokoll: /);
    await page.getByRole('tablist', { name: 'Geöffnete Terminals' }).waitFor();

    await toolbar.getByRole('button', { name: 'Einstellungen ▾' }).click();
    const settings = page.getByRole('group', { name: 'Terminal-Einstellungen' });
    for (const label of ['Schriftgröße', 'Verlaufszeilen', 'Einfügeverzögerung (ms)'])
      await settings.getByText(label, { exact: true }).waitFor();
    await settings.getByText('Hex-Ansicht').waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'hidden' });
  });

  it('shows the Runbooks drawer in German, with the shipped runbooks named by main in German', async () => {
    await page.getByRole('button', { name: 'Runbooks', exact: true }).click();
    const drawer = page.getByRole('complementary', { name: 'Runbooks' });
    const choice = drawer.getByRole('combobox', { name: 'Runbook' });
    await expect
      .poll(() => choice.locator('option').allTextContents())
      .toContain('Protokolle sammeln (4 Schritte)');
    await drawer.getByText('Ausführen auf', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Auf 1 Sitzung ausführen' }).waitFor();
    await drawer.getByRole('button', { name: 'Schließen' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('shows the diagnostics drawer in German', async () => {
    await page.getByRole('button', { name: 'Diagnose sammeln' }).click();
    const drawer = page.getByRole('complementary', { name: /^Diagnose von / });
    // At the login prompt, with no root password kept: the drawer asks for it.
    await drawer.getByLabel('Root-Passwort (vom Etikett des Gateways)').waitFor({ timeout: 60_000 });
    await drawer.getByRole('button', { name: 'Anmelden und sammeln' }).waitFor();
    await drawer.getByRole('button', { name: 'Abbrechen' }).click();
    await drawer.waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toMatch(/\bterminals:/);
  }, 90_000);

  it('switches to French in Settings without a reload: the console, its scrollback and its log stay', async () => {
    await typeInTerminal(page, 'root\r');
    await waitForTerminalText(page, 'Password:');
    const before = await readTerminalText();
    const logName = await page.getByLabel('Terminal-Status').getByRole('link').textContent();
    await page.evaluate(() => (window.languageSwitchMarker = true));

    await page.evaluate(() => (location.hash = '#/settings'));
    await page.locator('#language-choice').selectOption('fr');
    await page.evaluate(() => (location.hash = '#/terminals'));

    const toolbar = page.getByRole('toolbar', { name: 'Actions du terminal' });
    await toolbar.getByRole('button', { name: 'Rechercher…' }).waitFor();
    await toolbar.getByRole('button', { name: 'Collecter le diagnostic' }).waitFor();
    expect(await page.getByTestId('terminal-state').textContent()).toBe('Connecté');
    expect(await page.getByLabel('État du terminal').getByRole('link').textContent()).toBe(logName);
    expect(await page.getByRole('tab').count()).toBe(1);
    expect(await readTerminalText()).toContain(before.trimEnd());
    expect(await page.evaluate(() => window.languageSwitchMarker)).toBe(true);
  });
});
