import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The smoke test of the real Electron app (npm run test:electron, docs/release.md): the built main process
// (out/main/index.js) with its preload and renderer, started with an empty data folder so that it runs its
// demo (electron/main/demo.ts): the simulator in-process, a demo profile, the "Demo gateway console".

const ROOT = join(import.meta.dirname, '..', '..');

let app: ElectronApplication;
let page: Page;
let userDataDir: string;
let username = '';
const pageErrors: string[] = [];

beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'fieldkit-electron-'));
  // No executablePath: Playwright then finds the runtime through the electron package and preloads its loader,
  // which holds the app's `ready` until Playwright is attached. Chromium's --user-data-dir is also Electron's
  // userData, so no profile, window state or log of the developer's own is read or touched.
  app = await electron.launch({
    args: [`--user-data-dir=${userDataDir}`, ROOT],
    cwd: ROOT,
    timeout: 60_000,
  });
  page = await app.firstWindow();
  // Fail a step with what it waited for, well before the test's own timeout.
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
});

afterAll(async () => {
  await app?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

describe('the Electron app on its demo server', () => {
  it('keeps its data in the folder it was given and offers the demo accounts on the login screen', async () => {
    const used = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
    expect(await realpath(used)).toBe(await realpath(userDataDir));
    const useAccount = page.getByRole('button', { name: /^Use / }).first();
    await useAccount.waitFor({ timeout: 45_000 });
    const label = (await useAccount.textContent()) ?? '';
    username = /^Use (\S+) \(/.exec(label.trim())?.[1] ?? '';
    expect(username).not.toBe('');
  });

  it('signs in to the demo server with a demo account, remembering nothing', async () => {
    await page.getByRole('button', { name: /^Use / }).first().click();
    await page.getByRole('radio', { name: "Don't remember me", exact: true }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('region', { name: 'Session' }).textContent()).toContain(username);
  });

  it('opens the demo gateway console and the console answers', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('heading', { name: 'Terminals', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Demo gateway console' });
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });
    const status = page.getByLabel('Terminal status');
    await expect
      .poll(() => page.getByTestId('terminal-state').textContent(), { timeout: 30_000 })
      .toBe('Connected');
    expect(await status.textContent()).toContain('115200 8N1');
    expect(await page.getByRole('tab', { selected: true }).textContent()).toContain('115200 8N1');
    // Enter at the console: one byte out, and its login prompt again, counted as bytes in.
    const bytesIn = async () => /In (\S+ [kMG]?B)/.exec((await status.textContent()) ?? '')?.[1];
    const bytesInBefore = await bytesIn();
    expect(bytesInBefore).toBeDefined();
    await page.locator('.pane:not([hidden]) .xterm-helper-textarea').focus();
    await page.keyboard.press('Enter');
    await expect.poll(bytesIn, { timeout: 30_000 }).not.toBe(bytesInBefore);
    expect(await status.textContent()).toContain('Out 1 B');
    expect(pageErrors).toEqual([]);
  });
});
