// What the demo tenant is made of: the records and the catalogues the fixture draws from.

/** The newest BSP: only gateways on it answer cellid, getWmNetworkInfo and setWmPreferredNetwork. */
export const NEWEST_BSP_VERSION = '6.0.2';
/** BSP versions gateways of the demo tenant run, oldest first. */
export const BSP_VERSIONS = ['5.0.6', '5.1.3', NEWEST_BSP_VERSION] as const;
/** Gateway models of the demo tenant. */
export const GATEWAY_MODELS = [
  'KONA Micro',
  'KONA Macro',
  'KONA Mega',
  'KONA Enterprise',
  'KONA Photon',
] as const;

/** Sources of enhanced events. */
export const EVENT_SOURCES = ['GATEWAY', 'DEVICE', 'INTEGRATION'] as const;
/** Categories (eventType) of enhanced events. */
export const EVENT_TYPES = ['Alarms', 'Faults', 'Events', 'Offline'] as const;
/** Severities of enhanced events. */
export const EVENT_SEVERITIES = ['Critical', 'Major', 'Minor'] as const;
/** States of enhanced events. */
export const EVENT_STATES = ['Raised', 'Clear'] as const;
/** ITU X.733 event types used for ituType. */
export const ITU_TYPES = [
  'communicationsAlarm',
  'qualityOfServiceAlarm',
  'processingErrorAlarm',
  'equipmentAlarm',
  'environmentalAlarm',
] as const;
/** Every event name of the spec's list, with the source that raises it. */
export const EVENT_NAMES: ReadonlyArray<{ name: string; source: (typeof EVENT_SOURCES)[number] }> = [
  ['GATEWAY_HIGH_TEMP_SHUTDOWN_ALARM', 'GATEWAY'],
  ['GATEWAY_LOW_BATTERY_ALARM', 'GATEWAY'],
  ['GATEWAY_SWITCHED_TO_BATTERY_POWER', 'GATEWAY'],
  ['GATEWAY_SWITCHED_TO_SECONDARY_NETWORK_INTERFACE_ALARM', 'GATEWAY'],
  ['GATEWAY_HIGH_RAM_UTILIZATION', 'GATEWAY'],
  ['GATEWAY_HIGH_DISK_UTILIZATION', 'GATEWAY'],
  ['GATEWAY_HIGH_CPU_UTILIZATION', 'GATEWAY'],
  ['SECURITY_ALARM', 'GATEWAY'],
  ['STATUS_UPDATE_ALARM', 'GATEWAY'],
  ['GATEWAY_SHUTDOWN_ALARM', 'GATEWAY'],
  ['GATEWAY_PERFORMANCE_DEGRADE_ALARM', 'GATEWAY'],
  ['GATEWAY_INTERFACE_ALARM', 'GATEWAY'],
  ['GATEWAY_AUTHENTICATION_ERROR', 'GATEWAY'],
  ['GATEWAY_EVENTS_REPORTING_RATE_EXCEEDED', 'GATEWAY'],
  ['GATEWAY_MQTT_RATE_EXCEEDED', 'GATEWAY'],
  ['DL_QUEUESIZE_EXCEEDED', 'DEVICE'],
  ['DEVICE_CANNOT_JOIN', 'DEVICE'],
  ['TOO_FREQUENT_UPLINKS', 'DEVICE'],
  ['UNKNOWN_DEVICE', 'DEVICE'],
  ['LORA_MIC_FAILURE', 'DEVICE'],
  ['INTEGRATION_DL_ENCODING_FAILURE', 'INTEGRATION'],
  ['GATEWAY_MQTT_CONNECTION_LOST', 'GATEWAY'],
  ['GATEWAY_DATA_REPORTING_INTERVAL_EXCEEDED', 'GATEWAY'],
  ['DEVICE_DATA_REPORTING_INTERVAL_EXCEEDED', 'DEVICE'],
  ['INTEGRATION_DISCONNECTED', 'INTEGRATION'],
  ['DECODER_', 'INTEGRATION'],
  ['ENCODER_BANNED', 'INTEGRATION'],
].map(([name, source]) => ({ name: name as string, source: source as (typeof EVENT_SOURCES)[number] }));

/** Performance series every gateway reports: measurement group, field, and the shape of its values. */
export const PERFORMANCE_SERIES = [
  { measurement: 'system', field: 'cpuUsage', base: 22, amplitude: 12, minimum: 0, maximum: 100 },
  { measurement: 'system', field: 'ramUsage', base: 48, amplitude: 8, minimum: 0, maximum: 100 },
  { measurement: 'system', field: 'diskUsage', base: 61, amplitude: 2, minimum: 0, maximum: 100 },
  { measurement: 'system', field: 'temperature', base: 41, amplitude: 9, minimum: -40, maximum: 95 },
  { measurement: 'battery', field: 'voltage', base: 12.6, amplitude: 0.4, minimum: 0, maximum: 15 },
  { measurement: 'battery', field: 'level', base: 88, amplitude: 10, minimum: 0, maximum: 100 },
  { measurement: 'lora', field: 'rxPackets', base: 140, amplitude: 90, minimum: 0, maximum: 100000 },
  { measurement: 'lora', field: 'txPackets', base: 35, amplitude: 20, minimum: 0, maximum: 100000 },
  { measurement: 'backhaul', field: 'latencyMs', base: 85, amplitude: 40, minimum: 1, maximum: 5000 },
] as const;
/** One entry of PERFORMANCE_SERIES. */
export type PerformanceSeries = (typeof PERFORMANCE_SERIES)[number];

/** Sizes and seed of a demo tenant. */
export interface TenantOptions {
  seed: number;
  gateways: number;
  devices: number;
  /** Top-level customers: the first two are always Acme Water and Globex Energy. */
  customers: number;
  /** Fraction of gateways that are offline from the start (never the first gateway of a customer). */
  offlineFraction: number;
  /** "Now" when the tenant is built: every timestamp of the fixture lies before it. */
  nowMs: number;
}

/** Role of a demo account, as the JWT's `scopes` carries it. */
export type Authority = 'PROVIDER_USER' | 'CUSTOMER_USER';

/** A user who can log in. */
export interface UserAccount {
  userId: string;
  email: string;
  password: string;
  authority: Authority;
  firstName: string;
  lastName: string;
  providerId: string;
  customerId: string | null;
}

/** A customer or sub-customer (a sub-customer has a parentId). */
export interface CustomerEntity {
  id: string;
  name: string;
  parentId: string | null;
  createdTime: number;
  city: string;
  country: string;
  email: string;
  phone: string;
  /** What the customer record's additionalInfo holds: token lifetimes, or free text. */
  additionalInfo: Record<string, unknown> | string | null;
  /** Fields a POST stored that the simulator does not interpret; echoed back on read. */
  extraFields: Record<string, unknown>;
  subscriptionId: string;
  subscriptionSince: number;
}

/** A gateway group or an application: a named thing that belongs to one customer. */
export interface OwnedEntity {
  id: string;
  name: string;
  customerId: string;
  createdTime: number;
}

/** A payload converter (integrations of type *_V2 need version 2). */
export interface ConverterEntity {
  id: string;
  name: string;
  version: 1 | 2;
}

/** A device model. */
export interface DeviceModelEntity {
  id: string;
  name: string;
  deviceClass: string;
}

/** The fixed facts of a gateway; its changing state lives in GatewayState (gateways/state.ts). */
export interface GatewayEntity {
  index: number;
  id: string;
  name: string;
  gatewayMac: string;
  gatewayModelName: string;
  createdTime: number;
  customerId: string;
  gatewayGroupId: string;
  isPublic: boolean;
  isLoggingEnabled: boolean;
  isUdpAllowed: boolean;
  isNotMqttsAllowed: boolean;
  bspVersion: string;
  /** The password on the gateway's label (root login of its shell). */
  rootPassword: string;
  /** Offline from the start and for good (fault injection). */
  isOfflineFromStart: boolean;
  /** The APN its SIM card is provisioned for. */
  simApn: string;
  /** Whether its Ethernet cable has a link. */
  hasEthernetLink: boolean;
  latitude: number;
  longitude: number;
}

/** A device; its activity is computed from these facts at read time (activity.ts). */
export interface DeviceEntity {
  index: number;
  id: string;
  name: string;
  deviceEUI: string;
  customerId: string;
  applicationId: string;
  deviceModelIndex: number;
  createdTime: number;
  /** Seconds between two uplinks. */
  uplinkIntervalSeconds: number;
  /** Seconds without activity after which the device counts as offline. */
  inactivityTimeout: number;
  /** Offset of its uplink schedule, in milliseconds. */
  phaseMs: number;
  /** Null while the device reports; the time it fell silent otherwise. */
  silentSinceMs: number | null;
  /** True for a device that has never been heard (lastActivityTime null). */
  isNeverSeen: boolean;
}

/** An integration (seeded or stored by POST /api/integration). */
export interface IntegrationEntity {
  id: string;
  name: string;
  customerId: string;
  record: Record<string, unknown>;
}

/** An enhanced event record (docs/api.md) plus the customer it belongs to, for scope checks. */
export interface EventEntity {
  id: string;
  startTs: number;
  endTs: number | null;
  source: (typeof EVENT_SOURCES)[number];
  entityId: string;
  entityName: string;
  eventName: string;
  eventType: (typeof EVENT_TYPES)[number];
  severity: (typeof EVENT_SEVERITIES)[number];
  state: (typeof EVENT_STATES)[number];
  ituType: string;
  details: string;
  customerId: string;
}

/** The whole demo tenant: deterministic for a given TenantOptions. */
export interface Tenant {
  seed: number;
  providerId: string;
  providerName: string;
  createdTime: number;
  users: UserAccount[];
  customers: Map<string, CustomerEntity>;
  gatewayGroups: Map<string, OwnedEntity>;
  applications: Map<string, OwnedEntity>;
  converters: Map<string, ConverterEntity>;
  deviceModels: DeviceModelEntity[];
  gateways: GatewayEntity[];
  gatewaysById: Map<string, GatewayEntity>;
  devices: DeviceEntity[];
  devicesById: Map<string, DeviceEntity>;
  /** Devices per owning customer, in creation order. */
  devicesByCustomer: Map<string, DeviceEntity[]>;
  integrations: Map<string, IntegrationEntity>;
  events: EventEntity[];
}
