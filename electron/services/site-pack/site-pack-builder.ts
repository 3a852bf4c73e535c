import type { Page } from '../../shared/api';
import type { Gateway } from '../../shared/api/gateway';
import { GatewaySearch } from './gateway-search';
import {
  SITE_PACK_VERSION,
  type PackGatewayDetails,
  type PackScope,
  type PackSection,
  type PackSectionName,
  type SitePackFile,
} from '../../shared/site-pack-file';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import type { KnownCustomer } from '../../shared/customers';
import { normalizeMac } from '../../shared/mac';
import { t } from '../../shared/i18n';
import { PageChecker, type ListLimits } from '../api/paging';

/** How many requests the preparation keeps in flight at once. */
export const PACK_CONCURRENCY = 8;
/** The page size of the gateway list reads (the largest the gateway page's identity scan uses). */
export const PACK_LIST_PAGE_SIZE = 1000;
/** Most gateways whose details one pack reads (8 requests each); the whole list is always kept. */
export const MAX_DETAILED_GATEWAYS = 500;
/** How far back the events of each chosen gateway go. */
export const PACK_EVENTS_SPAN_MS = 24 * 60 * 60 * 1000;
/** Most raised alarms and most events kept per gateway. */
export const PACK_EVENTS_LIMIT = 100;

/**
 * Which gateways get their details read: all of the scope, those a search finds, a list of ids, or a visit list
 * as typed (names, MACs in any form, ids).
 */
export type PackSelection =
  | { kind: 'all' }
  | { kind: 'search'; text: string }
  | { kind: 'ids'; ids: readonly string[] }
  | { kind: 'entries'; entries: readonly string[] };

/** What the preparation reads through: the signed-in session's calls (tokens stay inside). */
export interface PackReader {
  call(
    endpoint: string,
    request: { params?: unknown; query?: unknown },
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
  command(gatewayId: string, command: string, body: unknown): Promise<unknown>;
}

/** Where a preparation is. */
export interface PackProgress {
  phase: 'list' | 'details' | 'writing';
  done: number;
  total: number;
}

/** What a preparation needs. */
export interface PreparePackOptions {
  reader: PackReader;
  profileId: string;
  scope: PackScope;
  selection: PackSelection;
  /** Says whether a gateway's root password is in the keychain (never reads it out). */
  isRootPasswordStored: (gatewayId: string) => Promise<boolean>;
  /** True for an error that ends the whole preparation (server gone, session over) rather than one section. */
  isFatal: (error: unknown) => boolean;
  signal?: AbortSignal;
  onProgress?: (progress: PackProgress) => void;
  concurrency?: number;
  clock?: Pick<Clock, 'now'>;
  /** The caps on the gateway list (default LIST_LIMITS); tests lower them. */
  listLimits?: Partial<ListLimits>;
  /** The customers the profile knows of, kept in the pack so that pickers name them offline. */
  customers?: readonly KnownCustomer[];
}

/** The preparation was cancelled; the previous pack stays as it was. */
export class PackCancelledError extends Error {
  constructor() {
    super(t('sitePack:cancelled'));
    this.name = 'PackCancelledError';
  }
}

/** Runs `worker` over `items` with at most `concurrency` at once; stops starting new ones once `signal` aborts. */
export async function runBounded<Item>(
  items: readonly Item[],
  concurrency: number,
  worker: (item: Item) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      if (signal?.aborted) throw new PackCancelledError();
      const item = items[next++] as Item;
      await worker(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
}

function listRequest(scope: PackScope, page: number): { endpoint: string; params: unknown; query: unknown } {
  const query = { page, limit: PACK_LIST_PAGE_SIZE, sortField: 'CREATED_TIME', sortDirection: 'ASC' };
  switch (scope.kind) {
    case 'provider':
      return { endpoint: 'listProviderGateways', params: { providerId: scope.id }, query };
    case 'customer':
      return { endpoint: 'listCustomerGateways', params: { customerId: scope.id }, query };
    case 'group':
      return { endpoint: 'listGatewayGroupGateways', params: { gatewayGroupId: scope.id }, query };
  }
}

/** The gateway commands each chosen gateway is read with (all read-only, the ones the wizards read with). */
const COMMAND_SECTIONS: ReadonlyArray<[PackSectionName, string]> = [
  ['info', 'getGatewayInfo'],
  ['wanLinks', 'getConnectivityTypes'],
  ['apns', 'getWmApns'],
  ['firewall', 'getFirewallConfiguration'],
  ['backups', 'getBackups'],
  ['software', 'getSoftwareVersions'],
];

/** The serial numbers a pack's details name for a gateway (its OAM gateway id and its modem's serial). */
export function serialsOf(details: PackGatewayDetails | undefined): string[] {
  const info = details?.sections.info;
  if (!info || !('value' in info) || typeof info.value !== 'object' || info.value === null) return [];
  const record = info.value as Record<string, unknown>;
  return [record.custGatewayId, record.moduleSerialNumber].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}

/**
 * Prepares a site pack: reads the scope's whole gateway list (pages in parallel), then for each chosen gateway its
 * raised alarms, last 24 h of events and, when it is online, its interfaces, WAN links, APNs, firewall, backups
 * and software versions — at most `concurrency` requests in flight. A section that fails is kept as its error;
 * an error `isFatal` calls fatal (the server went away) ends the preparation. Writes nothing: the caller stores
 * the result. Holds no secret: root passwords are only flagged as stored.
 */
export async function prepareSitePack(options: PreparePackOptions): Promise<SitePackFile> {
  const { reader, scope, signal } = options;
  const concurrency = options.concurrency ?? PACK_CONCURRENCY;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const now = () => clock.now();
  const guard = <T>(work: () => Promise<T>): Promise<T> => {
    if (signal?.aborted) throw new PackCancelledError();
    return work();
  };

  options.onProgress?.({ phase: 'list', done: 0, total: 1 });
  const gatewayPages = await readGatewayList(options, concurrency);
  if (signal?.aborted) throw new PackCancelledError();
  const gateways = gatewayPages.flat();
  const name = await guard(() => readScopeName(reader, scope, options.isFatal));

  const { chosen, unresolved } = selectGateways(gateways, options.selection);
  const details: Record<string, PackGatewayDetails> = {};
  const rootPasswordStored: string[] = [];
  const startedAt = now();
  let gatewaysDone = 0;
  options.onProgress?.({ phase: 'details', done: 0, total: chosen.length });
  const sectionOf = async (work: () => Promise<unknown>): Promise<PackSection> => {
    try {
      return { value: await guard(work) };
    } catch (error) {
      if (error instanceof PackCancelledError || options.isFatal(error)) throw error;
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  // Every request is one task, so the lanes stay full across gateways (a gateway's 8 reads run side by side).
  const tasks: Array<() => Promise<void>> = [];
  const remaining = new Map<string, number>();
  for (const gateway of chosen) {
    const id = gateway.id.id;
    const entry: PackGatewayDetails = { readAt: startedAt, sections: {} };
    details[id] = entry;
    const finishOne = () => {
      const left = (remaining.get(id) ?? 1) - 1;
      remaining.set(id, left);
      if (left === 0) options.onProgress?.({ phase: 'details', done: ++gatewaysDone, total: chosen.length });
    };
    const add = (name: PackSectionName, work: () => Promise<unknown>) => {
      remaining.set(id, (remaining.get(id) ?? 0) + 1);
      tasks.push(async () => {
        entry.sections[name] = await sectionOf(work);
        finishOne();
      });
    };
    add('alarms', () =>
      reader.call('listEntityEnhancedEvents', {
        params: { entityType: 'GATEWAY', entityId: id, eventType: 'Alarms' },
        query: { startTs: 0, limit: PACK_EVENTS_LIMIT },
      }),
    );
    add('events', () =>
      reader.call('listEntityEnhancedEvents', {
        params: { entityType: 'GATEWAY', entityId: id, eventType: 'Events' },
        query: { startTs: startedAt - PACK_EVENTS_SPAN_MS, endTs: startedAt, limit: PACK_EVENTS_LIMIT },
      }),
    );
    if (gateway.status === 'ONLINE') {
      for (const [name, command] of COMMAND_SECTIONS) add(name, () => reader.command(id, command, {}));
    } else {
      // An offline gateway would only time out: say why its live sections are missing instead of waiting.
      for (const [name] of COMMAND_SECTIONS) entry.sections[name] = { skipped: 'gateway-offline' };
    }
    tasks.push(async () => {
      if (await options.isRootPasswordStored(id).catch(() => false)) rootPasswordStored.push(id);
    });
  }
  await runBounded(tasks, concurrency, (task) => task(), signal);
  options.onProgress?.({ phase: 'writing', done: chosen.length, total: chosen.length });
  return {
    version: SITE_PACK_VERSION,
    profileId: options.profileId,
    preparedAt: startedAt,
    scope: { kind: scope.kind, id: scope.id, ...(name ? { name } : {}) },
    gateways,
    details,
    rootPasswordStored: rootPasswordStored.sort(),
    ...(options.customers && options.customers.length > 0
      ? { customers: options.customers.slice(0, 500) }
      : {}),
    ...(unresolved.length > 0 ? { unresolved } : {}),
  };
}

/**
 * The scope's whole gateway list: page 0, then the pages it announces, at most `concurrency` at once. Every page
 * goes through one PageChecker, so a page count that does not add up or a list past the caps throws
 * ListRefusedError; nothing is allocated from the server's numbers before they are checked. When a page fails or
 * the caller's signal fires, the pages in flight are cancelled and no other is asked for; it returns or throws only
 * once no request of its own is left (a cancel throws PackCancelledError).
 */
async function readGatewayList(options: PreparePackOptions, concurrency: number): Promise<Gateway[][]> {
  const { reader, scope } = options;
  const checker = new PageChecker(listRequest(scope, 0).endpoint, PACK_LIST_PAGE_SIZE, options.listLimits);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let firstFailure: { error: unknown } | undefined;
  const readPage = async (page: number): Promise<Page<Gateway>> => {
    if (options.signal?.aborted) throw new PackCancelledError();
    const request = listRequest(scope, page);
    try {
      const answer = await reader.call(request.endpoint, request, { signal });
      return checker.accept(answer as Page<Gateway>, page);
    } catch (error) {
      // The first failure is the cause; those after it are the cancels it made.
      if (!stop.signal.aborted) firstFailure = { error };
      stop.abort();
      throw options.signal?.aborted ? new PackCancelledError() : error;
    }
  };
  const first = await readPage(0);
  // The checker has held totalPages to MAX_PAGES and to totalElements over the page size.
  const totalPages = Math.max(1, first.totalPages);
  const pages: Gateway[][] = [first.data];
  let nextPage = 1;
  let pagesDone = 1;
  options.onProgress?.({ phase: 'list', done: pagesDone, total: totalPages });
  const lane = async (): Promise<void> => {
    while (nextPage < totalPages && !signal.aborted) {
      const page = nextPage++;
      pages[page] = (await readPage(page)).data;
      options.onProgress?.({ phase: 'list', done: ++pagesDone, total: totalPages });
    }
  };
  await Promise.allSettled(Array.from({ length: Math.min(concurrency, totalPages) }, lane));
  if (options.signal?.aborted) throw new PackCancelledError();
  if (firstFailure) throw firstFailure.error;
  return pages;
}

/**
 * The scope's name from the server: a customer's title, else its name (getCustomer). The API names no provider or
 * gateway group, and a customer that cannot be read leaves the pack unnamed rather than failing it.
 */
async function readScopeName(
  reader: PackReader,
  scope: PackScope,
  isFatal: (error: unknown) => boolean,
): Promise<string | undefined> {
  if (scope.kind !== 'customer') return undefined;
  try {
    const customer = (await reader.call('getCustomer', { params: { customerId: scope.id } })) as {
      title?: string | null;
      name?: string | null;
    };
    const name = (customer.title || customer.name || '').trim();
    return name === '' ? undefined : name.slice(0, 200);
  } catch (error) {
    if (isFatal(error)) throw error;
    return undefined;
  }
}

/**
 * The gateways whose details are read, at most MAX_DETAILED_GATEWAYS, in list order, and the visit list's entries
 * that named none of `gateways` (as typed).
 */
export function selectGateways(
  gateways: readonly Gateway[],
  selection: PackSelection,
): { chosen: Gateway[]; unresolved: string[] } {
  if (selection.kind !== 'entries') return { chosen: chooseGateways(gateways, selection), unresolved: [] };
  const { found, unresolved } = resolveVisitList(gateways, selection.entries);
  const wanted = new Set(found);
  return {
    chosen: gateways.filter((gateway) => wanted.has(gateway.id.id)).slice(0, MAX_DETAILED_GATEWAYS),
    unresolved,
  };
}

/**
 * Resolves a visit list's entries against a scope's gateways: each entry is a gateway id, a gateway name (any
 * case) or a whole MAC in any form (`aa:bb:…`, `AA-BB-…`, `aabb…`, `aabb.ccdd…`). An entry that names two gateways
 * (a name used twice) takes both. `found` holds gateway ids; `unresolved` the entries that named none, as typed.
 */
export function resolveVisitList(
  gateways: readonly Gateway[],
  entries: readonly string[],
): { found: string[]; unresolved: string[] } {
  const byId = new Map<string, string[]>();
  const byName = new Map<string, string[]>();
  const byMac = new Map<string, string[]>();
  const index = (map: Map<string, string[]>, key: string | null | undefined, id: string) => {
    if (!key) return;
    const ids = map.get(key);
    if (ids) ids.push(id);
    else map.set(key, [id]);
  };
  for (const gateway of gateways) {
    const id = gateway.id.id;
    index(byId, id, id);
    index(byName, gateway.name.trim().toLowerCase(), id);
    index(byMac, normalizeMac(gateway.gatewayMac), id);
  }
  const found = new Set<string>();
  const unresolved: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const ids =
      byId.get(entry) ?? byMac.get(normalizeMac(entry) ?? '') ?? byName.get(entry.toLowerCase()) ?? [];
    if (ids.length === 0) unresolved.push(entry);
    for (const id of ids) found.add(id);
  }
  return { found: [...found], unresolved };
}

/** The gateways whose details are read, at most MAX_DETAILED_GATEWAYS, in list order. */
export function chooseGateways(
  gateways: readonly Gateway[],
  selection: Exclude<PackSelection, { kind: 'entries' }>,
): Gateway[] {
  let chosen: Gateway[];
  switch (selection.kind) {
    case 'all':
      chosen = [...gateways];
      break;
    case 'search':
      chosen = new GatewaySearch(gateways.map((gateway) => ({ gateway, serials: [] }))).find(selection.text);
      break;
    case 'ids': {
      const wanted = new Set(selection.ids);
      chosen = gateways.filter((gateway) => wanted.has(gateway.id.id));
      break;
    }
  }
  return chosen.slice(0, MAX_DETAILED_GATEWAYS);
}
