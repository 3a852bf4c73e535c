import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle (a devDependency), injected into the page under test. */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** One rule axe-core found broken, with where (CSS selectors of the first offending elements). */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Impacts a screen must not have (the bar: no serious or critical violation). */
export const BLOCKING_IMPACTS = ['serious', 'critical'];

/**
 * Runs axe-core over the page as it is now and returns its serious and critical violations (empty when there is
 * none). The script is added once per document; the app's CSP forbids inline scripts, so when the tag added by
 * Playwright did not run, the same file is evaluated through DevTools, which the CSP does not govern.
 */
export async function findAxeViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = () => page.evaluate(() => 'axe' in window);
  if (!(await hasAxe())) {
    await page.addScriptTag({ path: AXE_PATH }).catch(() => undefined);
    if (!(await hasAxe())) await page.evaluate(await readFile(AXE_PATH, 'utf8'));
  }
  return page.evaluate(async (impacts) => {
    const axe = window.axe!;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact !== null && impacts.includes(violation.impact))
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
  }, BLOCKING_IMPACTS);
}

declare global {
  interface Window {
    /** axe-core, once its bundle is injected into the page. */
    axe?: AxeGlobal;
  }
}

/** The part of axe-core's API the helper uses (its types live in the injected bundle's world). */
interface AxeGlobal {
  run(
    context: Document,
    options: { resultTypes: string[] },
  ): Promise<{
    violations: Array<{
      id: string;
      impact: string | null;
      help: string;
      nodes: Array<{ target: string[] }>;
    }>;
  }>;
}

/** How far the page reaches sideways: its scroll width and the window's inner width, in CSS pixels. */
export async function measurePageWidth(page: Page): Promise<{ scrollWidth: number; windowWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    windowWidth: window.innerWidth,
  }));
}

/**
 * The visible column headers (table `th` and `role="columnheader"`) whose text is cut: wider than their box
 * (scrollWidth > clientWidth), by their text. Empty when every header shows whole.
 */
export async function findClippedHeaders(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('th, [role="columnheader"]'))
      .filter((header) => header.offsetParent !== null && header.scrollWidth > header.clientWidth)
      .map((header) => (header.textContent ?? '').trim()),
  );
}

/**
 * The labels of visible buttons and column headings with a word broken across lines ("Cance" / "l"): each word
 * must lie on one line box (a hyphen may end a line; code such as an API name may break).
 */
export async function findBrokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const button of Array.from(document.querySelectorAll<HTMLElement>('button, th'))) {
      if (button.offsetParent === null) continue;
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // An identifier in code (an API name) may break where it must: it is one long token.
        if (node.parentElement?.closest('code')) continue;
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push((button.textContent ?? '').trim());
        }
      }
    }
    return [...new Set(broken)];
  });
}
