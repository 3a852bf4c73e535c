/** Whose devices a list shows: a customer's or a sub-customer's (the two device-list endpoints). */
export type DeviceScopeKind = 'customer' | 'subCustomer';

/** The all/online/offline filter: the `active` query parameter omitted, true or false. */
export type ActivityFilter = 'all' | 'online' | 'offline';

/** The activity filters in the order the view offers them. */
export const ACTIVITY_FILTERS: readonly ActivityFilter[] = ['all', 'online', 'offline'];

/** Where the devices view is: whose list and which filter (kept in the URL so a reload keeps it). */
export interface DeviceRoute {
  kind: DeviceScopeKind;
  id: string;
  filter: ActivityFilter;
}

/** The fields of a device the list reads (null where the server sends null); the rest is not needed here. */
export interface DeviceRow {
  name?: string | null | undefined;
  deviceEUI?: string | null | undefined;
  active: boolean;
  state: string;
  lastActivityTime: number | null;
  applicationName?: string | null | undefined;
  deviceModelName?: string | null | undefined;
}

/**
 * Which device list a customer chosen in the picker is read through. A customer user may see only its own customer
 * and that customer's sub-customers, so any other customer it chooses is a sub-customer (the sub-customer
 * endpoint). A provider user's customers (sub-customers among them) are read through the customer endpoint; an
 * address naming `subCustomer/<id>` still uses the sub-customer endpoint.
 */
export function scopeKindOf(
  customerId: string,
  account: { role: string; customerId?: string | null | undefined } | null,
): DeviceScopeKind {
  return account?.role === 'CUSTOMER_USER' && account.customerId && customerId !== account.customerId
    ? 'subCustomer'
    : 'customer';
}

/** The endpoint of the endpoint table for a scope. */
export function deviceListEndpoint(kind: DeviceScopeKind): 'listCustomerDevices' | 'listSubCustomerDevices' {
  return kind === 'customer' ? 'listCustomerDevices' : 'listSubCustomerDevices';
}

/** The path parameters of that endpoint. */
export function deviceListParams(route: Pick<DeviceRoute, 'kind' | 'id'>): Record<string, string> {
  return route.kind === 'customer' ? { customerId: route.id } : { subCustomerId: route.id };
}

/** The query for a filter: all omits `active` (spec rule 1), online is true, offline is false (rule 2). */
export function activityQuery(filter: ActivityFilter): { active?: boolean } {
  if (filter === 'online') return { active: true };
  if (filter === 'offline') return { active: false };
  return {};
}

/** Reads a route from the view's path (`['customer', '<id>', 'online']`); null when it names no list. */
export function parseDeviceRoute(path: readonly string[]): DeviceRoute | null {
  const [kind, id, filter] = path;
  if ((kind !== 'customer' && kind !== 'subCustomer') || !id) return null;
  const knownFilter = (ACTIVITY_FILTERS as readonly string[]).includes(filter ?? '')
    ? (filter as ActivityFilter)
    : 'all';
  return { kind, id, filter: knownFilter };
}

/** The view's path for a route. */
export function formatDeviceRoute(route: DeviceRoute): string[] {
  return [route.kind, route.id, route.filter];
}

/** Devices whose name or EUI contains `search` (case-insensitive; blanks and colons in an EUI ignored). */
export function searchDevices<Row extends DeviceRow>(devices: readonly Row[], search: string): Row[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...devices];
  const compactNeedle = needle.replace(/[\s:-]/g, '');
  return devices.filter((device) => {
    const name = (device.name ?? '').toLowerCase();
    const eui = (device.deviceEUI ?? '').toLowerCase().replace(/[\s:-]/g, '');
    return name.includes(needle) || (compactNeedle !== '' && eui.includes(compactNeedle));
  });
}

/** How many devices a list holds, and how many of them are online and offline (by the `active` field). */
export function countDevices(devices: readonly DeviceRow[]): {
  total: number;
  online: number;
  offline: number;
} {
  let online = 0;
  for (const device of devices) if (device.active) online++;
  return { total: devices.length, online, offline: devices.length - online };
}
