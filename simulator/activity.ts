import type { DeviceEntity } from './tenant';

/** A device's activity as GET /api/device/{deviceId}/activity-state would report it. */
export interface DeviceActivity {
  active: boolean;
  lastActivityTime: number | null;
  state: 'ACTIVE' | 'INACTIVE';
}

/**
 * Activity at `now`: the last uplink on the device's schedule (or the last before it fell silent; null when never
 * heard), and active while less than inactivityTimeout seconds have passed since it.
 */
export function computeActivity(device: DeviceEntity, now: number): DeviceActivity {
  const lastActivityTime = lastUplinkTime(device, now);
  const active = lastActivityTime !== null && now - lastActivityTime < device.inactivityTimeout * 1000;
  return { active, lastActivityTime, state: active ? 'ACTIVE' : 'INACTIVE' };
}

function lastUplinkTime(device: DeviceEntity, now: number): number | null {
  if (device.isNeverSeen) return null;
  const until = device.silentSinceMs === null ? now : Math.min(now, device.silentSinceMs);
  const interval = device.uplinkIntervalSeconds * 1000;
  const last = Math.floor((until - device.phaseMs) / interval) * interval + device.phaseMs;
  return last < device.createdTime ? null : last;
}
