import { describe, expect, it } from 'vitest';
import { GatewaySearch, normalizeMac } from '../../../../electron/services/site-pack';
import { makeGateway } from '../../../helpers/factories';

function buildSearch(count: number) {
  return new GatewaySearch(
    Array.from({ length: count }, (_, index) => ({ gateway: makeGateway(index), serials: [] })),
  );
}

const idsOf = (found: Array<{ id: { id: string } }>) => found.map((gateway) => gateway.id.id);

describe('GatewaySearch', () => {
  const search = buildSearch(300);
  const mac = makeGateway(257).gatewayMac; // 00:80:00:00:01:01

  it('finds a gateway by its MAC with colons, dashes or none, in any case', () => {
    for (const typed of [mac, mac.toLowerCase(), mac.replace(/:/g, '-'), mac.replace(/:/g, '')]) {
      expect(idsOf(search.find(typed))).toEqual(['gw-257']);
    }
  });

  it('finds gateways by a part of the MAC typed with separators', () => {
    expect(idsOf(search.find('00:01:0'))).toContain('gw-257');
  });

  it('finds by a part of the name, in any case', () => {
    expect(idsOf(search.find('GATEWAY 123'))).toEqual(['gw-123']);
  });

  it('finds by the gateway id', () => {
    expect(idsOf(search.find('gw-123'))).toEqual(['gw-123']);
  });

  it('finds by a serial number its details name', () => {
    const withSerial = new GatewaySearch([
      { gateway: makeGateway(1), serials: ['SN-0042-XY'] },
      { gateway: makeGateway(2), serials: [] },
    ]);
    expect(idsOf(withSerial.find('sn-0042'))).toEqual(['gw-1']);
  });

  it('answers every gateway for a blank search', () => {
    expect(search.find('  ')).toHaveLength(300);
  });

  it('finds nothing for text no name, id, MAC or serial holds', () => {
    expect(idsOf(search.find('rooftop'))).toEqual([]);
  });

  it('pages and sorts as the server does', () => {
    const page = search.page({ page: 1, limit: 100, sortField: 'NAME', sortDirection: 'DESC' });
    expect(page.totalElements).toBe(300);
    expect(page.totalPages).toBe(3);
    expect(page.hasNext).toBe(true);
    expect(page.data).toHaveLength(100);
    const names = page.data.map((gateway) => gateway.name);
    expect([...names].sort().reverse()).toEqual(names);
  });

  it('normalises a MAC to bare lower-case hex', () => {
    expect(normalizeMac('AA:bb-0C')).toBe('aabb0c');
  });
});
