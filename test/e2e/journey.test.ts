import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TTL_SECONDS,
  REFRESH_TTL_SECONDS,
  lastSessionSummary,
  readKeychain,
  signInToDemo,
  startJourneyRig,
  waitUntil,
  type JourneyRig,
} from './support/journey';

// First start → demo profile → login → an access-token expiry passes unnoticed → a refresh-token expiry brings
// the re-login dialog with the view kept → logout removes the keychain entries. Real simulator, real browser
// host, real gnome-keyring (run under `dbus-run-session -- bash scripts/with-keyring.sh`).

const REMEMBER_PASSWORD = 'Keep me signed in and remember my password';
let rig: JourneyRig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The whole journey, asserting each step as the technician would see it. */
async function walkJourney(
  current: JourneyRig,
  beforeLogout: () => Promise<void> = async () => undefined,
): Promise<{ username: string; password: string }> {
  const { page } = current;
  await page.goto(current.host.url);

  // First start: the demo profile is the only one, preselected, its accounts on show.
  await page.getByRole('heading', { name: 'Sign in to OAM Field Kit' }).waitFor();
  const picker = page.getByRole('combobox', { name: 'Server profile' });
  expect(await picker.locator('option:checked').textContent()).toBe('Demo network server');
  await page.getByRole('heading', { name: 'Demo accounts' }).waitFor();

  const account = await signInToDemo(current, REMEMBER_PASSWORD);
  // session:changed shows the shell before the login call returns, so the keychain may still be being written.
  await expect
    .poll(async () => (await readKeychain()).some((entry) => current.issuedTokens.includes(entry.password)))
    .toBe(true);
  await expect
    .poll(async () => (await readKeychain()).some((entry) => entry.password.includes(account.password)))
    .toBe(true);

  // Use the app: the settings page asks the server who is signed in.
  await page.getByRole('link', { name: 'Settings' }).click();
  const accountPanel = page.getByRole('region', { name: 'Your account on the server' });
  await accountPanel.getByText(account.username, { exact: true }).waitFor();
  await page.getByText("Kept in this computer's keychain").waitFor();

  // The access token runs out; the next call refreshes it without the user noticing.
  const firstExpiry = lastSessionSummary(current.frames).accessExpiresAt;
  await waitUntil(page, firstExpiry + 300);
  await page.getByRole('link', { name: 'Gateways' }).click();
  await page.getByRole('heading', { name: 'Gateways' }).waitFor();
  const checkedBefore = rigCallCount(current, 'api:call');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect.poll(() => rigCallCount(current, 'api:call')).toBeGreaterThan(checkedBefore);
  await accountPanel.getByText(account.username, { exact: true }).waitFor();
  await expect.poll(() => lastSessionSummary(current.frames)).toMatchObject({ state: 'active' });
  expect(lastSessionSummary(current.frames).accessExpiresAt).toBeGreaterThan(firstExpiry);
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(await page.getByRole('alert').count()).toBe(0);

  // Start typing a new profile, then stay idle until the (rotated) refresh token has expired too.
  await page.getByRole('button', { name: 'Add profile' }).click();
  await page.getByRole('textbox', { name: 'Profile name' }).fill('Tower 7, half typed');
  const refreshedAt = lastSessionSummary(current.frames).accessExpiresAt - ACCESS_TTL_SECONDS * 1000;
  await waitUntil(page, refreshedAt + REFRESH_TTL_SECONDS * 1000 + 1000);
  await page.getByRole('button', { name: 'Check with the server' }).click();

  const dialog = page.getByRole('dialog', { name: 'Your session has expired' });
  await dialog.waitFor();
  expect(await page.getByRole('heading', { name: 'Settings', level: 1 }).isVisible()).toBe(true);
  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  const callsBeforeRelogin = rigCallCount(current, 'api:call');
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(await page.getByRole('textbox', { name: 'Profile name' }).inputValue()).toBe('Tower 7, half typed');
  // The check the expiry interrupted runs again once the user is back.
  await expect.poll(() => rigCallCount(current, 'api:call')).toBeGreaterThan(callsBeforeRelogin);
  await accountPanel.getByText(account.username, { exact: true }).waitFor();
  // The expiry's failure line goes once the reload after the sign-in answered.
  await expect.poll(() => accountPanel.getByRole('alert').count()).toBe(0);

  await beforeLogout();

  // Logout forgets everything the keychain held for this profile.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to OAM Field Kit' }).waitFor();
  expect(await readKeychain()).toEqual([]);
  return account;
}

/** How many calls of a channel the renderer has sent so far. */
function rigCallCount(current: JourneyRig, channel: string): number {
  return current.frames.filter(
    (frame) => frame.direction === 'renderer→main' && frame.payload.includes(`"channel":"${channel}"`),
  ).length;
}

describe('end to end through the browser host and the simulator', () => {
  it('signs in to the demo server, refreshes silently, re-logs in over the kept view and logs out cleanly', async () => {
    rig = await startJourneyRig();
    await walkJourney(rig);
    expect(rig.pageErrors).toEqual([]);
  }, 90_000);

  it('never lets a token or the stored password reach the renderer or its storage', async () => {
    rig = await startJourneyRig();
    const current = rig;
    const storage: string[] = [];
    const account = await walkJourney(current, async () => {
      storage.push(await readPageStorage(current));
    });
    storage.push(await readPageStorage(current));

    expect(rig.issuedTokens.length).toBeGreaterThanOrEqual(6);
    const secrets = [...rig.issuedTokens, ...rig.issuedTokens.map((token) => token.split('.')[2] ?? token)];
    const passwordSightings: string[] = [];
    for (const frame of rig.frames) {
      for (const secret of secrets) expect(frame.payload, `${frame.direction} frame`).not.toContain(secret);
      expect(frame.payload).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
      const outside = stripAllowedPasswords(frame.payload);
      if (outside.includes(account.password)) passwordSightings.push(`${frame.direction}: ${frame.payload}`);
    }
    expect(passwordSightings).toEqual([]);
    const logins = rig.frames.filter((frame) => frame.payload.includes('"session:login"'));
    expect(logins).toHaveLength(2);

    for (const snapshot of storage) {
      for (const secret of [...secrets, account.password]) expect(snapshot).not.toContain(secret);
    }
    for (const cookie of await rig.browser.context.cookies()) {
      for (const secret of [...secrets, account.password]) expect(cookie.value).not.toContain(secret);
    }
    expect(await rig.page.evaluate(() => document.cookie)).toBe('');
  }, 90_000);
});

/**
 * Removes the two places the password may appear: the login form's own submission (`session:login` input) and
 * the demo profile's public demo accounts (`profiles:list`), which are demo data and not a stored secret.
 */
function stripAllowedPasswords(payload: string): string {
  const message = JSON.parse(payload) as {
    channel?: string;
    input?: { password?: string };
    result?: { value?: { profiles?: { demoAccounts?: { password?: string }[] }[] } };
  };
  if (message.channel === 'session:login' && message.input) delete message.input.password;
  for (const profile of message.result?.value?.profiles ?? []) {
    for (const demoAccount of profile.demoAccounts ?? []) delete demoAccount.password;
  }
  return JSON.stringify(message);
}

/** Everything the page itself can read back from its storage: local, session, IndexedDB and cookies. */
async function readPageStorage(rig: JourneyRig): Promise<string> {
  return rig.page.evaluate(async () => {
    const dump: Record<string, unknown> = {
      local: { ...localStorage },
      session: { ...sessionStorage },
      cookie: document.cookie,
    };
    const databases = await indexedDB.databases();
    const indexed: Record<string, unknown> = {};
    for (const { name } of databases) {
      if (!name) continue;
      indexed[name] = await new Promise((resolve) => {
        const request = indexedDB.open(name);
        request.onsuccess = async () => {
          const database = request.result;
          const stores: Record<string, unknown> = {};
          for (const storeName of Array.from(database.objectStoreNames)) {
            stores[storeName] = await new Promise((done) => {
              const all = database.transaction(storeName).objectStore(storeName).getAll();
              all.onsuccess = () => done(all.result);
              all.onerror = () => done(null);
            });
          }
          database.close();
          resolve(stores);
        };
        request.onerror = () => resolve(null);
      });
    }
    dump.indexedDB = indexed;
    return JSON.stringify(dump);
  });
}
