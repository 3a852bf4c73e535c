import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { buildDemoProfile, buildProfile, buildSessionSummary } from './support/factories';
import { ensureRendererBuilt } from './support/renderer-build';
import { startScriptedBackend, type ScriptedBackend } from './support/scripted-backend';

// The app shell with a signed-in session from a scripted backend: navigation, keyboard use, accessible names,
// themes and the session indicator.

let rendererDir: string;
let browser: BrowserSession;
let backend: ScriptedBackend;

const VIEWS = [
  'Gateways',
  'Devices',
  'Events',
  'Telemetry',
  'Integrations',
  'Fleet & report',
  'Settings',
  'Terminals',
  'Site pack',
];
const NAMED_ROLES =
  'button|textbox|combobox|link|radio|checkbox|listbox|spinbutton|switch|slider|searchbox|tab';

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  backend = await startScriptedBackend(rendererDir);
  backend.handle('app:info', () => ({
    ok: true,
    value: { version: '0.1.0', mode: 'browser', keychain: 'os' },
  }));
  backend.handle('app:notices', () => ({ ok: true, value: { notices: [] } }));
  backend.handle('profiles:list', () => ({
    ok: true,
    value: { profiles: [buildDemoProfile()], selectedId: 'demo' },
  }));
  backend.handle('session:get', () => ({ ok: true, value: buildSessionSummary() }));
  backend.handle('session:logout', () => ({ ok: true, value: null }));
  backend.handle('api:call', () => ({
    ok: true,
    value: { email: 'tech@demo.example', authority: 'CUSTOMER_USER', id: { entityType: 'USER', id: 'u1' } },
  }));
  await browser.page.emulateMedia({ colorScheme: 'light' });
});

afterEach(async () => {
  await backend.close();
});

async function openShell(path = ''): Promise<Page> {
  const { page } = browser;
  await page.goto(`${backend.url}${path}`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return page;
}

/** Lines of the page's accessibility tree that show an interactive role without a name. */
async function findUnnamedControls(page: Page): Promise<string[]> {
  const tree = await page.locator('body').ariaSnapshot();
  const unnamed = new RegExp(`^\\s*- (${NAMED_ROLES})(\\s*\\[[^\\]]*\\])*\\s*:?\\s*$`);
  return tree.split('\n').filter((line) => unnamed.test(line));
}

describe('app shell', () => {
  it('offers every view in the main navigation, each with a heading that says what it will hold', async () => {
    const page = await openShell();
    const navigation = page.getByRole('navigation', { name: 'Main' });
    for (const view of VIEWS) {
      await navigation.getByRole('link', { name: view }).click();
      await page.getByRole('heading', { name: view, level: 1 }).waitFor();
      expect(await navigation.getByRole('link', { name: view }).getAttribute('aria-current')).toBe('page');
    }
  });

  it('keeps the current view across a reload', async () => {
    const page = await openShell('#/telemetry');
    await page.getByRole('heading', { name: 'Telemetry', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Telemetry', level: 1 }).waitFor();
  });

  it('shows who is signed in, with which role, and how long the access token has left', async () => {
    const page = await openShell();
    const indicator = page.getByRole('region', { name: 'Session' });
    await expect
      .poll(() => indicator.textContent())
      .toMatch(/tech@demo\.example.*Customer user.*access valid for \d+ min/);
  });

  it('says when the session is refreshing', async () => {
    const page = await openShell();
    backend.push('session:changed', buildSessionSummary({ state: 'refreshing' }));
    await page.getByRole('region', { name: 'Session' }).getByText('Refreshing…').waitFor();
  });

  it('says so in the header and settings when no keychain answered', async () => {
    backend.handle('app:info', () => ({
      ok: true,
      value: { version: '0.1.0', mode: 'browser', keychain: 'session-only' },
    }));
    const page = await openShell('#/settings');
    await page.getByRole('banner').getByText('No keychain: session only').waitFor();
    await page.getByText('Session only: no keychain answered').waitFor();
  });

  it('says a relay password is kept in memory only when no keychain answered', async () => {
    backend.handle('app:info', () => ({
      ok: true,
      value: { version: '0.1.0', mode: 'browser', keychain: 'session-only' },
    }));
    const company = buildProfile({ relay: { host: 'relay.acme.example', port: 22, username: 'tunnel' } });
    backend.handle('profiles:list', () => ({
      ok: true,
      value: { profiles: [buildDemoProfile(), company], selectedId: 'demo' },
    }));
    const page = await openShell('#/settings');
    await page.getByText('SSH relay tunnel@relay.acme.example:22 — password not stored').waitFor();
    await page.getByRole('button', { name: `Edit profile ${company.name}` }).click();
    await page.getByText('kept in memory only, until Field Kit quits').waitFor();
  });

  it('deletes a profile only after the user confirms it', async () => {
    const company = buildProfile();
    backend.handle('profiles:list', () => ({
      ok: true,
      value: { profiles: [buildDemoProfile(), company], selectedId: 'demo' },
    }));
    backend.handle('profiles:delete', () => ({ ok: true, value: null }));
    const page = await openShell('#/settings');
    await page.getByRole('button', { name: `Delete profile ${company.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this profile?' });
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(backend.calls.some((call) => call.channel === 'profiles:delete')).toBe(false);

    await page.getByRole('button', { name: `Delete profile ${company.name}` }).click();
    await dialog.getByRole('button', { name: 'Delete profile' }).click();
    await page.getByRole('status').getByText(`Deleted profile “${company.name}”`).waitFor();
    expect(backend.calls.find((call) => call.channel === 'profiles:delete')?.input).toEqual({
      id: company.id,
    });
    expect(await page.getByRole('button', { name: `Edit profile ${company.name}` }).count()).toBe(0);
  });

  it('returns to the login screen when signing out', async () => {
    const page = await openShell();
    backend.handle('session:get', () => ({ ok: true, value: null }));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to OAM Field Kit' }).waitFor();
    expect(backend.calls.filter((call) => call.channel === 'session:logout')).toHaveLength(1);
  });

  it('shows main’s notices until they are dismissed', async () => {
    const page = await openShell();
    backend.push('app:notice', { code: 'PROFILES_CORRUPT', message: 'profiles.json was unreadable', at: 1 });
    const notice = page.getByRole('region', { name: 'Notices' }).getByText('profiles.json was unreadable');
    await notice.waitFor();
    await page.getByRole('button', { name: 'Dismiss notice: profiles.json was unreadable' }).click();
    await notice.waitFor({ state: 'detached' });
  });
});

describe('keyboard and accessibility', () => {
  it('jumps to each view with Alt and its number', async () => {
    const page = await openShell();
    for (const [index, view] of VIEWS.entries()) {
      await page.keyboard.press(`Alt+${index + 1}`);
      await page.getByRole('heading', { name: view, level: 1 }).waitFor();
    }
  });

  it('starts the tab order with a skip link that moves focus to the content', async () => {
    const page = await openShell('#/devices');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
  });

  it('reaches a view link by Tab and opens it with Enter', async () => {
    const page = await openShell();
    const target = page.getByRole('link', { name: 'Integrations' });
    for (let presses = 0; presses < 30; presses++) {
      if (await target.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
  });

  it('gives every control of the shell and the settings view an accessible name', async () => {
    const page = await openShell('#/settings');
    await page
      .getByRole('region', { name: 'Your account on the server' })
      .getByText('tech@demo.example')
      .waitFor();
    await page.getByRole('button', { name: 'Add profile' }).click();
    await expect(findUnnamedControls(page)).resolves.toEqual([]);
  });

  it('gives every control of the login screen an accessible name', async () => {
    backend.handle('session:get', () => ({ ok: true, value: null }));
    backend.handle('session:resume', () => ({ ok: true, value: null }));
    const { page } = browser;
    await page.goto(backend.url);
    await page.getByRole('heading', { name: 'Sign in to OAM Field Kit' }).waitFor();
    await expect(findUnnamedControls(page)).resolves.toEqual([]);
  });
});

describe('themes', () => {
  it('follows the operating system between light and dark', async () => {
    const page = await openShell();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await background();
    expect(light).toBe('rgb(246, 247, 249)');
    expect(dark).toBe('rgb(17, 20, 24)');
  });
});
