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

// Linux's usual monospace font (DejaVu Sans Mono) draws "_" below the cell xterm measures, and xterm's DOM
// renderer (the one used without a GPU, as in this headless Chromium) clips each row: "pkt_fwd" read "pkt fwd".
// The test looks at the pixels xterm drew where the underscore of a printed `a_b` stands.

let rig: TerminalRig;
let page: Page;

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  await signInAndOpenTerminals(page, rig.url);
  await openReverseTerminal(page, rig.gateway.id, rig.gateway.rootPassword);
  await waitForTerminalText(page, 'root@');
  await typeInTerminal(page, 'echo a_b\r');
  await waitForTerminalText(page, 'a_b');
}, 150_000);

afterAll(async () => {
  await rig?.close();
});

/** The box of the underscore's cell in the row where the shell printed `a_b` alone, as xterm laid it out. */
function underscoreCell(): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('.pane:not([hidden]) .xterm-rows > div')];
    const row = rows.find((candidate) => candidate.textContent?.trim() === 'a_b');
    if (!row) throw new Error('the printed a_b is not on screen');
    const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf('_');
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const glyph = range.getBoundingClientRect();
      const line = row.getBoundingClientRect();
      return { x: glyph.x, y: line.y, width: glyph.width, height: line.height };
    }
    throw new Error('no underscore in the row');
  });
}

/** How many pixels of a screenshot differ clearly from its top-left pixel (the terminal's background). */
function inkedPixels(png: Buffer): Promise<number> {
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    let inked = 0;
    for (let index = 0; index < pixels.length; index += 4) {
      const difference =
        Math.abs(pixels[index]! - pixels[0]!) +
        Math.abs(pixels[index + 1]! - pixels[1]!) +
        Math.abs(pixels[index + 2]! - pixels[2]!);
      if (difference > 96) inked += 1;
    }
    return inked;
  }, png.toString('base64'));
}

describe('an underscore printed in a terminal', () => {
  it('is drawn inside its row, not clipped away', async () => {
    const cell = await underscoreCell();
    const shot = await page.screenshot({ clip: cell });
    expect(await inkedPixels(shot)).toBeGreaterThan(0);
  });
});
