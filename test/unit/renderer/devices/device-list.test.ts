import { describe, expect, it } from 'vitest';
import {
  activityQuery,
  countDevices,
  deviceListParams,
  formatDeviceRoute,
  parseDeviceRoute,
  scopeKindOf,
  searchDevices,
  type DeviceRow,
} from '../../../../renderer/src/views/devices/device-list';

function buildDevice(overrides: Partial<DeviceRow> = {}): DeviceRow {
  return {
    name: 'Water meter 7',
    deviceEUI: '70B3D57ED0001234',
    active: true,
    state: 'ACTIVE',
    lastActivityTime: null,
    ...overrides,
  };
}

describe('device list helpers', () => {
  it('omits active for all, and sends true for online and false for offline', () => {
    expect([activityQuery('all'), activityQuery('online'), activityQuery('offline')]).toEqual([
      {},
      { active: true },
      { active: false },
    ]);
  });

  it('names the path parameter after the scope', () => {
    expect(deviceListParams({ kind: 'customer', id: 'c1' })).toEqual({ customerId: 'c1' });
    expect(deviceListParams({ kind: 'subCustomer', id: 's1' })).toEqual({ subCustomerId: 's1' });
  });

  it('reads back the route it wrote, and treats an unknown filter as all', () => {
    const route = { kind: 'subCustomer' as const, id: 's-1', filter: 'offline' as const };
    expect(parseDeviceRoute(formatDeviceRoute(route))).toEqual(route);
    expect(parseDeviceRoute(['customer', 'c-1', 'sleeping'])).toEqual({
      kind: 'customer',
      id: 'c-1',
      filter: 'all',
    });
    expect(parseDeviceRoute(['gateway', 'g-1'])).toBeNull();
  });

  it('finds devices by part of the name or of the EUI written with separators', () => {
    const devices = [buildDevice(), buildDevice({ name: 'Valve', deviceEUI: '0011223344556677' })];
    expect(searchDevices(devices, 'meter').map((device) => device.name)).toEqual(['Water meter 7']);
    expect(searchDevices(devices, '33:44:55').map((device) => device.name)).toEqual(['Valve']);
    expect(searchDevices(devices, '  ')).toHaveLength(2);
  });

  it('counts online and offline devices by the active field, whatever the state says', () => {
    const devices = [
      buildDevice({ state: 'SOMETHING_NEW' }),
      buildDevice({ active: false, state: 'ACTIVE' }),
      buildDevice({ active: false }),
    ];
    expect(countDevices(devices)).toEqual({ total: 3, online: 1, offline: 2 });
  });

  it("reads a customer user's other customers through the sub-customer endpoint, and its own through the customer one", () => {
    const technician = { role: 'CUSTOMER_USER', customerId: 'acme' };
    expect(scopeKindOf('acme-north', technician)).toBe('subCustomer');
    expect(scopeKindOf('acme', technician)).toBe('customer');
  });

  it("reads a provider user's customers through the customer endpoint", () => {
    expect(scopeKindOf('acme-north', { role: 'PROVIDER_USER', customerId: null })).toBe('customer');
    expect(scopeKindOf('acme-north', null)).toBe('customer');
  });
});
