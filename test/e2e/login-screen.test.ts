import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { buildDemoProfile, buildProfile, buildSessionSummary } from './support/factories';
import { ensureRendererBuilt } from './support/renderer-build';
import { startScriptedBackend, type ScriptedBackend } from './support/scripted-backend';

// The login screen against a scripted backend: the answers a real server gives rarely (a refused password, an
// unreachable host, a self-signed certificate) on demand. The journey against the real host is journey.test.ts.

let rendererDir: string;
let browser: BrowserSession;
let backend: ScriptedBackend;

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
    value: { profiles: [buildDemoProfile()], selectedId: null },
  }));
  backend.handle('profiles:select', () => ({ ok: true, value: null }));
  backend.handle('session:get', () => ({ ok: true, value: null }));
  backend.handle('session:resume', () => ({ ok: true, value: null }));
});

afterEach(async () => {
  await backend.close();
});

async function openLogin() {
  const { page } = browser;
  await page.goto(backend.url);
  await page.getByRole('heading', { name: 'Sign in to OAM Field Kit' }).waitFor();
  return page;
}

describe('login screen', () => {
  it('preselects the only profile and fills a demo account in when it is clicked', async () => {
    const page = await openLogin();
    await expect(page.getByRole('combobox', { name: 'Server profile' }).inputValue()).resolves.toBe('demo');
    await page.getByRole('button', { name: 'Use tech@demo.example (Customer user)' }).click();
    await expect(page.getByRole('textbox', { name: 'User name' }).inputValue()).resolves.toBe(
      'tech@demo.example',
    );
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe(
      'demo-tech-password',
    );
  });

  it('sends the chosen remember mode with the credentials', async () => {
    backend.handle('session:login', () => ({ ok: true, value: buildSessionSummary() }));
    const page = await openLogin();
    await page.getByRole('button', { name: 'Use tech@demo.example (Customer user)' }).click();
    await page.getByRole('radio', { name: 'Keep me signed in', exact: true }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(backend.calls.find((call) => call.channel === 'session:login')?.input).toEqual({
      profileId: 'demo',
      username: 'tech@demo.example',
      password: 'demo-tech-password',
      remember: 'session',
    });
  });

  it('says the user name or password is wrong when the server refuses them, and clears the password', async () => {
    backend.handle('session:login', () => ({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: 'Authentication failed' },
    }));
    const page = await openLogin();
    await page.getByRole('textbox', { name: 'User name' }).fill('tech@demo.example');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong user name or password');
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
  });

  it('names the server it cannot reach', async () => {
    backend.handle('session:login', () => ({
      ok: false,
      error: { code: 'NETWORK', message: 'connect ECONNREFUSED' },
    }));
    const page = await openLogin();
    await page.getByRole('button', { name: 'Use tech@demo.example (Customer user)' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      "Can't reach the server at http://127.0.0.1:9",
    );
  });

  it('asks for the fields it needs before sending anything', async () => {
    const page = await openLogin();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter your user name.').waitFor();
    await page.getByText('Enter your password.').waitFor();
    expect(backend.calls.some((call) => call.channel === 'session:login')).toBe(false);
  });

  it('shows an untrusted certificate’s fingerprint and signs in once the user trusts it', async () => {
    const sha256 = 'ab'.repeat(32);
    const company = buildProfile();
    backend.handle('profiles:list', () => ({
      ok: true,
      value: { profiles: [company], selectedId: company.id },
    }));
    let isTrusted = false;
    backend.handle('profiles:trust-certificate', (input) => {
      isTrusted = (input as { sha256: string }).sha256 === sha256;
      return { ok: true, value: { ...company, trustedCertificateSha256: sha256 } };
    });
    backend.handle('session:login', () =>
      isTrusted
        ? { ok: true, value: buildSessionSummary({ profileId: company.id, profileName: company.name }) }
        : {
            ok: false,
            error: {
              code: 'CERTIFICATE_UNTRUSTED',
              message: 'The server certificate is not trusted',
              details: { sha256, subject: 'CN=oam.acme.example' },
            },
          },
    );
    const page = await openLogin();
    await page.getByLabel('Password', { exact: true }).fill('secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const warning = page.getByRole('alert');
    await expect(warning.textContent()).resolves.toContain(`AB:AB:AB`);
    await expect(warning.textContent()).resolves.toContain('CN=oam.acme.example');
    await page.getByRole('button', { name: 'Trust this certificate and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(isTrusted).toBe(true);
  });

  it('explains each invalid profile field next to the field and sends nothing', async () => {
    const page = await openLogin();
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByRole('textbox', { name: 'Server address (base URL)' }).fill('http://oam.acme.example');
    await page.getByRole('textbox', { name: 'Relay port' }).fill('70000');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const name = page.getByRole('textbox', { name: 'Profile name' });
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('Give the profile a name').waitFor();
    await page.getByText('plain http is only allowed for a server on this computer').waitFor();
    await page.getByText('The port is a whole number from 1 to 65535.').waitFor();
    await page.getByText('Enter the relay host, or clear all relay fields.').waitFor();
    expect(backend.calls.some((call) => call.channel === 'profiles:save')).toBe(false);
  });

  it('edits the selected profile, keeping its id and pinned certificate', async () => {
    const company = buildProfile({ trustedCertificateSha256: 'CD'.repeat(32) });
    backend.handle('profiles:list', () => ({
      ok: true,
      value: { profiles: [company], selectedId: company.id },
    }));
    backend.handle('profiles:save', (input) => ({ ok: true, value: input }));
    const page = await openLogin();
    await page.getByRole('button', { name: 'Edit profile' }).click();
    const name = page.getByRole('textbox', { name: 'Profile name' });
    expect(await name.inputValue()).toBe(company.name);
    await name.fill('ACME north site');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(backend.calls.find((call) => call.channel === 'profiles:save')?.input).toEqual({
      ...company,
      name: 'ACME north site',
    });
  });

  it('stores a typed relay password through main and shows it only as stored', async () => {
    const company = buildProfile({ relay: { host: 'relay.acme.example', port: 22, username: 'tunnel' } });
    backend.handle('profiles:list', () => ({
      ok: true,
      value: { profiles: [{ ...company, relayPasswordStored: false }], selectedId: company.id },
    }));
    backend.handle('profiles:save', () => ({ ok: true, value: { ...company, relayPasswordStored: true } }));
    const page = await openLogin();
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page.getByText('Not stored. Reverse SSH needs it').waitFor();
    await page.getByLabel('Relay password').fill('relay secret');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(backend.calls.find((call) => call.channel === 'profiles:save')?.input).toMatchObject({
      id: company.id,
      relayPassword: 'relay secret',
    });
  });

  it('forgets a stored relay password when the user asks to', async () => {
    const company = buildProfile({
      relay: { host: 'relay.acme.example', port: 22, username: 'tunnel' },
      relayPasswordStored: true,
    });
    backend.handle('profiles:list', () => ({
      ok: true,
      value: { profiles: [company], selectedId: company.id },
    }));
    backend.handle('profiles:save', () => ({ ok: true, value: { ...company, relayPasswordStored: false } }));
    const page = await openLogin();
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page.getByText('Stored. Leave empty to keep it').waitFor();
    expect(await page.getByLabel('Relay password').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Forget the stored relay password' }).click();
    await page.getByText('forgotten when you save').waitFor();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const input = backend.calls.find((call) => call.channel === 'profiles:save')?.input;
    expect(input).toMatchObject({ id: company.id, relayPassword: null });
    expect(input).not.toHaveProperty('relayPasswordStored');
  });

  it('adds a profile and selects it', async () => {
    const saved = buildProfile({ id: 'new-one', name: 'Roof site', baseUrl: 'https://oam.roof.example' });
    backend.handle('profiles:save', () => ({ ok: true, value: saved }));
    const page = await openLogin();
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByRole('textbox', { name: 'Profile name' }).fill('Roof site');
    await page.getByRole('textbox', { name: 'Server address (base URL)' }).fill('https://oam.roof.example');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Server profile' }).inputValue())
      .toBe('new-one');
    expect(backend.calls.find((call) => call.channel === 'profiles:save')?.input).toEqual({
      isDemo: false,
      name: 'Roof site',
      baseUrl: 'https://oam.roof.example',
    });
  });
});

describe('starting with a remembered session', () => {
  it('resumes the selected profile’s remembered session without asking for a password', async () => {
    backend.handle('session:resume', () => ({ ok: true, value: buildSessionSummary() }));
    const { page } = browser;
    await page.goto(backend.url);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(backend.calls.find((call) => call.channel === 'session:resume')?.input).toEqual({
      profileId: 'demo',
    });
  });

  it('says why a remembered session could not be resumed and offers the login form', async () => {
    backend.handle('session:resume', () => ({
      ok: false,
      error: { code: 'NETWORK', message: 'The server could not be reached' },
    }));
    const page = await openLogin();
    await page.getByRole('status').getByText('Your remembered session could not be resumed').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});

describe('connection to the backend', () => {
  it('says when the link is lost and clears the banner once it is back', async () => {
    const page = await openLogin();
    backend.refuseConnections();
    backend.dropConnections();
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'Lost the connection to the Field Kit backend' });
    await banner.waitFor();
    backend.acceptConnections();
    await page.getByRole('button', { name: 'Retry now' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('keeps what the user typed while the link is down and reads the profiles again once it is back', async () => {
    const page = await openLogin();
    await page.getByRole('textbox', { name: 'User name' }).fill('tech@demo.example');
    const listsBefore = backend.calls.filter((call) => call.channel === 'profiles:list').length;
    backend.refuseConnections();
    backend.dropConnections();
    const banner = page.getByRole('alert').filter({ hasText: 'Lost the connection' });
    await banner.waitFor();
    backend.acceptConnections();
    await page.getByRole('button', { name: 'Retry now' }).click();
    await banner.waitFor({ state: 'detached' });
    await expect
      .poll(() => backend.calls.filter((call) => call.channel === 'profiles:list').length)
      .toBeGreaterThan(listsBefore);
    expect(await page.getByRole('textbox', { name: 'User name' }).inputValue()).toBe('tech@demo.example');
  });
});

describe('session expiry', () => {
  it('opens a modal re-login dialog over the view and keeps what the user typed', async () => {
    const page = await openLogin();
    backend.handle('session:login', () => ({ ok: true, value: buildSessionSummary() }));
    backend.handle('api:call', () => ({
      ok: true,
      value: { email: 'tech@demo.example', authority: 'CUSTOMER_USER', id: { entityType: 'USER', id: 'u1' } },
    }));
    await page.getByRole('button', { name: 'Use tech@demo.example (Customer user)' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByRole('textbox', { name: 'Profile name' }).fill('Half-typed site');

    backend.push('session:changed', buildSessionSummary({ state: 'expired' }, 0));
    const dialog = page.getByRole('dialog', { name: 'Your session has expired' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(page.evaluate(() => document.activeElement?.closest('dialog') !== null)).resolves.toBe(true);

    await dialog.getByLabel('Password', { exact: true }).fill('demo-tech-password');
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(page.getByRole('textbox', { name: 'Profile name' }).inputValue()).resolves.toBe(
      'Half-typed site',
    );
  });
});
