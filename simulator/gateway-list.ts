import { GATEWAY_SORT_FIELDS, type GatewaySortField } from '../electron/shared/api/gateway';
import type { GatewayFleet } from './gateways/fleet';
import type { GatewayEntity, Tenant } from './tenant';

/** The gateway-list query after defaults: page from 0, limit ≥ 1, a direction, an optional sort field. */
export interface GatewayPageRequest {
  limit: number;
  page: number;
  sortDirection: 'ASC' | 'DESC';
  sortField?: GatewaySortField | undefined;
  textSearch?: string | undefined;
}

/** A page in ThingsBoard's shape. */
export interface PageOf<Item> {
  data: Item[];
  totalPages: number;
  totalElements: number;
  hasNext: boolean;
}

type StaticSortField = Exclude<GatewaySortField, 'STATUS'>;

const SORT_VALUE: Record<StaticSortField, (gateway: GatewayEntity) => string | number> = {
  CREATED_TIME: (gateway) => gateway.createdTime,
  NAME: (gateway) => gateway.name,
  GATEWAY_MAC: (gateway) => gateway.gatewayMac,
  GATEWAY_MODEL_NAME: (gateway) => gateway.gatewayModelName,
  IS_PUBLIC: (gateway) => Number(gateway.isPublic),
  IS_LOGGING_ENABLED: (gateway) => Number(gateway.isLoggingEnabled),
  IS_UDP_ALLOWED: (gateway) => Number(gateway.isUdpAllowed),
  IS_NOT_MQTTS_ALLOWED: (gateway) => Number(gateway.isNotMqttsAllowed),
};

/** Cuts one page out of an ordered list. */
export function pageOf<Item>(items: readonly Item[], page: number, limit: number): PageOf<Item> {
  const start = page * limit;
  return {
    data: items.slice(start, start + limit),
    totalPages: Math.ceil(items.length / limit),
    totalElements: items.length,
    hasNext: start + limit < items.length,
  };
}

/**
 * Pages of gateways in any of the nine sort orders. The orders of the fixed fields are computed once (ascending,
 * ties broken by createdTime then position) and filtered per scope; STATUS, which changes with time, is a stable
 * partition of the creation order at request time. Without a sort field the order is CREATED_TIME: newest first
 * by default.
 */
export class GatewayLists {
  private readonly orders = new Map<StaticSortField, GatewayEntity[]>();
  private readonly scoped = new Map<string, GatewayEntity[]>();

  constructor(
    private readonly tenant: Tenant,
    private readonly fleet: GatewayFleet,
  ) {}

  /** One page of the gateways that `belongs` admits; `scopeKey` names that set for caching. */
  page(
    scopeKey: string,
    belongs: (gateway: GatewayEntity) => boolean,
    request: GatewayPageRequest,
  ): PageOf<GatewayEntity> {
    const sortField = request.sortField ?? 'CREATED_TIME';
    let ordered =
      sortField === 'STATUS'
        ? this.byStatus(scopeKey, belongs)
        : this.scopedOrder(scopeKey, sortField, belongs);
    const search = request.textSearch?.trim().toLowerCase();
    if (search) {
      ordered = ordered.filter(
        (gateway) =>
          gateway.name.toLowerCase().includes(search) || gateway.gatewayMac.toLowerCase().includes(search),
      );
    }
    const start = request.page * request.limit;
    const total = ordered.length;
    const data: GatewayEntity[] = [];
    for (let offset = start; offset < Math.min(total, start + request.limit); offset++) {
      const position = request.sortDirection === 'ASC' ? offset : total - 1 - offset;
      data.push(ordered[position] as GatewayEntity);
    }
    return {
      data,
      totalPages: Math.ceil(total / request.limit),
      totalElements: total,
      hasNext: start + request.limit < total,
    };
  }

  private scopedOrder(
    scopeKey: string,
    sortField: StaticSortField,
    belongs: (gateway: GatewayEntity) => boolean,
  ) {
    const key = `${scopeKey}|${sortField}`;
    let list = this.scoped.get(key);
    if (!list) {
      list = this.globalOrder(sortField).filter(belongs);
      // Bounded: a scope key per customer, group and provider, times nine fields.
      if (this.scoped.size > 5_000) this.scoped.clear();
      this.scoped.set(key, list);
    }
    return list;
  }

  private byStatus(scopeKey: string, belongs: (gateway: GatewayEntity) => boolean): GatewayEntity[] {
    const byCreation = this.scopedOrder(scopeKey, 'CREATED_TIME', belongs);
    const online: GatewayEntity[] = [];
    const offline: GatewayEntity[] = [];
    for (const gateway of byCreation)
      (this.fleet.statusOf(gateway) === 'OFFLINE' ? offline : online).push(gateway);
    return [...offline, ...online];
  }

  private globalOrder(sortField: StaticSortField): GatewayEntity[] {
    let order = this.orders.get(sortField);
    if (!order) {
      const valueOf = SORT_VALUE[sortField];
      order = [...this.tenant.gateways].sort((left, right) => {
        const a = valueOf(left);
        const b = valueOf(right);
        if (a < b) return -1;
        if (a > b) return 1;
        return left.createdTime - right.createdTime || left.index - right.index;
      });
      this.orders.set(sortField, order);
    }
    return order;
  }

  /** Computes every fixed sort order now, so the first requests do not pay for it. */
  precompute(): void {
    for (const field of GATEWAY_SORT_FIELDS) if (field !== 'STATUS') this.globalOrder(field);
  }
}
