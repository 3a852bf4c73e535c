import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { CATALOGUE } from '../../electron/shared/i18n/catalogue';
import { translatorFor, type Language, type Translator } from '../../electron/shared/i18n';
import type { RunningSimulator } from '../../simulator';
import { CHROMIUM_ARGS, CHROMIUM_PATH, DEFAULT_STEP_TIMEOUT_MS } from '../helpers/browser';
import { passwordOf, startTestSimulator } from '../helpers/simulator';
import { ownKeychain } from './support/own-keychain';
import { ensureRendererBuilt } from './support/renderer-build';

// The sign-in page, the shell and the site pack speak the browser's language (a Chromium context in German, then
// in French): no English of their messages left on screen, no message key, no API role; and a change of
// language in Settings redraws the navigation in place while what was typed stays.

const SILENT_LOG = { info: () => undefined, error: () => undefined };
/** The namespaces of these screens: their English must not show once the screen speaks another language. */
const OWN_NAMESPACES = ['app', 'sitePack'] as const;
/** Text that reads as a message key (`app:loginTitle`) rather than words. */
const KEY_TEXT = /\b(?:app|sitePack|main|common|enums):[a-z][A-Za-z]+/;

let rendererDir: string;
let dataDir: string;
let simulator: RunningSimulator;
let host: StartedHost;
let browser: Browser;

beforeAll(async () => {
  rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-languages-'));
  simulator = await startTestSimulator({ gateways: 12 });
  host = await startHost({ dataDir, rendererDir, credentials: ownKeychain(), log: SILENT_LOG });
  const profile = await host.services.profiles.save({ name: 'Acme OAM', baseUrl: simulator.url });
  await host.services.profiles.select(profile.id);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}, 120_000);

// Main holds one session for every page: each test starts on the sign-in page.
afterEach(async () => {
  await host.services.sessions.logout();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await simulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * English passages of these screens' messages that the language writes differently: whole messages without
 * placeholders, and the longer fixed stretches of those with placeholders.
 */
function englishPassages(language: Language): string[] {
  const passages: string[] = [];
  for (const namespace of OWN_NAMESPACES) {
    const english = CATALOGUE.en[namespace];
    const translated = CATALOGUE[language][namespace];
    for (const [key, text] of Object.entries(english)) {
      const other = translated[key] ?? '';
      for (const piece of text.split(/\{\{[^}]+\}\}/)) {
        const passage = piece.trim();
        const isWorthLooking = text.includes('{{') ? passage.length >= 16 : passage.length >= 8;
        if (isWorthLooking && !other.includes(passage)) passages.push(passage);
      }
    }
  }
  return passages;
}

/** What the page shows, as one line of text. */
async function shownText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText.replace(/\s+/g, ' '));
}

/** Fails naming any English passage, message key or API role the page shows. */
async function expectNoEnglish(page: Page, language: Language): Promise<void> {
  const text = await shownText(page);
  const passages = englishPassages(language);
  // Hundreds of messages to look for: a check that found nothing to look for would pass vacuously.
  expect(passages.length).toBeGreaterThan(100);
  expect(text).not.toMatch(KEY_TEXT);
  expect(text).not.toMatch(/\b[A-Z]+_USER\b/);
  expect(passages.filter((passage) => text.includes(passage))).toEqual([]);
}

async function openPage(locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 720 } });
  context.setDefaultTimeout(DEFAULT_STEP_TIMEOUT_MS);
  return context.newPage();
}

/** Signs in from the sign-in page in `say`'s language and waits for the shell's navigation. */
async function signIn(page: Page, say: Translator): Promise<void> {
  const account = passwordOf(simulator, 'acme');
  await page.getByRole('textbox', { name: say('app:loginUserName') }).fill(account.username);
  await page.getByLabel(say('app:loginPassword'), { exact: true }).fill(account.password);
  await page.getByRole('radio', { name: say('app:rememberNone') }).check();
  await page.getByRole('button', { name: say('app:signIn'), exact: true }).click();
  await page.getByRole('navigation', { name: say('app:navLabel') }).waitFor();
}

describe.each([
  {
    locale: 'de-DE',
    language: 'de' as const,
    signInHeading: 'Bei OAM Field Kit anmelden',
    sitePack: 'Standortpaket',
  },
  {
    locale: 'fr-FR',
    language: 'fr' as const,
    signInHeading: 'Se connecter à OAM Field Kit',
    sitePack: 'Dossier de site',
  },
])('the app in $locale', ({ locale, language, signInHeading, sitePack }) => {
  it('shows the sign-in page, the navigation and the site pack with none of their English left', async () => {
    const say = translatorFor(language);
    const page = await openPage(locale);
    try {
      await page.goto(host.url);
      await page.getByRole('heading', { name: signInHeading }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
      await page.getByRole('button', { name: say('app:loginWorkWithoutSignIn') }).waitFor();
      await expectNoEnglish(page, language);

      await signIn(page, say);
      const navigation = page.getByRole('navigation', { name: say('app:navLabel') });
      expect(await navigation.getByRole('link').allTextContents()).toEqual(
        [
          'app:viewGateways',
          'app:viewDevices',
          'app:viewEvents',
          'app:viewTelemetry',
          'app:viewIntegrations',
          'app:viewCommissioning',
          'app:viewSettings',
          'app:viewTerminals',
          'app:viewSitePack',
        ].map((key) => expect.stringContaining(say(key as Parameters<Translator>[0]))),
      );
      // The header names the account's role in words; the API's authority is only its tooltip.
      const session = page.getByRole('region', { name: say('app:sessionLabel') });
      await expect.poll(() => session.textContent()).toContain(say('enums:roleCustomerUser'));

      await navigation.getByRole('link', { name: sitePack }).click();
      await page.getByRole('heading', { name: sitePack, level: 1 }).waitFor();
      await page.getByRole('heading', { name: say('sitePack:keptTitle') }).waitFor();
      await page.getByText(say('sitePack:noneYet')).waitFor();
      await page.getByRole('button', { name: say('sitePack:prepareButton') }).waitFor();
      await expectNoEnglish(page, language);
    } finally {
      await page.context().close();
    }
  }, 60_000);
});

describe('changing the language in Settings', () => {
  it('redraws the navigation in place, without a reload, and keeps what was typed', async () => {
    const german = translatorFor('de');
    const french = translatorFor('fr');
    const page = await openPage('de-DE');
    try {
      await page.goto(host.url);
      await signIn(page, german);
      const navigation = page.getByRole('navigation', { name: german('app:navLabel') });
      await navigation.getByRole('link', { name: german('app:viewSettings') }).click();
      await page.getByRole('button', { name: german('app:settingsAddProfile') }).click();
      const profileName = page.getByRole('textbox', { name: german('app:profileName') });
      await profileName.fill('Dach Süd, Halle 3');
      // A reload would lose this mark.
      await page.evaluate(() => Object.assign(window, { languageMark: 'still here' }));

      await page.getByLabel(german('app:settingsLanguageLabel')).selectOption('fr');

      const frenchNavigation = page.getByRole('navigation', { name: french('app:navLabel') });
      await frenchNavigation.getByRole('link', { name: 'Dossier de site' }).waitFor();
      expect(await frenchNavigation.getByRole('link', { name: 'Équipements' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: german('app:viewDevices') }).count()).toBe(0);
      expect(await page.evaluate(() => (window as { languageMark?: string }).languageMark)).toBe(
        'still here',
      );
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
      await expect
        .poll(() => page.getByRole('textbox', { name: french('app:profileName') }).inputValue())
        .toBe('Dach Süd, Halle 3');
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
