import { Random } from './random';
import type { EVENT_SOURCES } from './tenant-records';
import {
  NEWEST_BSP_VERSION,
  BSP_VERSIONS,
  GATEWAY_MODELS,
  EVENT_TYPES,
  EVENT_SEVERITIES,
  ITU_TYPES,
  EVENT_NAMES,
  type TenantOptions,
  type CustomerEntity,
  type OwnedEntity,
  type GatewayEntity,
  type DeviceEntity,
  type IntegrationEntity,
  type Tenant,
} from './tenant-records';

// The records are defined in tenant-records.ts; the simulator's modules import them from here with the tenant.
export * from './tenant-records';

interface CustomerSeed {
  name: string;
  slug: string;
  city: string;
  country: string;
  subCustomers: string[];
}

const CUSTOMER_SEEDS: CustomerSeed[] = [
  {
    name: 'Acme Water',
    slug: 'acme',
    city: 'Calgary',
    country: 'Canada',
    subCustomers: ['Acme Water North', 'Acme Water South'],
  },
  { name: 'Globex Energy', slug: 'globex', city: 'Rotterdam', country: 'Netherlands', subCustomers: [] },
  {
    name: 'Initech Utilities',
    slug: 'initech',
    city: 'Austin',
    country: 'United States',
    subCustomers: ['Initech Metering'],
  },
  { name: 'Umbrella Farms', slug: 'umbrella', city: 'Lyon', country: 'France', subCustomers: [] },
  {
    name: 'Stark Agritech',
    slug: 'stark',
    city: 'Perth',
    country: 'Australia',
    subCustomers: ['Stark Orchards'],
  },
];

const CITY_COORDINATES: Record<string, [number, number]> = {
  Calgary: [51.0447, -114.0719],
  Rotterdam: [51.9244, 4.4777],
  Austin: [30.2672, -97.7431],
  Lyon: [45.764, 4.8357],
  Perth: [-31.9523, 115.8613],
};

const DEVICE_MODELS: ReadonlyArray<[string, string]> = [
  ['TEKTELIC Kiwi Agriculture Sensor', 'CLASS_A'],
  ['TEKTELIC Vivid Smart Room Sensor', 'CLASS_A'],
  ['TEKTELIC Tundra Industrial Sensor', 'CLASS_A'],
  ['TEKTELIC Sparrow Pipeline Monitor', 'CLASS_C'],
  ['Generic Water Meter', 'CLASS_B'],
];

const SIM_APNS = ['iot.telco.example', 'm2m.carrier.example', 'lte.iot.example'];
const DAY_MS = 86_400_000;

/** Builds the demo tenant for `options`: the same options always give the same tenant. */
export function createTenant(options: TenantOptions): Tenant {
  const random = new Random(options.seed);
  const createdTime = options.nowMs - 900 * DAY_MS;
  const providerId = random.fork('provider').uuid();
  const tenant: Tenant = {
    seed: options.seed,
    providerId,
    providerName: 'Field Kit Demo Provider',
    createdTime,
    users: [],
    customers: new Map(),
    gatewayGroups: new Map(),
    applications: new Map(),
    converters: new Map(),
    deviceModels: [],
    gateways: [],
    gatewaysById: new Map(),
    devices: [],
    devicesById: new Map(),
    devicesByCustomer: new Map(),
    integrations: new Map(),
    events: [],
  };
  createCustomers(tenant, random.fork('customers'), options);
  createUsers(tenant, random.fork('users'));
  createCatalogue(tenant, random.fork('catalogue'));
  createGateways(tenant, random.fork('gateways'), options);
  createDevices(tenant, random.fork('devices'), options);
  createIntegrations(tenant, random.fork('integrations'));
  createEvents(tenant, random.fork('events'), options);
  return tenant;
}

function customerSeedAt(index: number): CustomerSeed {
  const known = CUSTOMER_SEEDS[index];
  if (known) return known;
  return {
    name: `Demo Customer ${index + 1}`,
    slug: `customer${index + 1}`,
    city: 'Calgary',
    country: 'Canada',
    subCustomers: [],
  };
}

function createCustomers(tenant: Tenant, random: Random, options: TenantOptions): void {
  const count = Math.max(2, options.customers);
  for (let index = 0; index < count; index++) {
    const seed = customerSeedAt(index);
    const customer = newCustomer(random, seed, seed.name, null, tenant.createdTime + (index + 1) * DAY_MS);
    tenant.customers.set(customer.id, customer);
    seed.subCustomers.forEach((name, subIndex) => {
      const sub = newCustomer(
        random,
        seed,
        name,
        customer.id,
        customer.createdTime + (subIndex + 1) * DAY_MS,
      );
      tenant.customers.set(sub.id, sub);
    });
  }
}

function newCustomer(
  random: Random,
  seed: CustomerSeed,
  name: string,
  parentId: string | null,
  createdTime: number,
): CustomerEntity {
  const local = name.toLowerCase().replace(/[^a-z]+/g, '.');
  return {
    id: random.uuid(),
    name,
    parentId,
    createdTime,
    city: seed.city,
    country: seed.country,
    email: `${local}@${seed.slug}.demo`,
    phone: `+1 403 555 ${String(random.integer(1000, 9999))}`,
    additionalInfo: null,
    extraFields: {},
    subscriptionId: random.uuid(),
    subscriptionSince: createdTime,
  };
}

function createUsers(tenant: Tenant, random: Random): void {
  const [acme, globex] = [...tenant.customers.values()].filter((customer) => customer.parentId === null);
  tenant.users.push(
    {
      userId: random.uuid(),
      email: 'provider@fieldkit.demo',
      password: 'demo-provider',
      authority: 'PROVIDER_USER',
      firstName: 'Pat',
      lastName: 'Provider',
      providerId: tenant.providerId,
      customerId: null,
    },
    {
      userId: random.uuid(),
      email: 'tech@acme.demo',
      password: 'demo-tech',
      authority: 'CUSTOMER_USER',
      firstName: 'Terry',
      lastName: 'Technician',
      providerId: tenant.providerId,
      customerId: acme?.id ?? null,
    },
    {
      userId: random.uuid(),
      email: 'ops@globex.demo',
      password: 'demo-ops',
      authority: 'CUSTOMER_USER',
      firstName: 'Olive',
      lastName: 'Operations',
      providerId: tenant.providerId,
      customerId: globex?.id ?? null,
    },
  );
}

function createCatalogue(tenant: Tenant, random: Random): void {
  for (const customer of tenant.customers.values()) {
    const groups = customer.parentId === null ? ['Rooftops', 'Field Sites'] : ['Sites'];
    for (const name of groups) {
      const group = {
        id: random.uuid(),
        name: `${customer.name} ${name}`,
        customerId: customer.id,
        createdTime: customer.createdTime,
      };
      tenant.gatewayGroups.set(group.id, group);
    }
    for (const name of ['Metering', 'Environment']) {
      const application = {
        id: random.uuid(),
        name: `${customer.name} ${name}`,
        customerId: customer.id,
        createdTime: customer.createdTime,
      };
      tenant.applications.set(application.id, application);
    }
  }
  const converters: Array<[string, 1 | 2]> = [
    ['Legacy JSON converter', 1],
    ['TEKTELIC sensor converter v1', 1],
    ['Uplink converter v2', 2],
    ['TEKTELIC sensor converter v2', 2],
  ];
  for (const [name, version] of converters) {
    const converter = { id: random.uuid(), name, version };
    tenant.converters.set(converter.id, converter);
  }
  tenant.deviceModels = DEVICE_MODELS.map(([name, deviceClass]) => ({
    id: random.uuid(),
    name,
    deviceClass,
  }));
}

function createGateways(tenant: Tenant, random: Random, options: TenantOptions): void {
  const owners = [...tenant.customers.values()];
  const groupsByCustomer = groupBy([...tenant.gatewayGroups.values()], (group) => group.customerId);
  const seenOwners = new Set<string>();
  const span = options.nowMs - tenant.createdTime - 30 * DAY_MS;
  const step = Math.max(1, Math.floor(span / Math.max(1, options.gateways)));
  for (let index = 0; index < options.gateways; index++) {
    const owner = owners[index % owners.length] as CustomerEntity;
    const groups = groupsByCustomer.get(owner.id) ?? [];
    const isFirstOfOwner = !seenOwners.has(owner.id);
    seenOwners.add(owner.id);
    const [latitude, longitude] = CITY_COORDINATES[owner.city] ?? [51.0447, -114.0719];
    const macSuffix = index.toString(16).toUpperCase().padStart(6, '0');
    const gateway: GatewayEntity = {
      index,
      id: random.uuid(),
      name: `${owner.name.split(' ')[0]?.toLowerCase()}-gw-${String(index + 1).padStart(4, '0')}`,
      gatewayMac: `647FDAFFFE${macSuffix}`,
      gatewayModelName: random.pick(GATEWAY_MODELS),
      // Strictly increasing with index, so "newest first" is well defined.
      createdTime: tenant.createdTime + DAY_MS + index * step + random.integer(0, Math.max(0, step - 1)),
      customerId: owner.id,
      gatewayGroupId: (groups[index % Math.max(1, groups.length)] as OwnedEntity).id,
      isPublic: random.chance(0.3),
      isLoggingEnabled: random.chance(0.5),
      isUdpAllowed: random.chance(0.4),
      isNotMqttsAllowed: random.chance(0.2),
      // Gateway 0 and every third gateway run the newest BSP, so both kinds are always present.
      bspVersion: index % 3 === 0 ? NEWEST_BSP_VERSION : (BSP_VERSIONS[index % 2] as string),
      rootPassword: `${random.hex(4)}-${random.hex(4)}-${random.hex(4)}`,
      isOfflineFromStart: !isFirstOfOwner && random.chance(options.offlineFraction),
      simApn: random.pick(SIM_APNS),
      hasEthernetLink: isFirstOfOwner || random.chance(0.75),
      latitude: latitude + (random.next() - 0.5) * 0.2,
      longitude: longitude + (random.next() - 0.5) * 0.2,
    };
    tenant.gateways.push(gateway);
    tenant.gatewaysById.set(gateway.id, gateway);
  }
}

function createDevices(tenant: Tenant, random: Random, options: TenantOptions): void {
  const customers = [...tenant.customers.values()];
  const applicationsByCustomer = groupBy(
    [...tenant.applications.values()],
    (application) => application.customerId,
  );
  const intervals = [300, 600, 900, 1800, 3600];
  // Device ids share a seeded prefix and end in the index: unique, deterministic, and cheap for 100,000 devices.
  const idPrefix = random.uuid().slice(0, 24);
  for (let index = 0; index < options.devices; index++) {
    const customer = customers[index % customers.length] as CustomerEntity;
    const applications = applicationsByCustomer.get(customer.id) ?? [];
    const uplinkIntervalSeconds = random.pick(intervals);
    const fate = random.next();
    const device: DeviceEntity = {
      index,
      id: idPrefix + index.toString(16).padStart(12, '0'),
      name: `sensor-${String(index + 1).padStart(6, '0')}`,
      deviceEUI: `647FDA00${index.toString(16).toUpperCase().padStart(8, '0')}`,
      customerId: customer.id,
      applicationId: (applications[index % Math.max(1, applications.length)] as OwnedEntity).id,
      deviceModelIndex: index % tenant.deviceModels.length,
      createdTime: tenant.createdTime + random.integer(DAY_MS, 800 * DAY_MS),
      uplinkIntervalSeconds,
      inactivityTimeout: uplinkIntervalSeconds * 3,
      phaseMs: random.integer(0, uplinkIntervalSeconds * 1000 - 1),
      // About 70 % report, 25 % fell silent at some point in the last 30 days, 5 % were never heard.
      silentSinceMs:
        fate < 0.7 || fate >= 0.95 ? null : options.nowMs - random.integer(2 * 3600_000, 30 * DAY_MS),
      isNeverSeen: fate >= 0.95,
    };
    tenant.devices.push(device);
    tenant.devicesById.set(device.id, device);
    const list = tenant.devicesByCustomer.get(customer.id) ?? [];
    list.push(device);
    tenant.devicesByCustomer.set(customer.id, list);
  }
}

function createIntegrations(tenant: Tenant, random: Random): void {
  const converter = [...tenant.converters.values()].find((candidate) => candidate.version === 2);
  for (const application of tenant.applications.values()) {
    const id = random.uuid();
    const record = {
      id: { entityType: 'INTEGRATION', id },
      name: `${application.name} MQTT`,
      type: 'MQTT_V2',
      applicationId: { entityType: 'APPLICATION', id: application.id },
      converterId: { entityType: 'CONVERTER', id: converter?.id ?? '' },
      allowAllPorts: true,
      allowPortsArray: [],
      httpEndpoint: `/api/v1/integrations/mqtt/${id}`,
      configuration: {
        host: 'broker.example.com',
        port: 8883,
        ssl: true,
        pushTopic: 'uplinks',
        pushQos: 'AT_LEAST_ONCE',
      },
    };
    tenant.integrations.set(id, { id, name: record.name, customerId: application.customerId, record });
  }
}

function createEvents(tenant: Tenant, random: Random, options: TenantOptions): void {
  const count = Math.min(
    20_000,
    Math.max(EVENT_NAMES.length * 4, tenant.gateways.length * 3 + Math.floor(tenant.devices.length / 20)),
  );
  const integrations = [...tenant.integrations.values()];
  for (let index = 0; index < count; index++) {
    // The first rounds walk every name, type, severity and state so that every filter value has events.
    const named = EVENT_NAMES[index % EVENT_NAMES.length] as (typeof EVENT_NAMES)[number];
    const entity = pickEventEntity(tenant, random, named.source, integrations);
    if (!entity) continue;
    const state = index % 3 === 0 ? 'Raised' : 'Clear';
    const startTs = options.nowMs - random.integer(60_000, 14 * DAY_MS);
    tenant.events.push({
      id: random.uuid(),
      startTs,
      endTs: state === 'Raised' ? null : Math.min(options.nowMs, startTs + random.integer(60_000, DAY_MS)),
      source: named.source,
      entityId: entity.id,
      entityName: entity.name,
      eventName: named.name,
      eventType: EVENT_TYPES[index % EVENT_TYPES.length] as (typeof EVENT_TYPES)[number],
      severity: EVENT_SEVERITIES[index % EVENT_SEVERITIES.length] as (typeof EVENT_SEVERITIES)[number],
      state,
      ituType: ITU_TYPES[index % ITU_TYPES.length] as string,
      details: `${named.name.toLowerCase().replace(/_/g, ' ').trim()} on ${entity.name}`,
      customerId: entity.customerId,
    });
  }
}

function pickEventEntity(
  tenant: Tenant,
  random: Random,
  source: (typeof EVENT_SOURCES)[number],
  integrations: IntegrationEntity[],
): { id: string; name: string; customerId: string } | undefined {
  if (source === 'GATEWAY' && tenant.gateways.length > 0) {
    const gateway = random.pick(tenant.gateways);
    return { id: gateway.id, name: gateway.gatewayMac, customerId: gateway.customerId };
  }
  if (source === 'DEVICE' && tenant.devices.length > 0) {
    const device = random.pick(tenant.devices);
    return { id: device.id, name: device.deviceEUI, customerId: device.customerId };
  }
  if (source === 'INTEGRATION' && integrations.length > 0) {
    const integration = random.pick(integrations);
    return { id: integration.id, name: integration.name, customerId: integration.customerId };
  }
  return undefined;
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key) ?? [];
    group.push(item);
    groups.set(key, group);
  }
  return groups;
}

/** The customer and every sub-customer below it. */
export function customerFamily(tenant: Tenant, customerId: string): Set<string> {
  const family = new Set([customerId]);
  for (const customer of tenant.customers.values()) {
    if (customer.parentId !== null && family.has(customer.parentId)) family.add(customer.id);
  }
  return family;
}
