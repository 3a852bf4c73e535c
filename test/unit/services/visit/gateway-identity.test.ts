import { describe, expect, it } from 'vitest';
import {
  createGatewayResolver,
  matchKnownGateway,
  type KnownGateway,
} from '../../../../electron/services/visit';

const PACKED: KnownGateway[] = [
  { id: 'gw-13', name: 'acme-gw-0013', mac: '647FDAFFFE001CAD', serials: ['SN-7781'] },
  { id: 'gw-14', name: 'acme-gw-0014', mac: '647FDAFFFE001CAE' },
  { id: 'gw-15', name: 'Roof  North', mac: '0080000000000F' },
];

describe('matchKnownGateway', () => {
  it.each([
    ['its id', 'gw-13'],
    ['its name in another case', 'ACME-GW-0013'],
    ['its MAC with colons in lower case', '64:7f:da:ff:fe:00:1c:ad'],
    ['its MAC with hyphens', '64-7F-DA-FF-FE-00-1C-AD'],
    ['its MAC without separators', '647fdafffe001cad'],
    ['its serial number', 'sn-7781'],
  ])('finds a gateway by %s', (_, typed) => {
    expect(matchKnownGateway(typed, PACKED)?.id).toBe('gw-13');
  });

  it('compares names with letter case and runs of spacing aside', () => {
    expect(matchKnownGateway(' roof north ', PACKED)?.id).toBe('gw-15');
  });

  it('finds nothing for a part of a name or of a MAC', () => {
    expect(matchKnownGateway('acme-gw-001', PACKED)).toBeUndefined();
    expect(matchKnownGateway('1c:ad', PACKED)).toBeUndefined();
  });

  it('finds nothing when two gateways answer to the text', () => {
    const twins = [...PACKED, { id: 'gw-99', name: 'acme-gw-0013', mac: '00' }];
    expect(matchKnownGateway('acme-gw-0013', twins)).toBeUndefined();
  });
});

describe('createGatewayResolver', () => {
  it('names a typed gateway by the server when it knows it, keeping what was typed', async () => {
    const resolve = createGatewayResolver({
      server: async () => [{ id: 'server-13', name: 'acme-gw-0013', mac: '647FDAFFFE001CAD' }],
      pack: async () => PACKED,
    });
    expect(await resolve({ typed: 'acme-gw-0013' })).toEqual({
      gatewayId: 'server-13',
      name: 'acme-gw-0013',
      mac: '647FDAFFFE001CAD',
      typed: 'acme-gw-0013',
    });
  });

  it('asks the site pack when the server cannot be asked or fails', async () => {
    const offline = createGatewayResolver({ server: async () => undefined, pack: async () => PACKED });
    const failing = createGatewayResolver({
      server: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')),
      pack: async () => PACKED,
    });
    for (const resolve of [offline, failing])
      expect(await resolve({ typed: '64:7f:da:ff:fe:00:1c:ae' })).toMatchObject({
        gatewayId: 'gw-14',
        name: 'acme-gw-0014',
      });
  });

  it('keeps the technician’s choice for a text over the server and the pack', async () => {
    const resolve = createGatewayResolver({
      chosen: (typed) => (typed === 'shed' ? { gatewayId: 'gw-15', name: 'Roof  North' } : undefined),
      pack: async () => PACKED,
    });
    expect(await resolve({ typed: 'shed' })).toEqual({
      gatewayId: 'gw-15',
      name: 'Roof  North',
      typed: 'shed',
    });
  });

  it('keeps what was typed when nothing knows the gateway, and names nothing for nothing typed', async () => {
    const resolve = createGatewayResolver({ pack: async () => PACKED });
    expect(await resolve({ typed: ' shed gateway ' })).toEqual({ typed: 'shed gateway' });
    expect(await resolve({ typed: '  ' })).toBeUndefined();
  });

  it('keeps the id, name and MAC an SSH session knew when no source lists its gateway', async () => {
    const resolve = createGatewayResolver({ pack: async () => undefined });
    expect(await resolve({ gatewayId: 'gw-77', name: 'acme-gw-0077', mac: '00:80' })).toEqual({
      gatewayId: 'gw-77',
      name: 'acme-gw-0077',
      mac: '00:80',
    });
  });
});
