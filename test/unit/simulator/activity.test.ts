import { describe, expect, it } from 'vitest';
import { computeActivity } from '../../../simulator/activity';
import type { DeviceEntity } from '../../../simulator/tenant';

const NOW = Date.UTC(2026, 0, 15, 12);

function device(overrides: Partial<DeviceEntity> = {}): DeviceEntity {
  return {
    index: 0,
    id: 'device-1',
    name: 'sensor-1',
    deviceEUI: '647FDA0000000001',
    customerId: 'customer-1',
    applicationId: 'application-1',
    deviceModelIndex: 0,
    createdTime: NOW - 30 * 86_400_000,
    uplinkIntervalSeconds: 600,
    inactivityTimeout: 1800,
    phaseMs: 0,
    silentSinceMs: null,
    isNeverSeen: false,
    ...overrides,
  };
}

describe('computeActivity', () => {
  it('is active with the last scheduled uplink as lastActivityTime while the device reports', () => {
    const activity = computeActivity(device({ phaseMs: 1_000 }), NOW + 5_000);
    expect(activity).toEqual({ active: true, lastActivityTime: NOW + 1_000, state: 'ACTIVE' });
  });

  it('turns inactive once inactivityTimeout seconds pass without activity', () => {
    const silent = device({ silentSinceMs: NOW });
    expect(computeActivity(silent, NOW + 1_799_999).active).toBe(true);
    expect(computeActivity(silent, NOW + 1_800_000)).toMatchObject({
      active: false,
      state: 'INACTIVE',
      lastActivityTime: NOW,
    });
  });

  it('has a null lastActivityTime and is inactive when never heard', () => {
    expect(computeActivity(device({ isNeverSeen: true }), NOW)).toEqual({
      active: false,
      lastActivityTime: null,
      state: 'INACTIVE',
    });
  });
});
