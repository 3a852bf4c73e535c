import type { Gateway } from '../shared/api/gateway';
import { toGatewaySearchText } from '../shared/mac';
import type { SessionSummary } from '../shared/ipc/schemas';
import type { GatewayIdentity, VisitEntry } from '../shared/visit/journal-entry';
import { serialsOf, type SitePacks } from '../services/site-pack';
import { createGatewayResolver, type GatewayHint, type KnownGateway, type Visits } from '../services/visit';
import type { SessionPort } from './session-port';

/** How many gateways a server search answers for one typed text: an exact match is among the first. */
const SERVER_SEARCH_LIMIT = 20;
/**
 * How long an entry waits for the server to name its gateway before the site pack is asked instead: the action
 * is reported done only once its entry is recorded, and a server that went away must not hold up a terminal.
 */
const SERVER_LOOKUP_TIMEOUT_MS = 3000;

/** `promise`, or undefined once `timeoutMs` have passed. */
function within<Value>(promise: Promise<Value>, timeoutMs: number): Promise<Value | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What the app's gateway resolver reads: the session (if any), the profile selected, its pack and the visit. */
export interface VisitGatewayDependencies {
  sessions: { summary(): SessionSummary | null; requireSession(): Pick<SessionPort, 'call'> };
  selectedProfileId(): string | undefined;
  sitePacks: Pick<SitePacks, 'get'>;
  visits: Pick<Visits, 'current' | 'entries'>;
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
export function chosenGateway(
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
 * The one gateway resolver every visit hook uses: the technician's earlier choice, else the server (when signed
 * in: the user's customer's or provider's gateways searched by the text), else the selected profile's site pack,
 * else what was typed.
 */
export function createVisitGatewayResolver(
  dependencies: VisitGatewayDependencies,
): (hint: GatewayHint) => Promise<GatewayIdentity | undefined> {
  const { sessions, sitePacks, visits } = dependencies;
  return createGatewayResolver({
    chosen: (typed) => chosenGateway(visits, typed),
    server: async (text) => {
      const summary = sessions.summary();
      if (!summary || summary.state === 'expired') return undefined;
      const query = {
        page: 0,
        limit: SERVER_SEARCH_LIMIT,
        sortDirection: 'ASC' as const,
        textSearch: toGatewaySearchText(text),
      };
      const session = sessions.requireSession();
      const page = summary.customerId
        ? session.call('listCustomerGateways', { params: { customerId: summary.customerId }, query })
        : summary.providerId
          ? session.call('listProviderGateways', { params: { providerId: summary.providerId }, query })
          : undefined;
      return (await within(page ?? Promise.resolve(undefined), SERVER_LOOKUP_TIMEOUT_MS))?.data.map(
        (gateway) => known(gateway),
      );
    },
    pack: async () => {
      const profileId = sessions.summary()?.profileId ?? dependencies.selectedProfileId();
      if (!profileId) return undefined;
      const stored = await sitePacks.get(profileId);
      if (!stored) return undefined;
      const { pack } = stored;
      return pack.gateways.map((gateway) => known(gateway, serialsOf(pack.details[gateway.id.id])));
    },
  });
}
