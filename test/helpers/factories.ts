import type { Gateway } from '../../electron/shared/api/gateway';

/**
 * A gateway record as the API's lists answer it, every field filled; `index` makes its id (`gw-<index>`), name
 * and MAC unique. Tests state only the fields they are about, through `overrides`.
 */
export function makeGateway(index = 0, overrides: Partial<Gateway> = {}): Gateway {
  const hex = index.toString(16).padStart(6, '0');
  return {
    id: { id: `gw-${index}`, entityType: 'GATEWAY' },
    createdTime: 1_700_000_000_000 + index,
    name: `Gateway ${index}`,
    gatewayMac: `00:80:00:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`.toUpperCase(),
    gatewayModelName: 'iBTS',
    status: 'ONLINE',
    customerId: { id: 'customer-1', entityType: 'CUSTOMER' },
    bspVersion: '5.1.0',
    lastSeenTime: 1_700_000_100_000,
    ...overrides,
  };
}
