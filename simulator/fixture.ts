import type { Tenant } from './tenant';
import { PERFORMANCE_SERIES } from './tenant';

/** The demo tenant as tests and `--print-fixture` see it: ids, names, accounts and passwords. */
export interface Fixture {
  accounts: Array<{
    username: string;
    password: string;
    role: string;
    customerId: string | null;
    providerId: string;
  }>;
  providerId: string;
  customers: Array<{
    id: string;
    name: string;
    subCustomers: Array<{ id: string; name: string; gatewayGroups: string[]; applications: string[] }>;
    gatewayGroups: string[];
    applications: string[];
  }>;
  gateways: Array<{
    id: string;
    name: string;
    gatewayMac: string;
    customerId: string;
    gatewayGroupId: string;
    bspVersion: string;
    rootPassword: string;
    /** Status when the simulator started (reboots change it later). */
    initialStatus: 'ONLINE' | 'OFFLINE';
    hasEthernetLink: boolean;
  }>;
  devices: Array<{ id: string; customerId: string }>;
  converters: Array<{ id: string; version: number }>;
  performance: Array<{ measurement: string; field: string }>;
  /** The built-in SSH relay (`--ssh`) that reverseSsh should point at. */
  relay: FixtureRelay;
}

/**
 * The built-in relay's address and account. `port` is null when it is chosen at start (no `--relay-port`)
 * and the simulator is not running yet, as with `--print-fixture`.
 */
export interface FixtureRelay {
  host: string;
  port: number | null;
  username: string;
  password: string;
}

/** Describes the tenant and the relay (deterministic for a seed: no timestamps). */
export function describeFixture(tenant: Tenant, relay: FixtureRelay): Fixture {
  const customers = [...tenant.customers.values()];
  const idsOf = (items: Iterable<{ id: string; customerId: string }>, customerId: string) =>
    [...items].filter((item) => item.customerId === customerId).map((item) => item.id);
  const groups = [...tenant.gatewayGroups.values()];
  const applications = [...tenant.applications.values()];
  return {
    accounts: tenant.users.map((user) => ({
      username: user.email,
      password: user.password,
      role: user.authority,
      customerId: user.customerId,
      providerId: user.providerId,
    })),
    providerId: tenant.providerId,
    customers: customers
      .filter((customer) => customer.parentId === null)
      .map((customer) => ({
        id: customer.id,
        name: customer.name,
        subCustomers: customers
          .filter((sub) => sub.parentId === customer.id)
          .map((sub) => ({
            id: sub.id,
            name: sub.name,
            gatewayGroups: idsOf(groups, sub.id),
            applications: idsOf(applications, sub.id),
          })),
        gatewayGroups: idsOf(groups, customer.id),
        applications: idsOf(applications, customer.id),
      })),
    gateways: tenant.gateways.map((gateway) => ({
      id: gateway.id,
      name: gateway.name,
      gatewayMac: gateway.gatewayMac,
      customerId: gateway.customerId,
      gatewayGroupId: gateway.gatewayGroupId,
      bspVersion: gateway.bspVersion,
      rootPassword: gateway.rootPassword,
      initialStatus: gateway.isOfflineFromStart ? 'OFFLINE' : 'ONLINE',
      hasEthernetLink: gateway.hasEthernetLink,
    })),
    devices: tenant.devices.map((device) => ({ id: device.id, customerId: device.customerId })),
    converters: [...tenant.converters.values()].map((converter) => ({
      id: converter.id,
      version: converter.version,
    })),
    performance: PERFORMANCE_SERIES.map(({ measurement, field }) => ({ measurement, field })),
    relay: { ...relay },
  };
}
