import type { EndpointRequest, EndpointResponse, Gateway } from '../../shared/api';
import { iteratePages } from '../api';
import type { FleetTarget } from './fleet-table';

/** Gateways fetched per page when a group is expanded. */
export const GROUP_PAGE_SIZE = 500;

/** What listing a group needs of a session. `Session` satisfies it. */
export interface GatewayGroupLister {
  call(
    name: 'listGatewayGroupGateways',
    request: EndpointRequest<'listGatewayGroupGateways'>,
    options?: { signal?: AbortSignal },
  ): Promise<EndpointResponse<'listGatewayGroupGateways'>>;
}

/** A gateway record as a fleet target (status kept so offline gateways are skipped without sending). */
export function targetOf(gateway: Gateway): FleetTarget {
  const status = gateway.status === 'OFFLINE' || gateway.status === 'ONLINE' ? gateway.status : undefined;
  return { gatewayId: gateway.id.id, name: gateway.name, ...(status ? { status } : {}) };
}

/**
 * Every gateway of a gateway group, through the paging helpers, as fleet targets. Bounded by the paging caps
 * (a list past them throws ListRefusedError, none of it kept); once `signal` fires the request under way is
 * cancelled and no other is sent (RequestAbortedError).
 */
export async function listGroupTargets(
  lister: GatewayGroupLister,
  gatewayGroupId: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<FleetTarget[]> {
  const { signal } = options;
  const targets: FleetTarget[] = [];
  const pages = iteratePages(
    (page) =>
      lister.call(
        'listGatewayGroupGateways',
        {
          params: { gatewayGroupId },
          query: { page, limit: GROUP_PAGE_SIZE, sortField: 'CREATED_TIME', sortDirection: 'ASC' },
        },
        signal ? { signal } : {},
      ),
    { endpoint: 'listGatewayGroupGateways', pageSize: GROUP_PAGE_SIZE, signal },
  );
  // Each page becomes targets as it arrives: the whole gateway records are never all held at once.
  for await (const page of pages) for (const gateway of page.data) targets.push(targetOf(gateway));
  return targets;
}
