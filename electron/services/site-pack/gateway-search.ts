import type { Gateway } from '../../shared/api/gateway';
import { GATEWAY_SORT_KEYS, type GatewaySortField } from '../../shared/api/gateway';

/** A gateway as the search sees it: its record and the serial numbers the pack read for it. */
export interface SearchableGateway {
  gateway: Gateway;
  serials: readonly string[];
}

interface IndexEntry {
  gateway: Gateway;
  name: string;
  id: string;
  /** The MAC as bare lower-case hex digits. */
  mac: string;
  serials: string;
}

/** A MAC or a part of one typed with `:` or `-` (or none) between the hex digits, in any case. */
const MAC_LIKE = /^[0-9a-f]{2}(?:[:-]?[0-9a-f]{1,2})*[:-]?$|^[0-9a-f]+$/;

/** The MAC text as bare lower-case hex digits (`AA:bb-0C` → `aabb0c`). */
export function normalizeMac(text: string): string {
  return text.toLowerCase().replace(/[^0-9a-f]/g, '');
}

/** A page of search results in the server's page shape. */
export interface SearchPage {
  data: Gateway[];
  totalPages: number;
  totalElements: number;
  hasNext: boolean;
}

/**
 * Finds gateways by a part of their name, id or serial number (any case), or of their MAC written with or without
 * `:`/`-` separators, in any case. Built once per pack; each search scans the prepared lower-case fields (10,000
 * gateways take a few milliseconds), so there is nothing to keep in step with the pack.
 */
export class GatewaySearch {
  private readonly entries: IndexEntry[];

  constructor(gateways: readonly SearchableGateway[]) {
    this.entries = gateways.map(({ gateway, serials }) => ({
      gateway,
      name: gateway.name.toLowerCase(),
      id: gateway.id.id.toLowerCase(),
      mac: normalizeMac(gateway.gatewayMac),
      serials: serials.join('\n').toLowerCase(),
    }));
  }

  /** How many gateways the index holds. */
  get size(): number {
    return this.entries.length;
  }

  /** Every gateway matching `text` (all of them for blank text), in pack order. */
  find(text: string): Gateway[] {
    const query = text.trim().toLowerCase();
    if (!query) return this.entries.map((entry) => entry.gateway);
    const mac = MAC_LIKE.test(query) ? normalizeMac(query) : '';
    const found: Gateway[] = [];
    for (const entry of this.entries) {
      if (
        entry.name.includes(query) ||
        entry.id.includes(query) ||
        (mac !== '' && entry.mac.includes(mac)) ||
        (entry.serials !== '' && entry.serials.includes(query))
      ) {
        found.push(entry.gateway);
      }
    }
    return found;
  }

  /** One page of the matches, sorted as the server's list would sort them. */
  page(request: {
    textSearch?: string | undefined;
    page: number;
    limit: number;
    sortField?: GatewaySortField | undefined;
    sortDirection: 'ASC' | 'DESC';
  }): SearchPage {
    const found = this.find(request.textSearch ?? '');
    const key = GATEWAY_SORT_KEYS[request.sortField ?? 'CREATED_TIME'];
    const direction = request.sortDirection === 'ASC' ? 1 : -1;
    found.sort((left, right) => direction * compareValues(left[key], right[key]));
    const start = request.page * request.limit;
    const data = found.slice(start, start + request.limit);
    const totalPages = Math.ceil(found.length / request.limit);
    return { data, totalPages, totalElements: found.length, hasNext: request.page + 1 < totalPages };
  }
}

function compareValues(left: unknown, right: unknown): number {
  if (left === right) return 0;
  if (left === undefined || left === null) return -1;
  if (right === undefined || right === null) return 1;
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : 1;
  return Number(left) < Number(right) ? -1 : 1;
}
