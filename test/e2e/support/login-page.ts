import type { Locator, Page } from 'playwright-core';
import { roleWords } from '../../../electron/shared/i18n/api-words';

/** An API role (`CUSTOMER_USER`) inside a button name given by a test. */
const API_ROLE = /\b[A-Z]+(?:_[A-Z]+)+\b/g;

/**
 * The demo account button's name as the English screen writes it: "Use <user> (<role in words>)". A name given
 * with the API's role (`Use tech@demo.example (CUSTOMER_USER)`, `/^Use .*PROVIDER_USER/`) gets the role's words,
 * since the screen never shows `CUSTOMER_USER`.
 */
export function demoAccountButtonName(name: string | RegExp): string | RegExp {
  if (typeof name === 'string') return name.replace(API_ROLE, (role) => roleWords(role));
  const source = name.source.replace(API_ROLE, (role) =>
    roleWords(role).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(source, name.flags);
}

/**
 * Opens `url` and waits (the page's step timeout) until the login screen offers the demo account `name`
 * ("Use <user> (<role>)"), then returns that button. If it never does, the error quotes what the page showed
 * instead — a start still under way, a failed load, or an app already signed in (a login remembered in a shared
 * keychain once made the page skip the login screen, which a bare "waiting for getByRole" did not say).
 */
export async function openLoginScreen(page: Page, url: string, name: string | RegExp): Promise<Locator> {
  await page.goto(url);
  const button = page.getByRole('button', { name: demoAccountButtonName(name) }).first();
  try {
    await button.waitFor();
  } catch (error) {
    const shown = await page
      .evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 600))
      .catch((reason: unknown) => `(unreadable: ${String(reason)})`);
    throw new Error(`The login screen did not offer ${String(name)}. The page showed: ${shown}`, {
      cause: error,
    });
  }
  return button;
}

/** How signIn fills the login screen. */
export interface SignInOptions {
  /** false picks "Don't remember me" first; left out, the screen's own choice stands. */
  remember?: boolean;
}

/**
 * The e2e tests' one sign-in: opens the login screen at `url`, picks the demo account `account` offers
 * (openLoginScreen), signs in and waits for the main navigation.
 */
export async function signIn(
  page: Page,
  url: string,
  account: string | RegExp,
  options: SignInOptions = {},
): Promise<void> {
  await (await openLoginScreen(page, url, account)).click();
  if (options.remember === false) {
    await page.getByRole('radio', { name: "Don't remember me", exact: true }).check();
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
