import { describe, expect, it } from 'vitest';
import { resolveVisitList, selectGateways } from '../../../../electron/services/site-pack/site-pack-builder';
import { makeGateway } from '../../../helpers/factories';

const gateways = [
  makeGateway(1, { name: 'North Pump 1', gatewayMac: '647FDAFFFE001CAD' }),
  makeGateway(2, { name: 'North Pump 2', gatewayMac: '647FDAFFFE001CAE' }),
  makeGateway(3, { name: 'Reservoir', gatewayMac: '00800000ABCD' }),
];

describe('resolveVisitList', () => {
  it('finds gateways by a MAC in any form', () => {
    const entries = ['64:7f:da:ff:fe:00:1c:ad', '64-7F-DA-FF-FE-00-1C-AE', '00800000abcd'];
    expect(resolveVisitList(gateways, entries)).toEqual({ found: ['gw-1', 'gw-2', 'gw-3'], unresolved: [] });
  });

  it('finds gateways by whole name in any case, and by id', () => {
    expect(resolveVisitList(gateways, ['  north pump 2 ', 'gw-3'])).toEqual({
      found: ['gw-2', 'gw-3'],
      unresolved: [],
    });
  });

  it('names what it could not resolve, as typed, and never matches part of a name or MAC', () => {
    expect(resolveVisitList(gateways, ['North Pump', '647FDAFFFE', 'gw-9'])).toEqual({
      found: [],
      unresolved: ['North Pump', '647FDAFFFE', 'gw-9'],
    });
  });

  it('takes every gateway a name used twice names', () => {
    const twins = [...gateways, makeGateway(4, { name: 'Reservoir' })];
    expect(resolveVisitList(twins, ['reservoir']).found).toEqual(['gw-3', 'gw-4']);
  });
});

describe('selectGateways', () => {
  it('chooses the visit list in list order and keeps the entries it could not resolve', () => {
    const { chosen, unresolved } = selectGateways(gateways, {
      kind: 'entries',
      entries: ['reservoir', '64:7F:DA:FF:FE:00:1C:AD', 'nowhere'],
    });
    expect(chosen.map((gateway) => gateway.id.id)).toEqual(['gw-1', 'gw-3']);
    expect(unresolved).toEqual(['nowhere']);
  });
});
