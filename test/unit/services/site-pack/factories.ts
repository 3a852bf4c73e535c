import type { Gateway } from '../../../../electron/shared/api/gateway';
import { SITE_PACK_VERSION, type SitePackFile } from '../../../../electron/services/site-pack';

/** A gateway record as the lists answer it; `index` makes name, id and MAC unique. */
export function buildGateway(index: number, overrides: Partial<Gateway> = {}): Gateway {
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

/** A pack of `count` gateways of customer-1, the first one with details. */
export function buildPack(count: number, overrides: Partial<SitePackFile> = {}): SitePackFile {
  const gateways = Array.from({ length: count }, (_, index) => buildGateway(index));
  return {
    version: SITE_PACK_VERSION,
    profileId: 'profile-1',
    preparedAt: 1_700_000_200_000,
    scope: { kind: 'customer', id: 'customer-1' },
    gateways,
    details: {
      'gw-0': {
        readAt: 1_700_000_200_000,
        sections: {
          info: { value: { custGatewayId: 'SN-7781', moduleSerialNumber: 'IMEI-35000' } },
          alarms: { value: { data: [{ eventName: 'WAN down', endTs: null }] } },
          apns: { error: 'The gateway has no modem.' },
        },
      },
    },
    rootPasswordStored: [],
    ...overrides,
  };
}
