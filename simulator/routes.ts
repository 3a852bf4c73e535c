import type { z } from 'zod';
import type { EndpointName, endpoints } from '../electron/shared/api/endpoints';
import type { PerformanceTag } from '../electron/shared/api/performance';
import type { Principal } from './auth';
import { badArgument, forbidden, notFound } from './failure';
import { listEvents } from './events';
import type { GatewayPageRequest } from './gateway-list';
import { aggregatedSamples, findSeries, gatewaySamples, type SeriesMember } from './performance';
import { GatewayJsonCache, RawJson, renderCustomer, renderDevice, renderEvent } from './records';
import { computeActivity } from './activity';
import { Random } from './random';
import type { EventEntity, GatewayEntity } from './tenant';
import type { World } from './world';

type Definition<Name extends EndpointName> = (typeof endpoints)[Name];
type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** What a route handler gets: the caller and the request parts, each parsed by the endpoint table's schemas. */
export interface RouteInput<Name extends EndpointName> {
  principal: Name extends 'login' | 'refreshToken' ? null : Principal;
  params: z.output<Definition<Name>['params']>;
  query: Definition<Name> extends { query: infer Query } ? Output<Query> : undefined;
  body: Definition<Name> extends { body: infer Body } ? Output<Body> : undefined;
  /** Aborted when the client goes away or the simulator closes. */
  signal: AbortSignal;
}

/** Most gateway pages kept serialized at once. */
const PAGE_CACHE_LIMIT = 500;

/** One handler per endpoint of the table; the type refuses a missing one. */
export type RouteHandlers = { [Name in EndpointName]: (input: RouteInput<Name>) => unknown };

/** The handlers of every endpoint, working on `world`. */
export function createRouteHandlers(world: World): RouteHandlers {
  const { tenant, scope, fleet, clock } = world;
  const integrationIds = new Random(tenant.seed).fork('integration-ids');

  const requireGateway = (principal: Principal, gatewayId: string): GatewayEntity => {
    const gateway = fleet.entityOf(gatewayId);
    scope.requireCustomerAccess(principal, gateway.customerId);
    return gateway;
  };

  const memberOf = (gateway: GatewayEntity): SeriesMember => ({
    gateway,
    lastSeenTime: fleet.lastSeenTimeOf(gateway),
    providerId: tenant.providerId,
  });

  const listDevices = (customerId: string, active: boolean | undefined) => {
    const now = clock.now();
    const devices = tenant.devicesByCustomer.get(customerId) ?? [];
    const data = [];
    for (const device of devices) {
      if (active !== undefined && computeActivity(device, now).active !== active) continue;
      data.push(renderDevice(tenant, device, now));
    }
    return { data, totalElements: data.length };
  };

  const gatewayJson = new GatewayJsonCache(tenant, fleet);
  // Whole pages by scope and query, valid while no listed gateway field has changed (fleet.listingSignature).
  const pageCache = new Map<string, { signature: string; page: RawJson }>();
  const gatewayPage = (
    scopeKey: string,
    belongs: (gateway: GatewayEntity) => boolean,
    query: GatewayPageRequest,
  ) => {
    const key = `${scopeKey}|${query.page}|${query.limit}|${query.sortField ?? ''}|${query.sortDirection}|${query.textSearch ?? ''}`;
    const signature = fleet.listingSignature();
    const cached = pageCache.get(key);
    if (cached && cached.signature === signature) return cached.page;
    const { data, ...counts } = world.gatewayLists.page(scopeKey, belongs, query);
    const records = data.map((gateway) => gatewayJson.jsonOf(gateway)).join(',');
    const page = new RawJson(`{"data":[${records}],${JSON.stringify(counts).slice(1)}`);
    if (pageCache.size >= PAGE_CACHE_LIMIT) pageCache.clear();
    pageCache.set(key, { signature, page });
    return page;
  };

  const visibleEvent = (principal: Principal) => {
    fleet.refreshOutages();
    const visible = scope.visibleCustomers(principal);
    return (event: EventEntity) => visible === 'all' || visible.has(event.customerId);
  };

  const eventPage = (page: ReturnType<typeof listEvents>) => ({ ...page, data: page.data.map(renderEvent) });

  const parseTags = (showTags: string | undefined): PerformanceTag[] =>
    showTags ? (showTags.split(',') as PerformanceTag[]) : [];

  const entityOfNetworkSettings = (
    principal: Principal,
    entityType: 'APPLICATION' | 'DEVICE',
    entityId: string,
  ) => {
    const owner =
      entityType === 'APPLICATION'
        ? tenant.applications.get(entityId)?.customerId
        : tenant.devicesById.get(entityId)?.customerId;
    if (owner === undefined)
      throw notFound(`${entityType === 'APPLICATION' ? 'Application' : 'Device'} ${entityId} not found`);
    scope.requireCustomerAccess(principal, owner);
  };

  return {
    login: ({ body }) => world.tokens.login(body.username, body.password),

    refreshToken: ({ body }) => world.tokens.refresh(body.refreshToken),

    getCurrentUser: ({ principal }) => {
      const { user } = principal;
      return {
        id: { entityType: 'USER', id: user.userId },
        email: user.email,
        authority: user.authority,
        firstName: user.firstName,
        lastName: user.lastName,
        providerId: { entityType: 'PROVIDER', id: user.providerId },
        customerId: user.customerId ? { entityType: 'CUSTOMER', id: user.customerId } : null,
        name: user.email,
      };
    },

    getCustomer: ({ principal, params }) =>
      renderCustomer(tenant, scope.requireCustomer(principal, params.customerId)),

    saveCustomer: ({ principal, body }) => {
      const customer = scope.requireCustomer(principal, body.id.id);
      const { id: _id, additionalInfo, name, email, phone, city, country, ...rest } = body;
      if (additionalInfo !== undefined) {
        customer.additionalInfo = additionalInfo === null ? null : parseAdditionalInfo(additionalInfo);
      }
      if (typeof name === 'string' && name.trim()) customer.name = name;
      if (typeof email === 'string') customer.email = email;
      if (typeof phone === 'string') customer.phone = phone;
      if (typeof city === 'string') customer.city = city;
      if (typeof country === 'string') customer.country = country;
      for (const computed of [
        'devicesCount',
        'gatewaysCount',
        'subCustomersCount',
        'providerId',
        'createdTime',
      ]) {
        delete (rest as Record<string, unknown>)[computed];
      }
      for (const [key, value] of Object.entries(rest)) {
        // A JSON body may carry "__proto__" as a key: store only plain fields.
        if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype')
          customer.extraFields[key] = value;
      }
      return renderCustomer(tenant, customer);
    },

    listCustomerDevices: ({ principal, params, query }) => {
      scope.requireCustomer(principal, params.customerId);
      return listDevices(params.customerId, query.active);
    },

    listSubCustomerDevices: ({ principal, params, query }) => {
      const customer = tenant.customers.get(params.subCustomerId);
      if (!customer || customer.parentId === null)
        throw notFound(`Sub-customer ${params.subCustomerId} not found`);
      scope.requireCustomerAccess(principal, customer.id);
      return listDevices(customer.id, query.active);
    },

    gatewayCommand: ({ principal, params, body, signal }) => {
      const gateway = requireGateway(principal, params.gatewayId);
      return fleet.runCommand(gateway, params.command, body, signal);
    },

    saveNetworkSettings: ({ principal, body }) => {
      entityOfNetworkSettings(principal, body.entityId.entityType, body.entityId.id);
      const key = `${body.entityId.entityType}:${body.entityId.id}`;
      const previous =
        world.networkSettings.get(key) ??
        defaultNetworkSettings(body.entityId.entityType, body.entityId.id, clock.now());
      const saved = { ...previous, ...body, id: previous.id, createdTime: previous.createdTime };
      world.networkSettings.set(key, saved);
      return saved;
    },

    getNetworkSettings: ({ principal, params }) => {
      entityOfNetworkSettings(principal, params.entityType, params.entityId);
      const key = `${params.entityType}:${params.entityId}`;
      return (
        world.networkSettings.get(key) ??
        defaultNetworkSettings(params.entityType, params.entityId, clock.now())
      );
    },

    getGatewayPerformance: ({ principal, params, query }) => {
      const gateway = requireGateway(principal, params.gatewayId);
      const series = findSeries(params.measurement, params.field);
      return gatewaySamples(series, memberOf(gateway), query, clock.now());
    },

    getCustomerPerformance: ({ principal, params, query }) => {
      scope.requireCustomer(principal, params.customerId);
      const series = findSeries(params.measurement, params.field);
      const members = tenant.gateways
        .filter((gateway) => gateway.customerId === params.customerId)
        .map(memberOf);
      return aggregatedSamples(series, members, parseTags(query.showTags), query, clock.now());
    },

    getProviderPerformance: ({ principal, params, query }) => {
      scope.requireProvider(principal, params.providerId);
      const series = findSeries(params.measurement, params.field);
      return aggregatedSamples(
        series,
        tenant.gateways.map(memberOf),
        parseTags(query.showTags),
        query,
        clock.now(),
      );
    },

    getGatewayGroupPerformance: ({ principal, params, query }) => {
      const group = tenant.gatewayGroups.get(params.gatewayGroupId);
      if (!group) throw notFound(`Gateway group ${params.gatewayGroupId} not found`);
      scope.requireCustomerAccess(principal, group.customerId);
      const series = findSeries(params.measurement, params.field);
      const members = tenant.gateways.filter((gateway) => gateway.gatewayGroupId === group.id).map(memberOf);
      return aggregatedSamples(series, members, parseTags(query.showTags), query, clock.now());
    },

    saveIntegration: ({ principal, body }) => {
      const application = tenant.applications.get(body.applicationId.id);
      if (!application) throw badArgument(`applicationId: no application ${body.applicationId.id}`);
      scope.requireCustomerAccess(principal, application.customerId);
      const converter = tenant.converters.get(body.converterId.id);
      if (!converter) throw badArgument(`converterId: no converter ${body.converterId.id}`);
      if (converter.version !== 2) {
        throw badArgument(
          `converterId: ${body.type} needs a version 2 converter; ${converter.name} is version ${converter.version}`,
        );
      }
      const existingId = body.id?.id;
      if (existingId !== undefined) {
        const existing = tenant.integrations.get(existingId);
        if (!existing) throw notFound(`Integration ${existingId} not found`);
        if (!scope.canSeeCustomer(principal, existing.customerId)) throw forbidden();
      }
      const id = existingId ?? integrationIds.uuid();
      const record = {
        ...body,
        id: { entityType: 'INTEGRATION', id },
        createdTime: clock.now(),
        httpEndpoint:
          body.httpEndpoint ?? `/api/v2/integrations/${body.type === 'MQTT_V2' ? 'mqtt' : 'http'}/${id}`,
      };
      tenant.integrations.set(id, { id, name: body.name, customerId: application.customerId, record });
      world.integrationTraffic.carry(record);
      return record;
    },

    listEnhancedEvents: ({ principal, query }) =>
      eventPage(listEvents(tenant.events, visibleEvent(principal), query)),

    listRaisedEnhancedEvents: ({ principal, query }) =>
      eventPage(listEvents(tenant.events, visibleEvent(principal), { ...query, state: 'Raised' })),

    listEntityEnhancedEvents: ({ principal, params, query }) => {
      const owner =
        params.entityType === 'GATEWAY'
          ? tenant.gatewaysById.get(params.entityId)?.customerId
          : params.entityType === 'DEVICE'
            ? tenant.devicesById.get(params.entityId)?.customerId
            : tenant.integrations.get(params.entityId)?.customerId;
      if (owner === undefined) throw notFound(`${params.entityType} ${params.entityId} not found`);
      scope.requireCustomerAccess(principal, owner);
      fleet.refreshOutages();
      return eventPage(
        listEvents(
          tenant.events,
          (event) => event.entityId === params.entityId && event.source === params.entityType,
          {
            ...query,
            eventType: params.eventType,
          },
        ),
      );
    },

    listCustomerGateways: ({ principal, params, query }) => {
      scope.requireCustomer(principal, params.customerId);
      return gatewayPage(
        `customer:${params.customerId}`,
        (gateway) => gateway.customerId === params.customerId,
        query,
      );
    },

    listGatewayGroupGateways: ({ principal, params, query }) => {
      const group = tenant.gatewayGroups.get(params.gatewayGroupId);
      if (!group) throw notFound(`Gateway group ${params.gatewayGroupId} not found`);
      scope.requireCustomerAccess(principal, group.customerId);
      return gatewayPage(`group:${group.id}`, (gateway) => gateway.gatewayGroupId === group.id, query);
    },

    listProviderGateways: ({ principal, params, query }) => {
      scope.requireProvider(principal, params.providerId);
      return gatewayPage('provider', () => true, query);
    },
  };
}

/** Token lifetimes are stored as an object; a string additionalInfo holding JSON is read as that object. */
function parseAdditionalInfo(value: string | Record<string, unknown>): Record<string, unknown> | string {
  if (typeof value !== 'string') return { ...value };
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Free text stays free text.
  }
  return value;
}

/** The network settings an application or device has before anyone saved any (the spec's sample values). */
export function defaultNetworkSettings(
  entityType: string,
  entityId: string,
  now: number,
): Record<string, unknown> {
  return {
    id: { id: `ns-${entityType.toLowerCase()}-${entityId}` },
    createdTime: now,
    additionalInfo: null,
    entityId: { entityType, id: entityId },
    rxWindow: 1,
    rxDelay: 1,
    rx2DataRate: -1,
    rx2Frequency: 923300000,
    rx1DataRateOffset: 0,
    adrInterval: 20,
    installationMargin: 10,
    cfList: [],
    chMaskCtrlDataList: null,
    newChIndex: 0,
    newChFrequency: 0,
    newChMaxDr: 0,
    newChMinDr: 0,
    pingSlotDr: 8,
    pingSlotFreq: 923300000,
    beaconFreq: 923300000,
    clearDlQueueUponJoin: false,
    adrMinDr: null,
    adrMaxDr: null,
    adrMinTxPower: null,
    adrMaxTxPower: null,
    adrGracePeriod: null,
    downlinkDwellTime: null,
    uplinkDwellTime: null,
    maxEIRP: null,
    adrNbTransRanges: Object.fromEntries(
      Array.from({ length: 16 }, (_, index) => [
        String(index),
        { minNbTrans: 1, maxNbTrans: index < 3 ? 3 : 2 },
      ]),
    ),
    adrConservativeSlope: false,
    fcntCheck: true,
  };
}
