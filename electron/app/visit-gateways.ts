import type { Gateway } from '../shared/api/gateway';
import { toGatewaySearchText } from '../shared/mac';
import type { SessionSummary } from '../shared/ipc/schemas';
import type { GatewayIdentity, VisitEntry } from '../shared/visit/journal-entry';
import { TimeoutError } from '../services/api';
import { SessionExpiredError } from '../services/session';
import { serialsOf, type SitePacks } from '../services/site-pack';
import {
  createGatewayResolver,
  matchKnownGateway,
  VisitRefusedError,
  type KnownGateway,
  type Visits,
} from '../services/visit';
import type { ServerSessionPort } from './server-session-port';
import { t, type MessageKey } from '../shared/i18n';
import type { Clock } from '../shared/clock';

/** How many gateways a server search answers for one typed text: an exact match is among the first. */
const SERVER_SEARCH_LIMIT = 20;
/**
 * How long an entry waits for the server to name its gateway before the site pack is asked instead: the action
 * is reported done only once its entry is recorded, and a server that went away must not hold up a terminal.
 */
const SERVER_LOOKUP_TIMEOUT_MS = 3000;
/** Pages of the user's gateway list read to find a gateway by its id, and their size (as the gateway page does). */
const ID_LOOKUP_PAGE_SIZE = 1000;
const ID_LOOKUP_MAX_PAGES = 20;

/** `promise`, or undefined once `timeoutMs` have passed on `clock`. */
function within<Value>(
  promise: Promise<Value>,
  timeoutMs: number,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
): Promise<Value | undefined> {
  let timer: unknown;
  const timeout = new Promise<undefined>((resolve) => {
    timer = clock.setTimeout(() => resolve(undefined), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clock.clearTimeout(timer));
}

/** What the app's gateway resolver reads: the session (if any), the profile selected, its pack and the visit. */
export interface VisitGatewayDependencies {
  sessions: { summary(): SessionSummary | null; requireSession(): Pick<ServerSessionPort, 'call'> };
  selectedProfileId(): string | undefined;
  sitePacks: Pick<SitePacks, 'get' | 'searchOf'>;
  visits: Pick<Visits, 'current' | 'entries' | 'append'>;
  /** The timer of the wait for the server to name a gateway (the app's Clock). */
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

/** How many gateways a search offers the technician to pick from. */
const PICK_LIMIT = 20;

/** What names an entry's gateway, in words for the pick-the-gateway dialog. */
const WHAT_NAMED: Partial<Record<VisitEntry['kind'], MessageKey>> = {
  triage: 'report:namedBySerialTriage',
  'terminal-opened': 'report:namedByTerminalSession',
  'log-attached': 'report:namedBySessionLog',
  note: 'report:namedByNote',
  'photo-attached': 'report:namedByPhoto',
  measurement: 'report:namedByMeasurement',
};

/** A gateway as the technician picks it. */
export interface GatewayChoice {
  gatewayId: string;
  name: string;
  mac: string;
}

function known(gateway: Gateway, serials: readonly string[] = []): KnownGateway {
  return { id: gateway.id.id, name: gateway.name, mac: gateway.gatewayMac, serials };
}

/** Text folded for comparing what was typed: letter case and spacing aside. */
function fold(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The technician's latest choice (a `gateway-identified` entry of the open visit) for a gateway typed as `typed`.
 */
function chosenGateway(
  visits: Pick<Visits, 'current' | 'entries'>,
  typed: string,
): GatewayIdentity | undefined {
  const open = visits.current();
  if (!open) return undefined;
  let chosen: GatewayIdentity | undefined;
  for (const { entry } of visits.entries(open.id)) {
    const identified = entry as VisitEntry;
    if (identified.kind === 'gateway-identified' && fold(identified.typed) === fold(typed))
      chosen = identified.gateway;
  }
  return chosen;
}

/**
 * The gateways of the visit as the app knows them: the one resolver every visit hook uses (the technician's earlier
 * choice, else the server — when signed in, the user's customer's or provider's gateways searched by the text —
 * else the selected profile's site pack, else what was typed), the search the technician picks a gateway from,
 * the texts still to pick a gateway for, and the pick itself (a `gateway-identified` entry, kept for the visit).
 */
export function createVisitGateways(dependencies: VisitGatewayDependencies) {
  const { sessions, sitePacks, visits, clock } = dependencies;
  const fromServer = async (text: string, limit: number): Promise<KnownGateway[] | undefined> => {
    const summary = sessions.summary();
    if (!summary || summary.state === 'expired') return undefined;
    const query = { page: 0, limit, sortDirection: 'ASC' as const, textSearch: toGatewaySearchText(text) };
    const session = sessions.requireSession();
    const page = summary.customerId
      ? session.call('listCustomerGateways', { params: { customerId: summary.customerId }, query })
      : summary.providerId
        ? session.call('listProviderGateways', { params: { providerId: summary.providerId }, query })
        : undefined;
    return (await within(page ?? Promise.resolve(undefined), SERVER_LOOKUP_TIMEOUT_MS, clock))?.data.map(
      (gateway) => known(gateway),
    );
  };
  /**
   * The gateway of the user's list with this id (the server's search looks at names and MACs only): the list read
   * page by page, at most ID_LOOKUP_MAX_PAGES pages, within the lookup's time.
   */
  const serverGatewayWithId = async (gatewayId: string): Promise<KnownGateway | undefined> => {
    const summary = sessions.summary();
    if (!summary || summary.state === 'expired') return undefined;
    const session = sessions.requireSession();
    const pageOf = (page: number) => {
      const query = { page, limit: ID_LOOKUP_PAGE_SIZE, sortDirection: 'ASC' as const };
      return summary.customerId
        ? session.call('listCustomerGateways', { params: { customerId: summary.customerId }, query })
        : summary.providerId
          ? session.call('listProviderGateways', { params: { providerId: summary.providerId }, query })
          : Promise.resolve(undefined);
    };
    const lookUp = async () => {
      for (let page = 0; page < ID_LOOKUP_MAX_PAGES; page++) {
        const answer = await pageOf(page);
        const found = answer?.data.find((gateway) => gateway.id.id === gatewayId);
        if (found) return known(found);
        if (!answer?.hasNext) return undefined;
      }
      return undefined;
    };
    return within(lookUp(), SERVER_LOOKUP_TIMEOUT_MS, clock);
  };
  const storedPack = async () => {
    const profileId = sessions.summary()?.profileId ?? dependencies.selectedProfileId();
    return profileId ? sitePacks.get(profileId) : null;
  };
  const resolve = createGatewayResolver({
    chosen: (typed) => chosenGateway(visits, typed),
    server: async (text) => {
      const byText = await fromServer(text, SERVER_SEARCH_LIMIT);
      if (byText === undefined || matchKnownGateway(text, byText)) return byText;
      const byId = await serverGatewayWithId(text.trim());
      return byId ? [...byText, byId] : byText;
    },
    pack: async () => {
      const stored = await storedPack();
      if (!stored) return undefined;
      const { pack } = stored;
      return pack.gateways.map((gateway) => known(gateway, serialsOf(pack.details[gateway.id.id])));
    },
  });
  /**
   * Up to PICK_LIMIT gateways a part of whose name, MAC, serial or id is `text`: the server's, else the pack's.
   * Signed in, with no pack to fall back on, a server that failed or did not answer in time is a failure (the
   * pick's search says so and tries again), never an empty answer that would read "No gateway matches".
   */
  const search = async (text: string): Promise<GatewayChoice[]> => {
    let failure: unknown;
    let found = await fromServer(text, PICK_LIMIT).catch((error: unknown) => {
      failure = error;
      return undefined;
    });
    const summary = sessions.summary();
    if (!found && failure === undefined && summary && (summary.customerId || summary.providerId))
      failure =
        summary.state === 'expired'
          ? new SessionExpiredError()
          : new TimeoutError(
              summary.customerId ? 'listCustomerGateways' : 'listProviderGateways',
              SERVER_LOOKUP_TIMEOUT_MS,
            );
    if (!found) {
      const stored = await storedPack();
      if (!stored && failure !== undefined) throw failure;
      found = stored
        ? sitePacks
            .searchOf(stored.pack)
            .find(text)
            .slice(0, PICK_LIMIT)
            .map((gateway) => known(gateway))
        : [];
    }
    return found.map(({ id, name, mac }) => ({ gatewayId: id, name, mac }));
  };
  return {
    resolve,
    search,
    /** The texts the open visit names a gateway by only as typed, not picked yet, each with what named it. */
    unidentified(): Array<{ typed: string; what: string }> {
      const open = visits.current();
      if (!open) return [];
      const waiting = new Map<string, { typed: string; what: string }>();
      // A text some entry resolved to a gateway (or the technician picked one for) names that gateway.
      const named = new Set<string>();
      for (const { entry } of visits.entries(open.id)) {
        const recorded = entry as VisitEntry;
        if (recorded.kind === 'gateway-identified') {
          named.add(fold(recorded.typed));
          continue;
        }
        const gateway = 'gateway' in recorded ? recorded.gateway : undefined;
        const what = WHAT_NAMED[recorded.kind];
        if (!gateway?.typed) continue;
        if (gateway.gatewayId) named.add(fold(gateway.typed));
        else if (what && !waiting.has(fold(gateway.typed)))
          waiting.set(fold(gateway.typed), { typed: gateway.typed, what: t(what) });
      }
      return [...waiting.values()].filter((item) => !named.has(fold(item.typed)));
    },
    /**
     * Records that `typed` named the gateway the technician picked (found again by the search, so only a gateway
     * of the server or the pack can be picked); rejects with VisitRefusedError for one neither knows.
     */
    async identify(input: { typed: string; gatewayId: string; name: string }) {
      const found =
        (await search(input.name)).find((gateway) => gateway.gatewayId === input.gatewayId) ??
        (await search(input.gatewayId)).find((gateway) => gateway.gatewayId === input.gatewayId);
      if (!found) throw new VisitRefusedError(t('errors:gatewayGone', { name: input.name }));
      await visits.append({ kind: 'gateway-identified', typed: input.typed.trim(), gateway: found });
      return { typed: input.typed.trim(), gateway: found };
    },
  };
}

/** The gateways of the visit as the app knows them (createVisitGateways). */
export type VisitGateways = ReturnType<typeof createVisitGateways>;
