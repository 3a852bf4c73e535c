import type { Gateway, GatewaySortField } from '../../shared/api/gateway';
import { GatewaySearch, type SearchPage } from './gateway-search';
import { serialsOf } from './site-pack-builder';
import type { PackGatewayDetails, PackScope, SitePackFile } from '../../shared/site-pack-file';
import type { Notice } from '../../shared/ipc/schemas';
import { SitePackStore, type StoredPack } from './site-pack-store';
import type { Clock } from '../../shared/clock';

/** A read as `api:call` and `cache:get` name it. */
export interface PackReadParts {
  endpoint: string;
  params?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
}

/** What the pack says about one gateway: its list record, its details when it was chosen, and when. */
export interface PackGateway {
  asOf: number;
  gateway: Gateway;
  details: PackGatewayDetails | null;
  hasRootPassword: boolean;
}

const LIST_SCOPES: Record<string, { kind: PackScope['kind']; param: string }> = {
  listProviderGateways: { kind: 'provider', param: 'providerId' },
  listCustomerGateways: { kind: 'customer', param: 'customerId' },
  listGatewayGroupGateways: { kind: 'group', param: 'gatewayGroupId' },
};

/** True when a gateway belongs to a scope, as far as its record says. */
function isInScope(gateway: Gateway, scope: PackScope): boolean {
  switch (scope.kind) {
    case 'provider':
      return gateway.providerId?.id === undefined || gateway.providerId.id === scope.id;
    case 'customer':
      return gateway.customerId?.id === scope.id;
    case 'group':
      return gateway.gatewayGroupId?.id === scope.id;
  }
}

/**
 * The site packs of every profile, read through a SitePackStore, and what they answer offline: pages of a gateway
 * list (searched by name, MAC, serial or id), a gateway's raised alarms and recent events, and a gateway's whole
 * record. The search index of a pack is built once and reused until the pack changes.
 */
export class SitePacks {
  readonly store: SitePackStore;
  private readonly indexes = new WeakMap<SitePackFile, Map<string, GatewaySearch>>();

  private readonly onNotice: (notice: Notice) => void;

  /** `onNotice` hears once of a pack file set aside (corrupt, or from another version). */
  constructor(options: { dataDir: string; clock?: Pick<Clock, 'now'>; onNotice?: (notice: Notice) => void }) {
    this.store = new SitePackStore(options);
    this.onNotice = options.onNotice ?? (() => undefined);
  }

  /** A profile's pack, or null (a file set aside is told to `onNotice`). */
  async get(profileId: string): Promise<StoredPack | null> {
    const outcome = await this.store.read(profileId);
    if (outcome.kind === 'set-aside') this.onNotice(outcome.notice);
    return outcome.kind === 'pack' ? outcome.stored : null;
  }

  /** Stores a freshly prepared pack. */
  save(pack: SitePackFile): Promise<StoredPack> {
    return this.store.save(pack);
  }

  /** The search over the gateways of `scope` in a pack (the pack's own scope, or one narrower inside it). */
  searchOf(pack: SitePackFile, scope: PackScope = pack.scope): GatewaySearch {
    let byScope = this.indexes.get(pack);
    if (!byScope) {
      byScope = new Map();
      this.indexes.set(pack, byScope);
    }
    const key = `${scope.kind}:${scope.id}`;
    let search = byScope.get(key);
    if (!search) {
      const isWhole = scope.kind === pack.scope.kind && scope.id === pack.scope.id;
      search = new GatewaySearch(
        pack.gateways
          .filter((gateway) => isWhole || isInScope(gateway, scope))
          .map((gateway) => ({ gateway, serials: serialsOf(pack.details[gateway.id.id]) })),
      );
      byScope.set(key, search);
    }
    return search;
  }

  /**
   * The answer the pack gives to a read, or null when it cannot give one: a gateway list of the pack's scope (or
   * of a customer or group inside a provider's pack, a group inside a customer's), paged, sorted and searched as
   * the server would; or a chosen gateway's raised alarms or recent events.
   */
  async answer(profileId: string, parts: PackReadParts): Promise<{ value: unknown; asOf: number } | null> {
    const stored = await this.get(profileId);
    if (!stored) return null;
    const { pack } = stored;
    const listScope = LIST_SCOPES[parts.endpoint];
    if (listScope) {
      const id = parts.params?.[listScope.param];
      if (typeof id !== 'string') return null;
      const scope: PackScope = { kind: listScope.kind, id };
      if (!covers(pack.scope, scope)) return null;
      const query = parts.query ?? {};
      const value: SearchPage = this.searchOf(pack, scope).page({
        page: typeof query.page === 'number' ? query.page : 0,
        limit: typeof query.limit === 'number' && query.limit > 0 ? query.limit : 100,
        sortField: typeof query.sortField === 'string' ? (query.sortField as GatewaySortField) : undefined,
        sortDirection: query.sortDirection === 'ASC' ? 'ASC' : 'DESC',
        textSearch: typeof query.textSearch === 'string' ? query.textSearch : undefined,
      });
      return { value, asOf: pack.preparedAt };
    }
    if (parts.endpoint === 'listEntityEnhancedEvents' && parts.params?.entityType === 'GATEWAY') {
      const details = pack.details[String(parts.params.entityId)];
      const section =
        parts.params.eventType === 'Alarms'
          ? details?.sections.alarms
          : parts.params.eventType === 'Events'
            ? details?.sections.events
            : undefined;
      if (!details || !section || !('value' in section)) return null;
      return { value: section.value, asOf: details.readAt };
    }
    return null;
  }

  /** What the pack holds about one gateway, or null when it is not in the pack. */
  async gateway(profileId: string, gatewayId: string): Promise<PackGateway | null> {
    const stored = await this.get(profileId);
    if (!stored) return null;
    const { pack } = stored;
    const gateway = pack.gateways.find((candidate) => candidate.id.id === gatewayId);
    if (!gateway) return null;
    const details = pack.details[gatewayId] ?? null;
    return {
      asOf: details?.readAt ?? pack.preparedAt,
      gateway,
      details,
      hasRootPassword: pack.rootPasswordStored.includes(gatewayId),
    };
  }
}

/** True when a pack made for `outer` holds every gateway of `inner`. */
function covers(outer: PackScope, inner: PackScope): boolean {
  if (outer.kind === inner.kind) return outer.id === inner.id;
  if (outer.kind === 'provider') return true;
  return outer.kind === 'customer' && inner.kind === 'group';
}
