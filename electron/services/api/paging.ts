import type { Page } from '../../shared/api';
import { format } from '../../shared/format';
import { t } from '../../shared/i18n';
import { RequestAbortedError, ResponseValidationError } from './errors';

/** Most pages of one list Field Kit reads, whatever the server says; a list said to have more is refused. */
export const MAX_PAGES = 10_000;

/**
 * Most items of one list Field Kit reads (a whole gateway group, a provider's gateways): ten times a large
 * provider's fleet. A list said to hold more, or that goes on past it, is refused — never cut short silently.
 */
export const MAX_LIST_ITEMS = 100_000;

/**
 * Most bytes of items (their JSON text) one list may add up to: the most one answer may hold (MAX_ANSWER_BYTES).
 * 100,000 gateways as the simulator serves them take about 30 MB; 2 KB names reach it after some 15,000.
 */
export const MAX_LIST_BYTES = 32 * 1024 * 1024;

/** How much of a list Field Kit reads; tests lower them to reach the caps in a few pages. */
export interface ListLimits {
  maxPages: number;
  maxItems: number;
  maxBytes: number;
}

/** The caps above, as one value. */
export const LIST_LIMITS: ListLimits = {
  maxPages: MAX_PAGES,
  maxItems: MAX_LIST_ITEMS,
  maxBytes: MAX_LIST_BYTES,
};

/**
 * A paginated list was refused: the server's page numbers do not add up, or the list goes past a cap. Reads as any
 * other unexpected answer (`Unexpected answer from <endpoint>: <field>: …`), so the technician learns which list
 * and what the server said; nothing of the list is kept.
 */
export class ListRefusedError extends ResponseValidationError {
  constructor(endpoint: string, field: string, message: string) {
    super(endpoint, [{ path: field, message }]);
  }
}

/** What walking a list needs to know besides the page reader. */
export interface PagingOptions {
  /** The endpoint read, named in errors. */
  endpoint: string;
  /** The `limit` each request asks for: a page may hold no more, and totalPages must match it. */
  pageSize: number;
  /** Stops the walk (no further request) when it fires; pass the same signal to the request itself. */
  signal?: AbortSignal | undefined;
  limits?: Partial<ListLimits>;
}

const count = (value: number) => format.number(value);

/**
 * Checks each page of one list as it arrives against the server's own numbers and the caps, and counts what the
 * list holds so far. Guarantees: a page it accepts says the same as its totals (totalPages is totalElements over
 * the page size, hasNext is "a page after this one", no more items than the page size), the totals are within
 * the caps, and the pages accepted add up to at most maxItems items and maxBytes bytes. Anything else throws
 * ListRefusedError naming what the server said.
 */
export class PageChecker {
  private readonly limits: ListLimits;
  private items = 0;
  private bytes = 0;
  /** The page size the server pages by: the one asked for, unless its first page is a smaller full page. */
  private pageSize: number;
  private hasSeenPage = false;

  constructor(
    private readonly endpoint: string,
    pageSize: number,
    limits: Partial<ListLimits> = {},
  ) {
    this.limits = { ...LIST_LIMITS, ...limits };
    this.pageSize = pageSize;
  }

  /** Accepts page `pageNumber` (from 0) or throws ListRefusedError; returns it unchanged. */
  accept<Item>(page: Page<Item>, pageNumber: number): Page<Item> {
    const { maxPages, maxItems, maxBytes } = this.limits;
    const refuse = (field: string, message: string) => new ListRefusedError(this.endpoint, field, message);
    const { totalPages, totalElements, hasNext, data } = page;
    if (totalPages > maxPages)
      throw refuse(
        'totalPages',
        t('errors:listTooManyPages', { pages: count(totalPages), most: count(maxPages) }),
      );
    if (totalElements > maxItems)
      throw refuse(
        'totalElements',
        t('errors:listTooManyItems', { items: count(totalElements), most: count(maxItems) }),
      );
    // A server may page by fewer than asked (a maximum page size of its own): a first page that has a next one,
    // holds fewer items than asked and whose totals add up by its own size sets the page size from then on.
    const isSmallerPaging =
      !this.hasSeenPage &&
      hasNext &&
      data.length > 0 &&
      data.length < this.pageSize &&
      totalPages === Math.ceil(totalElements / data.length);
    if (isSmallerPaging) this.pageSize = data.length;
    this.hasSeenPage = true;
    const expectedPages = Math.ceil(totalElements / this.pageSize);
    if (totalPages !== expectedPages)
      throw refuse(
        'totalPages',
        t('errors:listPagesDoNotAddUp', {
          items: count(totalElements),
          pages: count(totalPages),
          size: count(this.pageSize),
          expected: count(expectedPages),
        }),
      );
    if (hasNext !== pageNumber + 1 < totalPages)
      throw refuse(
        'hasNext',
        t(hasNext ? 'errors:listNextPageWrong' : 'errors:listNoNextPageWrong', {
          page: count(pageNumber + 1),
          pages: count(totalPages),
        }),
      );
    if (data.length > this.pageSize)
      throw refuse(
        'data',
        t('errors:listPageTooFull', { items: count(data.length), size: count(this.pageSize) }),
      );
    if (hasNext && data.length === 0)
      throw refuse(
        'data',
        t('errors:listPageEmpty', { page: count(pageNumber + 1), pages: count(totalPages) }),
      );
    this.items += data.length;
    if (this.items > maxItems) throw refuse('data', t('errors:listPastItems', { most: count(maxItems) }));
    // A page reached this far is already parsed and at most one answer long: measuring it costs one string.
    this.bytes += JSON.stringify(data).length;
    if (this.bytes > maxBytes)
      throw refuse('data', t('errors:listPastBytes', { megabytes: Math.round(maxBytes / 1024 / 1024) }));
    return page;
  }
}

/**
 * Walks a paginated list from page 0 until the server says there is no next page. `fetchPage` gets the page
 * number; gateway lists and enhanced events both fit. Every page goes through a PageChecker, so the walk ends
 * within the caps (pages, items, bytes) or throws ListRefusedError; it throws RequestAbortedError, sending no
 * further request, once `signal` fires.
 */
export async function* iteratePages<Item>(
  fetchPage: (page: number) => Promise<Page<Item>>,
  options: PagingOptions,
): AsyncGenerator<Page<Item>> {
  const checker = new PageChecker(options.endpoint, options.pageSize, options.limits);
  // Bounded without a counter of its own: the checker refuses a hasNext past maxPages.
  for (let page = 0; ; page++) {
    if (options.signal?.aborted) throw new RequestAbortedError(options.endpoint);
    const result = checker.accept(await fetchPage(page), page);
    if (options.signal?.aborted) throw new RequestAbortedError(options.endpoint);
    yield result;
    if (!result.hasNext) return;
  }
}

/** Every item of a paginated list, in server order, within the caps of iteratePages (else it throws). */
export async function collectPages<Item>(
  fetchPage: (page: number) => Promise<Page<Item>>,
  options: PagingOptions,
): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of iteratePages(fetchPage, options)) items.push(...page.data);
  return items;
}

// The window loader is pure (no Node): it lives in shared so the renderer pages through telemetry with it too.
export {
  loadPerformanceWindow,
  MAX_WINDOW_SAMPLES,
  WINDOW_STOP_WORDS,
  type PerformanceProgress,
  type PerformanceWindow,
  type WindowStop,
} from '../../shared/api/performance-window';
