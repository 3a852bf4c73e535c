import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openReverseTerminal,
  signInAndOpenTerminals,
  startTerminalRig,
  typeInTerminal,
  waitForTerminalText,
  type TerminalRig,
} from '../bench/terminal-rig';

// A link a gateway prints opens only after the technician confirmed it, in a dialog naming it in full: the shell
// (or anything on a serial line) decides what the link says. The link points at a loopback server of the test's.

let rig: TerminalRig;
let page: Page;
let linkServer: Server;
let link: string;
const visits: string[] = [];

beforeAll(async () => {
  linkServer = createServer((request, response) => {
    visits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Printed link</title>');
  });
  await new Promise<void>((resolve) => linkServer.listen(0, '127.0.0.1', resolve));
  link = `http://127.0.0.1:${(linkServer.address() as AddressInfo).port}/release-notes?from=gateway`;
  rig = await startTerminalRig();
  page = rig.page;
  await signInAndOpenTerminals(page, rig.url);
  await openReverseTerminal(page, rig.gateway.id, rig.gateway.rootPassword);
  await waitForTerminalText(page, 'root@');
  await typeInTerminal(page, `echo ${link}\r`);
  await waitForTerminalText(page, link);
}, 150_000);

afterAll(async () => {
  await rig?.close();
  linkServer?.closeAllConnections();
  await new Promise<void>((resolve) => linkServer?.close(() => resolve()) ?? resolve());
});

/** The middle of the link's `index`th character where xterm drew it. */
function linkCharacter(index: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ({ text, index }) => {
      const rows = document.querySelector('.pane:not([hidden]) .xterm-rows')!;
      const walker = document.createTreeWalker(rows, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(text.slice(0, 12));
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at + index);
        range.setEnd(node, at + index + 1);
        const box = range.getBoundingClientRect();
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      }
      throw new Error('the link is not on screen');
    },
    { text: link, index },
  );
}

/** Hovers the link, then clicks it (xterm finds a link when the pointer moves onto another character). */
async function clickLink(): Promise<void> {
  const [before, point] = [await linkCharacter(4), await linkCharacter(2)];
  await page.mouse.move(before.x, before.y);
  await page.mouse.move(point.x, point.y);
  await page.mouse.click(point.x, point.y);
}

describe('a link printed in a terminal', () => {
  it('asks first, naming the link in full, and opens nothing on Cancel', async () => {
    await clickLink();
    const dialog = page.getByRole('dialog', { name: 'Open a link from the terminal?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(link);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.context().pages()).toHaveLength(1);
    expect(visits).toEqual([]);
  }, 60_000);

  it('opens the link in a new tab once confirmed', async () => {
    await clickLink();
    const dialog = page.getByRole('dialog', { name: 'Open a link from the terminal?' });
    await dialog.waitFor();
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      dialog.getByRole('button', { name: 'Open link' }).click(),
    ]);
    await tab.waitForURL(link);
    expect(visits[0]).toBe('/release-notes?from=gateway');
    await tab.close();
  }, 60_000);
});
