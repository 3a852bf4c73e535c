import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectPages,
  ListRefusedError,
  loadPerformanceWindow,
  MAX_LIST_BYTES,
  MAX_LIST_ITEMS,
  MAX_PAGES,
  MAX_WINDOW_SAMPLES,
  RequestAbortedError,
  WINDOW_STOP_WORDS,
  type PerformanceWindow,
} from '../../../../electron/services/api';
import type { Page, PerformanceSample } from '../../../../electron/shared/api';
import type { Gateway } from '../../../../electron/shared/api/gateway';
import { gatewaysFrom, hostilePage, type HostilePaging } from '../../../helpers/hostile-pager';

/** A series served the way the simulator does: inclusive window, ordered, at most `limit` samples. */
function seriesServer(series: PerformanceSample[]) {
  const requests: PerformanceWindow[] = [];
  const fetchSlice = async (window: PerformanceWindow) => {
    requests.push(window);
    const inWindow = series.filter(
      (sample) => sample.timeMs >= window.startMs && sample.timeMs <= window.stopMs,
    );
    const ordered = window.order === 'ASC' ? inWindow : [...inWindow].reverse();
    return ordered.slice(0, window.limit);
  };
  return { fetchSlice, requests };
}

function makeSeries(count: number, { sharedEvery = 0 } = {}): PerformanceSample[] {
  const samples: PerformanceSample[] = [];
  let time = 1_000;
  for (let index = 0; index < count; index++) {
    if (!sharedEvery || index % sharedEvery !== 0) time += 10;
    samples.push({ timeMs: time, value: index, tags: { gatewayId: `gw-${index % 3}` } });
  }
  return samples;
}

describe('loadPerformanceWindow', () => {
  it.each(['ASC', 'DESC'] as const)('visits every sample exactly once in %s order', async (order) => {
    const series = makeSeries(1_037);
    const { fetchSlice, requests } = seriesServer(series);
    const { samples, truncated } = await loadPerformanceWindow(fetchSlice, {
      startMs: 0,
      stopMs: 1e9,
      order,
      limit: 100,
    });
    expect(truncated).toBe(false);
    expect(samples.map((sample) => sample.value)).toEqual(
      (order === 'ASC' ? series : [...series].reverse()).map((sample) => sample.value),
    );
    expect(requests.length).toBeGreaterThan(10);
  });

  it('does not repeat samples that share the boundary timestamp', async () => {
    const series = makeSeries(500, { sharedEvery: 2 }); // pairs of samples share a timestamp
    const { fetchSlice } = seriesServer(series);
    const { samples } = await loadPerformanceWindow(fetchSlice, {
      startMs: 0,
      stopMs: 1e9,
      order: 'ASC',
      limit: 7,
    });
    expect(samples).toHaveLength(500);
    expect(new Set(samples.map((sample) => sample.value)).size).toBe(500);
  });

  it('reports progress and stops, truncated, when one timestamp holds more samples than a page', async () => {
    const series = Array.from({ length: 30 }, (_, value) => ({ timeMs: 5, value }));
    const { fetchSlice } = seriesServer(series);
    const fractions: number[] = [];
    const result = await loadPerformanceWindow(
      fetchSlice,
      { startMs: 0, stopMs: 10, order: 'ASC', limit: 10 },
      { onProgress: (progress) => fractions.push(progress.fraction) },
    );
    expect(result.truncated).toBe(true);
    expect(result.stoppedAt).toBe('shared-timestamp');
    expect(result.samples).toHaveLength(10);
    expect(fractions.length).toBeGreaterThan(0);
  });

  it(`stops a server that answers new samples forever at ${MAX_WINDOW_SAMPLES} samples, labelled partial`, async () => {
    let requests = 0;
    // Full pages, each of new values, all at the window's start: the window never advances.
    const endless = async (window: PerformanceWindow): Promise<PerformanceSample[]> => {
      requests++;
      return Array.from({ length: window.limit }, (_, index) => ({
        timeMs: window.startMs,
        value: requests * window.limit + index,
      }));
    };
    const result = await loadPerformanceWindow(endless, { startMs: 0, stopMs: 10, order: 'ASC', limit: 100 });
    expect(result).toMatchObject({ truncated: true, stoppedAt: 'samples' });
    expect(result.samples).toHaveLength(MAX_WINDOW_SAMPLES);
    expect(requests).toBe(MAX_WINDOW_SAMPLES / 100 + 1);
    expect(WINDOW_STOP_WORDS.samples).toBe(
      'stopped at 500,000 samples, the most Field Kit loads at once: a shorter time range shows the rest',
    );
  });
});

describe('collectPages', () => {
  it('walks pages from 0 until hasNext is false', async () => {
    const pages: number[] = [];
    const items = await collectPages(
      async (page) => {
        pages.push(page);
        return { data: [page * 2, page * 2 + 1], totalPages: 3, totalElements: 6, hasNext: page < 2 };
      },
      { endpoint: 'listNumbers', pageSize: 2 },
    );
    expect(pages).toEqual([0, 1, 2]);
    expect(items).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

/** A hostile server's list as a page reader that counts its requests. */
function hostileReader(paging: HostilePaging, pageSize: number) {
  const requested: number[] = [];
  const fetchPage = async (page: number): Promise<Page<Gateway>> => {
    requested.push(page);
    return hostilePage(paging, page, pageSize);
  };
  return { requested, fetchPage };
}

const GROUP = { endpoint: 'listGatewayGroupGateways', pageSize: 500 };

describe('collectPages against a hostile server', () => {
  it('refuses a list of 4294967296 pages after its first page, naming the count', async () => {
    const { requested, fetchPage } = hostileReader({ kind: 'huge-total-pages', totalPages: 4294967296 }, 500);
    const error = await collectPages(fetchPage, GROUP).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ListRefusedError);
    expect((error as Error).message).toBe(
      `Unexpected answer from listGatewayGroupGateways: totalPages: the server says this list has 4,294,967,296 pages; Field Kit reads at most ${MAX_PAGES.toLocaleString('en-US')} pages of one list`,
    );
    expect(requested).toEqual([0]);
  });

  it('refuses a page count that does not match the item count and the page size', async () => {
    const { requested, fetchPage } = hostileReader(
      { kind: 'inconsistent', totalPages: 101, totalElements: 5 },
      500,
    );
    await expect(collectPages(fetchPage, GROUP)).rejects.toThrow(
      "totalPages: the server's page count does not add up: it says 5 items in 101 pages of 500, which make 1 pages",
    );
    expect(requested).toEqual([0]);
  });

  it('reads a list whose server pages by fewer items than asked, checking the totals by its page size', async () => {
    const serverPageSize = 100;
    const requested: number[] = [];
    const items = await collectPages(async (page) => {
      requested.push(page);
      return hostilePage({ kind: 'large', totalElements: 250 }, page, serverPageSize);
    }, GROUP);
    expect(items.map((gateway) => gateway.id.id)).toEqual(
      gatewaysFrom(0, 250).map((gateway) => gateway.id.id),
    );
    expect(requested).toEqual([0, 1, 2]);
  });

  it('refuses hasNext on the last page the server announced', async () => {
    const { fetchPage } = hostileReader({ kind: 'huge-total-pages', totalPages: 1 }, 500);
    await expect(collectPages(fetchPage, GROUP)).rejects.toThrow(
      "hasNext: the server's page count does not add up: it says page 1 of 1 has page after it",
    );
  });

  it(`stops a list that never ends at ${MAX_LIST_ITEMS} items with an error, keeping none`, async () => {
    const { requested, fetchPage } = hostileReader({ kind: 'forever' }, 500);
    const cap = MAX_LIST_ITEMS.toLocaleString('en-US');
    // Its totals run one page ahead, so the announced total reaches the cap a page before the items do.
    await expect(collectPages(fetchPage, GROUP)).rejects.toThrow(
      `totalElements: the server says this list has ${(MAX_LIST_ITEMS + 500).toLocaleString('en-US')} items; Field Kit reads at most ${cap} of one list`,
    );
    expect(requested).toHaveLength(MAX_LIST_ITEMS / 500);
  });

  it('stops a list of 2 KB names at the byte cap, long before the item cap', async () => {
    const { requested, fetchPage } = hostileReader({ kind: 'forever', nameLength: 2048 }, 500);
    await expect(collectPages(fetchPage, GROUP)).rejects.toThrow(
      `the list goes on past ${MAX_LIST_BYTES / 1024 / 1024} MB, the most Field Kit reads of one list`,
    );
    expect(requested.length).toBeLessThanOrEqual(Math.ceil(MAX_LIST_BYTES / (500 * 2048)) + 1);
  });

  it('sends no request after the signal fires', async () => {
    const controller = new AbortController();
    const { requested, fetchPage } = hostileReader({ kind: 'forever' }, 500);
    const aborting = async (page: number) => {
      if (page === 3) controller.abort();
      return fetchPage(page);
    };
    const error = await collectPages(aborting, { ...GROUP, signal: controller.signal }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(requested).toEqual([0, 1, 2, 3]);
  });
});

/** Any answer a server might give to page `page`: honest, lying about its totals, or endless. */
const hostilePagerArbitrary = fc.record({
  pageSize: fc.integer({ min: 1, max: 20 }),
  /** Per page: the answer, drawn once per page number. */
  pages: fc.array(
    fc.record({
      count: fc.integer({ min: 0, max: 25 }),
      totalPages: fc.oneof(fc.nat({ max: 40 }), fc.constantFrom(2 ** 32, 1e7, Number.MAX_SAFE_INTEGER)),
      totalElements: fc.oneof(fc.nat({ max: 800 }), fc.constantFrom(2 ** 32, 1e9)),
      hasNext: fc.boolean(),
      nameLength: fc.constantFrom(0, 100, 2048),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  /** Set: the server answers an honest list of this many gateways instead. */
  honestTotal: fc.option(fc.nat({ max: 300 }), { nil: undefined }),
  limits: fc.record({
    maxPages: fc.integer({ min: 1, max: 50 }),
    maxItems: fc.integer({ min: 1, max: 400 }),
    maxBytes: fc.integer({ min: 1_000, max: 200_000 }),
  }),
});

/** The bytes of a list as the checker counts them: each page's items as JSON. */
function pageBytes(items: readonly Gateway[], pageSize: number): number {
  let bytes = 0;
  for (let start = 0; start < items.length; start += pageSize)
    bytes += JSON.stringify(items.slice(start, start + pageSize)).length;
  return bytes;
}

describe('collectPages, property', () => {
  it('either returns a list whose pages add up, or refuses it; never past a cap', async () => {
    await fc.assert(
      fc.asyncProperty(hostilePagerArbitrary, async ({ pageSize, pages, limits, honestTotal }) => {
        let requests = 0;
        const fetchPage = async (page: number): Promise<Page<Gateway>> => {
          requests++;
          if (honestTotal !== undefined) {
            const start = page * pageSize;
            const count = Math.max(0, Math.min(pageSize, honestTotal - start));
            const totalPages = Math.ceil(honestTotal / pageSize);
            return {
              data: gatewaysFrom(start, count),
              totalPages,
              totalElements: honestTotal,
              hasNext: page + 1 < totalPages,
            };
          }
          // Past the pages drawn, the last one repeats: a server that never ends.
          const drawn = pages[Math.min(page, pages.length - 1)]!;
          return {
            data: gatewaysFrom(page * drawn.count, drawn.count, drawn.nameLength),
            totalPages: drawn.totalPages,
            totalElements: drawn.totalElements,
            hasNext: drawn.hasNext,
          };
        };
        const outcome = await collectPages(fetchPage, {
          endpoint: 'listGatewayGroupGateways',
          pageSize,
          limits,
        })
          .then((items) => ({ items }))
          .catch((error: unknown) => ({ error }));
        expect(requests).toBeLessThanOrEqual(limits.maxPages);
        if (honestTotal !== undefined) {
          const fits =
            Math.ceil(honestTotal / pageSize) <= limits.maxPages &&
            honestTotal <= limits.maxItems &&
            pageBytes(gatewaysFrom(0, honestTotal), pageSize) <= limits.maxBytes;
          // An honest list within the caps is read whole; one past them is refused, never cut short.
          if (fits) expect(outcome).toEqual({ items: gatewaysFrom(0, honestTotal) });
          else expect('error' in outcome).toBe(true);
          return;
        }
        if ('error' in outcome) {
          expect(outcome.error).toBeInstanceOf(ListRefusedError);
          expect((outcome.error as Error).message).toMatch(
            /^Unexpected answer from listGatewayGroupGateways: /,
          );
          return;
        }
        expect(outcome.items.length).toBeLessThanOrEqual(limits.maxItems);
        expect(JSON.stringify(outcome.items).length).toBeLessThanOrEqual(limits.maxBytes + 2);
        const last = pages[Math.min(requests - 1, pages.length - 1)]!;
        expect(last.hasNext).toBe(false);
        expect(requests).toBe(Math.max(1, last.totalPages));
      }),
      { numRuns: 300 },
    );
  });
});
