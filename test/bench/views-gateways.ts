// The gateway list with 10,000 gateways, in Debian's Chromium against the browser host and a simulator started
// with `--gateways 10000`, signed in as the provider user (who sees all of them):
// * `gateway-list-first-rows-ms`: from the first page's answer reaching the list (a performance mark set as
//   the data arrives) until the frame showing its rows is painted (a mark after requestAnimationFrame);
//   median of several fresh lists (each sort click starts a new one).
// * `gateway-list-dom-rows`: the most row elements in the DOM at any point while scrolling the whole list
//   from top to bottom (pages load on demand as the viewport nears them).
import { MemoryStore } from '../../electron/services/credentials';
import { startSimulator } from '../../simulator';
import { launchBrowser } from '../helpers/browser';
import { startDemoHost } from '../e2e/support/journey';
import type { BenchFigure } from './report';
import { openLoginScreen } from '../e2e/support/login-page';

/** Gateways in the simulated fleet. */
export const GATEWAY_COUNT = 10_000;
/** Fresh lists measured (after one warm-up). */
const ROUNDS = 7;
/** Pixels scrolled per step while counting rows (about 55 rows of 36 px). */
const SCROLL_STEP_PX = 2_000;
const DATA_RECEIVED_MARK = 'gateways:first-page-received';
const ROWS_PAINTED_MARK = 'gateways:first-rows-painted';

/** Measures the gateway list in Chromium and answers its two figures. */
export async function runViewsGatewaysBench(): Promise<BenchFigure[]> {
  const simulator = await startSimulator({ port: 0, gateways: GATEWAY_COUNT });
  const { host, close: closeHost } = await startDemoHost(simulator, {
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
  });
  const browser = await launchBrowser({ stepTimeoutMs: 60_000 });
  try {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    const provider = simulator.fixture.accounts.find((account) => account.role === 'PROVIDER_USER');
    if (!provider) throw new Error('the demo tenant has no provider user');
    await (await openLoginScreen(page, host.url, `Use ${provider.username} (${provider.role})`)).click();
    await page.getByRole('radio', { name: "Don't remember me", exact: true }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table', { name: 'Gateways' }).waitFor();
    await page.getByText(`${GATEWAY_COUNT.toLocaleString('en')} gateways`).waitFor();

    const header = page.getByRole('columnheader', { name: 'Name' }).getByRole('button');
    const measureFreshList = async (): Promise<number> => {
      await page.evaluate(() => performance.clearMarks());
      await header.click();
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, ROWS_PAINTED_MARK);
      return page.evaluate(
        ([from, to]) => {
          const start = performance.getEntriesByName(from).at(-1)?.startTime ?? Number.NaN;
          const end = performance.getEntriesByName(to).at(-1)?.startTime ?? Number.NaN;
          return end - start;
        },
        [DATA_RECEIVED_MARK, ROWS_PAINTED_MARK] as const,
      );
    };
    await measureFreshList();
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) times.push(await measureFreshList());
    times.sort((left, right) => left - right);
    const median = times[Math.floor(times.length / 2)] as number;

    const scroll = await page.evaluate(
      async ([step, rowCount]) => {
        const viewport = document.querySelector<HTMLElement>('[aria-label="Gateways: rows"]');
        if (!viewport) throw new Error('no gateway rows viewport');
        let maxRows = 0;
        let steps = 0;
        const limit = Math.ceil((rowCount * 40) / step) + 10;
        while (steps < limit && viewport.scrollTop + viewport.clientHeight < viewport.scrollHeight - 1) {
          viewport.scrollTop += step;
          viewport.dispatchEvent(new Event('scroll'));
          await new Promise((resolve) => requestAnimationFrame(resolve));
          maxRows = Math.max(maxRows, viewport.querySelectorAll('[data-row-index]').length);
          steps++;
        }
        const last = viewport.querySelector('[data-row-index]:last-child')?.getAttribute('data-row-index');
        return { maxRows, steps, last: Number(last) };
      },
      [SCROLL_STEP_PX, GATEWAY_COUNT] as const,
    );
    if (scroll.last !== GATEWAY_COUNT - 1) throw new Error(`scrolling stopped at row ${scroll.last}`);

    return [
      {
        name: 'gateway-list-first-rows-ms',
        value: Math.round(median * 10) / 10,
        unit: 'ms',
        target: '<= 300',
        note:
          `${GATEWAY_COUNT.toLocaleString('en')} gateways, page of 100 received → its rows painted; median of ` +
          `${ROUNDS} (min ${times[0]?.toFixed(1)}, max ${times.at(-1)?.toFixed(1)})`,
      },
      {
        name: 'gateway-list-dom-rows',
        value: scroll.maxRows,
        unit: 'rows',
        target: '<= 150',
        note: `most row elements in the DOM while scrolling all ${GATEWAY_COUNT.toLocaleString('en')} rows (${scroll.steps} steps of ${SCROLL_STEP_PX} px)`,
      },
    ];
  } finally {
    await browser.close();
    await closeHost();
    await simulator.close();
  }
}

// Run alone: `npx tsx test/bench/views-gateways.ts` prints the figures.
if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runViewsGatewaysBench();
  console.table(figures);
  process.exit(0);
}
