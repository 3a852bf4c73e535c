import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { COMMAND_NAMES } from '../../../electron/shared/api/commands';
import { EVENT_NAMES } from '../../../electron/shared/api/events';

const API_DIR = join(import.meta.dirname, '..', '..', '..', 'electron', 'shared', 'api');
/** Roles a server account can hold (the spec's authorities). */
const AUTHORITIES = [
  'SYS_ADMIN',
  'PROVIDER_ADMIN',
  'PROVIDER_USER',
  'TENANT_ADMIN',
  'CUSTOMER_ADMIN',
  'CUSTOMER_USER',
];

/**
 * Identifiers of the API that must never be a screen's words: event names, authorities, command names, and the
 * camelCase field names of the API's schemas (`packetsCount`, `workingIdx`). Plain words that happen to be API
 * names (`ping`, `reboot`, `name`) are left out: they are words.
 */
export function apiIdentifiers(): string[] {
  const fields = new Set<string>();
  for (const file of readdirSync(API_DIR).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join(API_DIR, file), 'utf8');
    for (const match of source.matchAll(/\b([a-z]+[A-Z][A-Za-z0-9]*)\s*:\s*z\./g)) fields.add(match[1]!);
  }
  const commands = COMMAND_NAMES.filter((name) => /[A-Z_]/.test(name));
  return [
    ...new Set([...EVENT_NAMES.filter((name) => name.length > 8), ...AUTHORITIES, ...commands, ...fields]),
  ];
}

/**
 * The words a person reads on the page: the visible text, without what is not the app's words — API hints
 * (`.api-hint`), terminal screens and what a gateway printed (`.xterm`, `pre`), and text hidden from everyone.
 */
export async function readableText(page: Page): Promise<string> {
  return page.evaluate(() => {
    // innerText follows layout (what is hidden is left out); hide what is not the app's words for the read,
    // through the CSSOM (the page's content security policy refuses an inserted style sheet).
    const hidden = Array.from(document.querySelectorAll<HTMLElement>('.api-hint, .xterm, pre'));
    const before = hidden.map((element) => element.style.display);
    for (const element of hidden) element.style.display = 'none';
    try {
      return document.body.innerText.replace(/\s+/g, ' ');
    } finally {
      hidden.forEach((element, index) => (element.style.display = before[index]!));
    }
  });
}

/** The API identifiers `text` shows as whole words. */
export function identifiersIn(text: string, identifiers: readonly string[]): string[] {
  return identifiers.filter((identifier) =>
    new RegExp(`(^|[^A-Za-z0-9_])${identifier}($|[^A-Za-z0-9_])`).test(text),
  );
}

/** Catalogue keys shown instead of their message (`gateways:listTitle`): a message missing at run time. */
export function rawKeysIn(text: string, namespaces: readonly string[]): string[] {
  const pattern = new RegExp(`\\b(?:${namespaces.join('|')}):[a-z][A-Za-z0-9]+\\b`, 'g');
  return [...new Set(text.match(pattern) ?? [])];
}

/**
 * In the pseudo-locale, the labels of the app's own controls and headings still in plain ASCII words: text
 * that bypassed the catalogue. `data` lists what is not the app's words (names, addresses the server holds).
 */
export async function unaccentedLabels(page: Page, data: readonly string[]): Promise<string[]> {
  const labels = await page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLElement>(
        'button, th, label, legend, h1, h2, h3, nav a, [role="tab"], [role="status"], [role="alert"], option',
      ),
    )
      .filter((element) => element.offsetParent !== null || element.tagName === 'OPTION')
      .filter((element) => !element.closest('.api-hint, .xterm, pre, code, .mono'))
      .map((element) => {
        // The label without the hints and values inside it ("Ping a host" of "Ping a host ping").
        const copy = element.cloneNode(true) as HTMLElement;
        for (const hint of Array.from(copy.querySelectorAll('.api-hint, code, .mono'))) hint.remove();
        return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      }),
  );
  const leftovers = new Set<string>();
  for (const label of labels) {
    let rest = label;
    for (const value of data) rest = rest.split(value).join(' ');
    // Names of packages, files and hosts (`kona-pkt-forwarder`, `factory-default`) are values, not words.
    rest = rest.replace(/\S*[-_./0-9]\S*/g, ' ');
    // Acronyms (CRLF, LTE, SIM) are the same in every language.
    rest = rest.replace(/\b[A-Z]{2,}\b/g, ' ');
    // A plain ASCII word of four letters or more is English the catalogue did not write.
    if (/(^|[^\p{L}])[A-Za-z]{4,}(?=$|[^\p{L}])/u.test(rest)) leftovers.add(label);
  }
  return [...leftovers];
}
