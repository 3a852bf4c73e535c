import type { Gateway } from '../../../../electron/shared/api/gateway';
import type { IpcClient } from '../../lib/ipc';
import type { SessionSummary } from '../../lib/wire-types';
import { GATEWAY_DIRECTORY } from './gateway-list.svelte';
import { readThroughCache, userGatewaysRequest } from './gateway-reads';

/** Gateways read per page while looking one up by id (the server has no read of one gateway by id). */
const LOOKUP_PAGE_SIZE = 1000;
/** Pages read at most while looking one up: bounds the scan of a very large fleet. */
const LOOKUP_MAX_PAGES = 20;

/** A gateway's record as just read: `asOf` is null when the server answered, else when the copy shown was kept. */
export interface GatewayRead {
  gateway: Gateway;
  asOf: number | null;
}

/**
 * Reads the gateway's record now (its status and last-seen time): by its MAC when a list showed it, else page by
 * page through the signed-in user's gateways. Null when it cannot be read or found: its status is then unknown.
 */
export async function readGatewayNow(
  client: IpcClient,
  summary: Pick<SessionSummary, 'role' | 'providerId' | 'customerId'> | null,
  gatewayId: string,
): Promise<GatewayRead | null> {
  const known = GATEWAY_DIRECTORY.get(gatewayId);
  const pages = known ? 1 : LOOKUP_MAX_PAGES;
  for (let page = 0; page < pages; page++) {
    const query: Record<string, unknown> = {
      page,
      limit: known ? 20 : LOOKUP_PAGE_SIZE,
      sortField: 'CREATED_TIME',
      sortDirection: 'ASC',
    };
    if (known) query.textSearch = known.gatewayMac;
    const request = userGatewaysRequest(summary, query);
    if (!request) return null;
    const outcome = await readThroughCache(client, request);
    if (!outcome.ok) return null;
    const found = outcome.value.data.find((candidate) => candidate.id.id === gatewayId);
    if (found) {
      GATEWAY_DIRECTORY.set(gatewayId, found);
      return { gateway: found, asOf: outcome.asOf };
    }
    if (!outcome.value.hasNext) break;
  }
  return null;
}

/**
 * The gateway with this id, from any list already shown, else by reading the signed-in user's gateways page by
 * page (live or from the offline cache). Null when it cannot be found or read: callers then show the id alone.
 */
export async function lookUpGateway(
  client: IpcClient,
  summary: Pick<SessionSummary, 'role' | 'providerId' | 'customerId'> | null,
  gatewayId: string,
): Promise<Gateway | null> {
  const known = GATEWAY_DIRECTORY.get(gatewayId);
  if (known) return known;
  for (let page = 0; page < LOOKUP_MAX_PAGES; page++) {
    const request = userGatewaysRequest(summary, {
      page,
      limit: LOOKUP_PAGE_SIZE,
      sortField: 'CREATED_TIME',
      sortDirection: 'ASC',
    });
    if (!request) return null;
    const outcome = await readThroughCache(client, request);
    if (!outcome.ok) return null;
    for (const gateway of outcome.value.data) GATEWAY_DIRECTORY.set(gateway.id.id, gateway);
    const found = GATEWAY_DIRECTORY.get(gatewayId);
    if (found) return found;
    if (!outcome.value.hasNext) break;
  }
  return null;
}
