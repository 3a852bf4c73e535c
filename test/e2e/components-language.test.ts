import keytar from 'keytar';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host';
import { CREDENTIAL_SERVICE } from '../../electron/services/credentials';
import type { Gateway } from '../../electron/shared/api';
import { startSimulator, type RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { startDemoHost, type DemoHost } from './support/journey';
import { signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// The command form (a shared component) in French and then German, switched in Settings without a reload: the
// command and its fields in words, the API name only as a muted hint, the request rules in the language.

let simulator: RunningSimulator;
let demoHost: DemoHost;
let host: StartedHost;
let browser: BrowserSession;
let page: Page;

beforeAll(async () => {
  await keytar.findCredentials(CREDENTIAL_SERVICE).catch((error: unknown) => {
    throw new Error(
      `No Secret Service keyring answered (${String(error)}): run under ` +
        '`dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/e2e/components-language.test.ts`.',
    );
  });
  simulator = await startSimulator({ port: 0 });
  demoHost = await startDemoHost(simulator, { credentials: ownKeychain() });
  host = demoHost.host;
  browser = await launchBrowser({ windowSize: { width: 1280, height: 720 } });
  page = browser.page;
  const provider = simulator.fixture.accounts.find((account) => account.role === 'PROVIDER_USER');
  if (!provider) throw new Error('the demo tenant has no provider user');
  await signIn(page, host.url, `Use ${provider.username} (${provider.role})`, { remember: false });
});

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await simulator?.close();
  await keytar
    .findCredentials(CREDENTIAL_SERVICE)
    .then((entries) =>
      Promise.all(entries.map((entry) => keytar.deletePassword(CREDENTIAL_SERVICE, entry.account))),
    );
});

async function onlineGateway(): Promise<Gateway> {
  const providerId = host.services.sessions.summary()?.providerId ?? '';
  const answer = (await host.services.sessions
    .requireSession()
    .call('listProviderGateways', { params: { providerId }, query: { limit: 100, page: 0 } })) as {
    data: Gateway[];
  };
  const gateway = answer.data.find((candidate) => candidate.status === 'ONLINE');
  if (!gateway) throw new Error('no online gateway in the demo tenant');
  return gateway;
}

async function chooseLanguage(language: 'fr' | 'de'): Promise<void> {
  await page.evaluate(() => (location.hash = '#/settings'));
  await page.locator('#language-choice').selectOption(language);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
}

/** The texts an input's aria-describedby names, joined: what a screen reader says after its label. */
function describedText(label: string): Promise<string> {
  return page.getByLabel(label, { exact: true }).evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

describe('command form in another language', () => {
  it('writes the command, its fields and its rules in French, the API name only as a hint', async () => {
    const gateway = await onlineGateway();
    await chooseLanguage('fr');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/console`), gateway.id.id);

    await page.getByRole('button', { name: /^Remplacer les réglages du pare-feu/ }).click();
    const form = page.getByRole('form', { name: 'Exécuter « Remplacer les réglages du pare-feu »' });
    await form.getByLabel('Limite par minute', { exact: true }).waitFor();
    expect(await describedText('Limite par minute')).toBe('API : perMinLimit');
    expect(await form.locator('.api-hint').first().textContent()).toMatch(/^API : /);
    expect(await form.getByLabel('perMinLimit', { exact: true }).count()).toBe(0);
    expect(await form.getByRole('button', { name: 'Exécuter', exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: /^Envoyer un ping à un hôte/ }).click();
    await page.getByLabel('Nombre de paquets', { exact: true }).fill('0');
    await page.getByLabel('Destination', { exact: true }).fill('8.8.8.8');
    await page.getByRole('button', { name: 'Exécuter', exact: true }).click();
    await expect
      .poll(() => describedText('Nombre de paquets'))
      .toContain('Nombre de paquets doit être au moins 1');

    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).not.toMatch(/\b(components|commands):[a-z]/);
    expect(body).not.toContain('packetsCount must');
  });

  it('redraws the open form in German when the language changes, without a reload', async () => {
    const gateway = await onlineGateway();
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/console`), gateway.id.id);
    await page.getByRole('button', { name: /^Remplacer les réglages du pare-feu/ }).click();
    // A mark on the page's window: a reload would drop it.
    await page.evaluate(() => Object.assign(window, { beforeSwitch: true }));
    await chooseLanguage('de');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}/console`), gateway.id.id);
    await page.getByRole('button', { name: /^Firewall-Einstellungen ersetzen/ }).click();
    await page.getByLabel('Limit pro Minute', { exact: true }).waitFor();
    expect(await describedText('Limit pro Minute')).toBe('API: perMinLimit');
    expect(await page.evaluate(() => 'beforeSwitch' in window)).toBe(true);
  });
});
