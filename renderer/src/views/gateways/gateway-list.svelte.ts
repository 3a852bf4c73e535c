// Pages and bookkeeping are plain Maps and Sets on purpose: the `version` rune says when rows arrived, so 10,000
// rows never become deep proxies.
/* eslint-disable svelte/prefer-svelte-reactivity */
import type { IpcClient } from '../../lib/ipc';
import type { IpcErrorShape } from '../../lib/wire-types';
import type { Gateway, GatewaySortField } from '../../../../electron/shared/api/gateway';
import { toGatewaySearchText } from '../../../../electron/shared/mac';
import { appClock } from '../../lib/clock';
import { LoadState } from '../../lib/state/loaded.svelte';
import { t } from '../../lib/i18n';
import { readCached, readThroughCache, type ReadParts } from './gateway-reads';

/** Which gateways a list shows: a provider's, a customer's (or sub-customer's), or a gateway group's. */
export interface GatewayScope {
  kind: 'provider' | 'customer' | 'group';
  id: string;
}

/** Page sizes offered (the server's limit per request; the list itself scrolls through all of them). */
export const PAGE_SIZES = [50, 100, 200, 500] as const;

/** How many page requests may be in flight at once while scrolling fast. */
const MAX_CONCURRENT_PAGES = 2;
/** While showing cached data, how often to try the server again. */
export const OFFLINE_RETRY_MS = 5_000;
/** The endpoints that list a page of gateways: a provider's, a customer's or a gateway group's. */
export type GatewayListEndpoint =
  'listProviderGateways' | 'listCustomerGateways' | 'listGatewayGroupGateways';

/** The request for one page of a scope, as `api:call` takes it (and the offline cache keys it). */
export function pageRequest(
  scope: GatewayScope,
  query: {
    page: number;
    limit: number;
    sortField: GatewaySortField;
    sortDirection: 'ASC' | 'DESC';
    textSearch: string;
  },
): ReadParts<GatewayListEndpoint> {
  const { textSearch, ...rest } = query;
  const fullQuery: Record<string, unknown> = { ...rest };
  // A MAC typed as printed on the label (any case, `:`/`-`/`.` separators) is sent as the digits the server stores.
  const search = toGatewaySearchText(textSearch);
  if (search) fullQuery.textSearch = search;
  switch (scope.kind) {
    case 'provider':
      return { endpoint: 'listProviderGateways', params: { providerId: scope.id }, query: fullQuery };
    case 'customer':
      return { endpoint: 'listCustomerGateways', params: { customerId: scope.id }, query: fullQuery };
    case 'group':
      return { endpoint: 'listGatewayGroupGateways', params: { gatewayGroupId: scope.id }, query: fullQuery };
  }
}

/** Performance mark set when the first page's answer reaches the list (the benchmark measures from here). */
export const DATA_RECEIVED_MARK = 'gateways:first-page-received';
/** Performance mark set after the first rows of a new list have been painted. */
export const ROWS_PAINTED_MARK = 'gateways:first-rows-painted';

/** Gateways seen in any list, by id: the gateway page opens at once for a gateway the list showed. */
export const GATEWAY_DIRECTORY = new Map<string, Gateway>();

/**
 * The gateway list as runes: scope, sort, page size and search; pages loaded on demand as the viewport nears
 * them (never the whole list), answers from the offline cache marked with their time. A change of scope, sort,
 * size or search starts a new generation: answers of the old one are dropped.
 */
export class GatewayListState {
  scope = $state<GatewayScope | null>(null);
  sortField = $state<GatewaySortField>('NAME');
  sortDirection = $state<'ASC' | 'DESC'>('ASC');
  pageSize = $state<number>(100);
  search = $state('');
  total = $state(0);
  /** True once the first page of the current list answered: until then `total` is unknown, not 0. */
  hasLoaded = $state(false);
  /** The first page's load: its failure, automatic retries and Retry, shared with every view (LoadFailure). */
  readonly load: LoadState;
  /** True while the rows shown come from this laptop (offline cache or site pack) rather than the server. */
  get isOffline(): boolean {
    return this.asOf !== null;
  }
  /** Bumped whenever rows arrive, so the table re-reads rows already on screen. */
  version = $state(0);
  isLoading = $state(false);
  /** When the rows shown come from the offline cache: the time they were received. Null when live. */
  asOf = $state<number | null>(null);
  /** Customers and gateway groups seen on the gateways loaded so far (there is no endpoint listing them). */
  seenCustomers = $state<string[]>([]);
  seenGroups = $state<string[]>([]);

  #pages = new Map<number, Gateway[]>();
  #requested = new Set<number>();
  #queue: number[] = [];
  #inFlight = 0;
  #generation = 0;
  #retryTimer: unknown = null;

  readonly client: IpcClient;

  constructor(client: IpcClient) {
    this.client = client;
    // LoadState keeps `what` as text: written in the language of the moment the list was opened.
    this.load = new LoadState({ what: t('gateways:whatGateways'), reload: () => this.#restart() });
  }

  /** Why the first page failed to load (kept while it is retried), or null. */
  get error(): IpcErrorShape | null {
    return this.load.error;
  }

  /** The row at an index, or undefined while its page is not loaded. */
  rowAt(index: number): Gateway | undefined {
    return this.#pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  /** Starts over from the first page after a change of scope, sort, size or search: an older failure is over. */
  reload(): void {
    this.load.reset();
    this.#restart();
  }

  // A retry keeps the failure on screen until the first page answers: it says why the list is being loaded again.
  #restart(): void {
    this.#generation++;
    this.#pages.clear();
    this.#requested.clear();
    this.#queue = [];
    this.#inFlight = 0;
    this.total = 0;
    this.hasLoaded = false;
    this.version++;
    this.#clearRetry();
    if (this.scope) {
      this.load.begin();
      this.#request(0);
    }
  }

  /** Loads the pages of rows `start`…`end` and of the half page beyond each side, if not loaded yet. */
  ensureRange(start: number, end: number): void {
    if (!this.scope) return;
    const margin = Math.floor(this.pageSize / 2);
    const first = Math.floor(Math.max(0, start - margin) / this.pageSize);
    const last = Math.floor(Math.max(0, end + margin - 1) / this.pageSize);
    const lastPage = Math.max(0, Math.ceil(this.total / this.pageSize) - 1);
    for (let page = first; page <= Math.min(last, lastPage); page++) this.#request(page);
  }

  /** Stops the offline and failed-load retry timers. */
  dispose(): void {
    this.#clearRetry();
    this.load.dispose();
    this.#generation++;
  }

  #request(page: number): void {
    if (this.#requested.has(page)) return;
    this.#requested.add(page);
    this.#queue.push(page);
    this.#pump();
  }

  #pump(): void {
    while (this.#inFlight < MAX_CONCURRENT_PAGES && this.#queue.length > 0) {
      const page = this.#queue.shift() as number;
      this.#inFlight++;
      void this.#load(page, this.#generation);
    }
  }

  async #load(page: number, generation: number): Promise<void> {
    const scope = this.scope;
    if (!scope) return;
    this.isLoading = true;
    const parts = pageRequest(scope, {
      page,
      limit: this.pageSize,
      sortField: this.sortField,
      sortDirection: this.sortDirection,
      textSearch: this.search,
    });
    // Once the rows come from this laptop, the next pages and searches do too (no wait on an absent server);
    // the retry probe alone asks the server, and live rows replace these when it answers.
    const outcome = this.isOffline
      ? await readCached(this.client, parts)
      : await readThroughCache(this.client, parts);
    if (generation !== this.#generation) return;
    if (page === 0 && outcome.ok) performance.mark(DATA_RECEIVED_MARK);
    this.#inFlight--;
    this.isLoading = this.#inFlight > 0;
    if (!outcome.ok) {
      this.#requested.delete(page);
      if (page === 0 && !this.hasLoaded) this.load.fail(outcome.error);
      this.#pump();
      return;
    }
    if (page === 0) this.load.succeed();
    if (outcome.asOf !== null) {
      this.asOf = this.asOf === null ? outcome.asOf : Math.min(this.asOf, outcome.asOf);
      this.#scheduleRetry();
    } else if (this.asOf !== null) {
      // The server is back: replace every cached row with live data.
      this.asOf = null;
      this.reload();
      return;
    }
    this.#pages.set(page, outcome.value.data);
    this.total = outcome.value.totalElements;
    this.hasLoaded = true;
    this.#remember(outcome.value.data);
    this.version++;
    this.#pump();
  }

  #remember(gateways: Gateway[]): void {
    const customers = new Set(this.seenCustomers);
    const groups = new Set(this.seenGroups);
    for (const gateway of gateways) {
      GATEWAY_DIRECTORY.set(gateway.id.id, gateway);
      if (gateway.customerId?.id) customers.add(gateway.customerId.id);
      if (gateway.gatewayGroupId?.id) groups.add(gateway.gatewayGroupId.id);
    }
    if (customers.size !== this.seenCustomers.length) this.seenCustomers = [...customers];
    if (groups.size !== this.seenGroups.length) this.seenGroups = [...groups];
  }

  #scheduleRetry(): void {
    if (this.#retryTimer !== null) return;
    this.#retryTimer = appClock.setTimeout(() => {
      this.#retryTimer = null;
      void this.#probe();
    }, OFFLINE_RETRY_MS);
  }

  async #probe(): Promise<void> {
    const scope = this.scope;
    if (!scope || this.asOf === null) return;
    const generation = this.#generation;
    const live = await this.client.invoke(
      'api:call',
      pageRequest(scope, {
        page: 0,
        limit: this.pageSize,
        sortField: this.sortField,
        sortDirection: this.sortDirection,
        textSearch: this.search,
      }),
    );
    if (generation !== this.#generation) return;
    if (live.ok) {
      this.asOf = null;
      this.reload();
    } else this.#scheduleRetry();
  }

  #clearRetry(): void {
    if (this.#retryTimer !== null) appClock.clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }
}
