import { SITE_PACK_VERSION, type SitePackFile } from '../../../../electron/services/site-pack';
import { makeGateway } from '../../../helpers/factories';

/** A pack of `count` gateways of customer-1, the first one with details. */
export function buildPack(count: number, overrides: Partial<SitePackFile> = {}): SitePackFile {
  const gateways = Array.from({ length: count }, (_, index) => makeGateway(index));
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
