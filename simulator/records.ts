import { computeActivity } from './activity';
import type { GatewayFleet } from './gateways/fleet';
import { hashString } from './random';
import type { CustomerEntity, DeviceEntity, EventEntity, GatewayEntity, Tenant } from './tenant';

const reference = (entityType: string, id: string) => ({ entityType, id });

/** A customer as GET /api/customer/{customerId} answers it; additionalInfo is a string when read. */
export function renderCustomer(tenant: Tenant, customer: CustomerEntity) {
  const children = [...tenant.customers.values()].filter((candidate) => candidate.parentId === customer.id);
  const info = customer.additionalInfo;
  return {
    id: reference('CUSTOMER', customer.id),
    createdTime: customer.createdTime,
    name: customer.name,
    title: customer.name,
    email: customer.email,
    phone: customer.phone,
    address: '1 Main Street',
    address2: '',
    city: customer.city,
    zip: 'T2P 1J9',
    country: customer.country,
    state: 'ACTIVE',
    ...customer.extraFields,
    additionalInfo: info === null ? null : typeof info === 'string' ? info : JSON.stringify(info),
    customerSubscriptionId: reference('CUSTOMER_SUBSCRIPTION', customer.subscriptionId),
    customerSubscriptionName: customer.parentId === null ? 'Enterprise' : 'Sub-customer',
    customerSubscriptionSince: customer.subscriptionSince,
    providerId: reference('PROVIDER', tenant.providerId),
    ...(customer.parentId ? { parentCustomerId: reference('CUSTOMER', customer.parentId) } : {}),
    devicesCount: tenant.devicesByCustomer.get(customer.id)?.length ?? 0,
    gatewaysCount: tenant.gateways.filter((gateway) => gateway.customerId === customer.id).length,
    subCustomersCount: children.length,
  };
}

/** A device as the device lists answer it, with active, lastActivityTime and state computed at `now`. */
export function renderDevice(tenant: Tenant, device: DeviceEntity, now: number) {
  const model = tenant.deviceModels[device.deviceModelIndex];
  const application = tenant.applications.get(device.applicationId);
  const key = (label: string) => {
    const seed = hashString(`${device.id}:${label}`);
    return (
      seed.toString(16).padStart(8, '0') + hashString(`${label}:${device.id}`).toString(16).padStart(8, '0')
    )
      .repeat(2)
      .toUpperCase();
  };
  const isAbp = device.index % 10 === 9;
  return {
    id: reference('DEVICE', device.id),
    createdTime: device.createdTime,
    name: device.name,
    deviceEUI: device.deviceEUI,
    appEUI: '647FDA8000000001',
    appKey: isAbp ? '' : key('appKey'),
    appSKey: isAbp ? key('appSKey') : '',
    appSKeyEncrypted: '',
    nwkSKey: isAbp ? key('nwkSKey') : '',
    nwkSKeyEncrypted: '',
    asKekLabel: '',
    nsKekLabel: '',
    sessionKeyId: '',
    devAddress: (hashString(device.id) >>> 0).toString(16).padStart(8, '0').toUpperCase(),
    abp: isAbp,
    applicationAbp: false,
    multicastGroup: false,
    useAppNetworkSettings: device.index % 4 !== 0,
    additionalInfo: '',
    applicationId: reference('APPLICATION', device.applicationId),
    applicationName: application?.name ?? '',
    customerId: reference('CUSTOMER', device.customerId),
    deviceModelId: reference('DEVICE_MODEL', model?.id ?? ''),
    deviceModelName: model?.name ?? '',
    providerId: reference('PROVIDER', tenant.providerId),
    deviceClass: model?.deviceClass ?? 'CLASS_A',
    eventThresholdDownlinkQueueSize: 10,
    eventThresholdJoinRequestWithoutUl: 5,
    eventThresholdUlPerMinuteCounter: 30,
    inactivityTimeout: device.inactivityTimeout,
    previousDevNonces: [],
    ...computeActivity(device, now),
  };
}

/** A gateway record (docs/api.md), with status, lastSeenTime and BSP version as they are now. */
export function renderGateway(tenant: Tenant, fleet: GatewayFleet, gateway: GatewayEntity) {
  return {
    id: reference('GATEWAY', gateway.id),
    createdTime: gateway.createdTime,
    name: gateway.name,
    gatewayMac: gateway.gatewayMac,
    gatewayModelName: gateway.gatewayModelName,
    isPublic: gateway.isPublic,
    isLoggingEnabled: gateway.isLoggingEnabled,
    isUdpAllowed: gateway.isUdpAllowed,
    isNotMqttsAllowed: gateway.isNotMqttsAllowed,
    status: fleet.statusOf(gateway),
    customerId: reference('CUSTOMER', gateway.customerId),
    gatewayGroupId: reference('GATEWAY_GROUP', gateway.gatewayGroupId),
    providerId: reference('PROVIDER', tenant.providerId),
    bspVersion: fleet.bspVersionOf(gateway),
    lastSeenTime: fleet.lastSeenTimeOf(gateway),
  };
}

/** A response body already serialized as JSON (the server sends it as is, as application/json). */
export class RawJson {
  constructor(readonly json: string) {}
}

/**
 * Gateway records serialized once and reused while their changing fields (status, lastSeenTime, BSP version)
 * stay the same: a page of 100 gateways is then a join of cached strings, not 100 serializations.
 */
export class GatewayJsonCache {
  private readonly cache = new Map<string, { key: string; json: string }>();

  constructor(
    private readonly tenant: Tenant,
    private readonly fleet: GatewayFleet,
  ) {}

  /** The gateway's record as JSON text, equal to JSON.stringify(renderGateway(...)). */
  jsonOf(gateway: GatewayEntity): string {
    const key = `${this.fleet.statusOf(gateway)}|${this.fleet.lastSeenTimeOf(gateway)}|${this.fleet.bspVersionOf(gateway)}`;
    const cached = this.cache.get(gateway.id);
    if (cached && cached.key === key) return cached.json;
    const json = JSON.stringify(renderGateway(this.tenant, this.fleet, gateway));
    this.cache.set(gateway.id, { key, json });
    return json;
  }
}

/** An enhanced event record (docs/api.md): the owner's customer id as a CUSTOMER reference. */
export function renderEvent(event: EventEntity) {
  const { customerId, ...record } = event;
  return { ...record, customerId: reference('CUSTOMER', customerId) };
}
