// Conformance: every endpoint of the table and every command of the catalogue, called through the typed client
// with a valid request, gets a schema-valid answer from the simulator; every rule of the spec, broken on
// purpose, is refused by the client before sending and answered 400 by the simulator when sent anyway.
import { afterAll, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../electron/services/api';
import type { Session } from '../../../electron/services/session';
import {
  COMMAND_NAMES,
  encodeQuery,
  ENDPOINT_NAMES,
  endpoints,
  fillPath,
  FirewallConfigurationSchema,
  gatewayCommands,
  type CommandName,
  type EndpointName,
} from '../../../electron/shared/api';
import type { RunningSimulator } from '../../../simulator';
import { customersOf, loginAs, startTestSimulator } from '../../helpers/simulator';

// Started at collection time: the test tables below are built from the fixture's ids.
const simulator: RunningSimulator = await startTestSimulator({
  seed: 7,
  gateways: 30,
  commandTimeoutMs: 300,
  rebootMs: 60_000,
});
const provider: Session = await loginAs(simulator, 'provider');
afterAll(() => simulator.close());

function fixtureIds() {
  const { acme } = customersOf(simulator);
  const fixture = simulator.fixture;
  const v2 = fixture.converters.find((converter) => converter.version === 2)!;
  const series = fixture.performance[0]!;
  return {
    acme,
    providerId: fixture.providerId,
    subCustomerId: acme.subCustomers[0]!.id,
    gatewayGroupId: acme.gatewayGroups[0] ?? acme.subCustomers[0]!.gatewayGroups[0]!,
    applicationId: acme.applications[0] ?? acme.subCustomers[0]!.applications[0]!,
    converterId: v2.id,
    deviceId: fixture.devices[0]!.id,
    gatewayId: fixture.gateways[0]!.id,
    series,
  };
}

const integration = (ids: ReturnType<typeof fixtureIds>, configuration: Record<string, unknown> = {}) => ({
  name: 'Conformance uplinks',
  type: 'MQTT_V2' as const,
  applicationId: { entityType: 'APPLICATION' as const, id: ids.applicationId },
  converterId: { entityType: 'CONVERTER' as const, id: ids.converterId },
  configuration: { host: 'broker.example.com', port: 1883, pushTopic: 'uplinks', ...configuration },
});

/** A valid request for each endpoint (the command endpoint is covered command by command below). */
function validRequests(): Record<Exclude<EndpointName, 'gatewayCommand'>, () => Promise<unknown>> {
  const ids = fixtureIds();
  const now = simulator.clock.now();
  const series = { measurement: ids.series.measurement, field: ids.series.field };
  const window = { startMs: now - 86_400_000, stopMs: now, limit: 50 };
  return {
    login: () =>
      provider.call('login', { params: {}, body: { username: 'tech@acme.demo', password: 'demo-tech' } }),
    refreshToken: async () => {
      const session = await loginAs(simulator, 'acme');
      return session.call('refreshToken', { params: {}, body: { refreshToken: session.refreshToken! } });
    },
    getCurrentUser: () => provider.call('getCurrentUser', { params: {} }),
    getCustomer: () => provider.call('getCustomer', { params: { customerId: ids.acme.id } }),
    saveCustomer: async () => {
      const customer = await provider.call('getCustomer', { params: { customerId: ids.acme.id } });
      return provider.call('saveCustomer', {
        params: {},
        body: { ...customer, additionalInfo: { accessTokenTtlSeconds: 7200, refreshTokenTtlSeconds: 86400 } },
      });
    },
    listCustomerDevices: () =>
      provider.call('listCustomerDevices', { params: { customerId: ids.acme.id }, query: { active: true } }),
    listSubCustomerDevices: () =>
      provider.call('listSubCustomerDevices', { params: { subCustomerId: ids.subCustomerId } }),
    saveNetworkSettings: () =>
      provider.call('saveNetworkSettings', {
        params: {},
        body: {
          entityId: { entityType: 'APPLICATION', id: ids.applicationId },
          adrNbTransRanges: { '0': { minNbTrans: 1, maxNbTrans: 3 }, '5': { minNbTrans: 2, maxNbTrans: 2 } },
          adrConservativeSlope: true,
        },
      }),
    getNetworkSettings: () =>
      provider.call('getNetworkSettings', {
        params: { entityType: 'APPLICATION', entityId: ids.applicationId },
      }),
    getGatewayPerformance: () =>
      provider.call('getGatewayPerformance', {
        params: { gatewayId: ids.gatewayId, ...series },
        query: window,
      }),
    getCustomerPerformance: () =>
      provider.call('getCustomerPerformance', {
        params: { customerId: ids.acme.id, ...series },
        query: { ...window, showTags: 'gatewayId,period' },
      }),
    getProviderPerformance: () =>
      provider.call('getProviderPerformance', {
        params: { providerId: ids.providerId, ...series },
        query: { ...window, showTags: 'customerId' },
      }),
    getGatewayGroupPerformance: () =>
      provider.call('getGatewayGroupPerformance', {
        params: { gatewayGroupId: ids.gatewayGroupId, ...series },
        query: window,
      }),
    saveIntegration: () => provider.call('saveIntegration', { params: {}, body: integration(ids) }),
    listEnhancedEvents: () =>
      provider.call('listEnhancedEvents', {
        params: {},
        query: { startTs: 0, limit: 20, page: 0, sortField: 'start_ts', sortOrder: 'desc' },
      }),
    listRaisedEnhancedEvents: () =>
      provider.call('listRaisedEnhancedEvents', { params: {}, query: { startTs: 0, severity: 'Major' } }),
    listEntityEnhancedEvents: () =>
      provider.call('listEntityEnhancedEvents', {
        params: { entityType: 'GATEWAY', entityId: ids.gatewayId, eventType: 'Alarms' },
        query: { startTs: 0, limit: 10 },
      }),
    listCustomerGateways: () =>
      provider.call('listCustomerGateways', { params: { customerId: ids.acme.id }, query: {} }),
    listGatewayGroupGateways: () =>
      provider.call('listGatewayGroupGateways', {
        params: { gatewayGroupId: ids.gatewayGroupId },
        query: { limit: 5 },
      }),
    listProviderGateways: () =>
      provider.call('listProviderGateways', {
        params: { providerId: ids.providerId },
        query: { sortField: 'NAME', sortDirection: 'ASC' },
      }),
  };
}

describe('every endpoint answers a valid request with a schema-valid answer', () => {
  it('has a valid request for every endpoint of the table', () => {
    const covered = [...Object.keys(validRequests()), 'gatewayCommand'].sort();
    expect(covered).toEqual([...ENDPOINT_NAMES].sort());
  });

  it.each(ENDPOINT_NAMES.filter((name) => name !== 'gatewayCommand'))('%s', async (name) => {
    // The client validates the answer against the endpoint's response schema: resolving means it conforms.
    await expect(validRequests()[name as Exclude<EndpointName, 'gatewayCommand'>]()).resolves.not.toThrow();
  });
});

/** Online gateways, newest BSP first, with an Ethernet link: each disruptive command gets one of its own. */
function onlineGateways() {
  return simulator.fixture.gateways
    .filter(
      (gateway) =>
        gateway.initialStatus === 'ONLINE' && gateway.hasEthernetLink && gateway.bspVersion === '6.0.2',
    )
    .map((gateway) => gateway.id);
}

type CommandCall = (session: Session, gatewayId: string) => Promise<unknown>;

/** A valid call for each command, reading what it needs (indexes, names) from the gateway first. */
const validCommands: Record<CommandName, CommandCall> = {
  ping: (session, id) => session.command(id, 'ping', { packetsCount: 3, destination: '8.8.8.8' }),
  reboot: (session, id) => session.command(id, 'reboot'),
  getAntennasCount: (session, id) => session.command(id, 'getAntennasCount'),
  getPublicKey: (session, id) => session.command(id, 'getPublicKey'),
  reverseSsh: (session, id) =>
    session.command(id, 'reverseSsh', {
      options: '',
      sshRevPort: 40_022,
      username: 'relay',
      password: 'relay-password',
      sshHost: '127.0.0.1',
      sshPort: 2222,
    }),
  stopReverseSsh: (session, id) => session.command(id, 'stopReverseSsh'),
  getGpsCoordinates: (session, id) => session.command(id, 'getGpsCoordinates'),
  getGatewayInfo: (session, id) => session.command(id, 'getGatewayInfo'),
  getRadioStatistics: (session, id) => session.command(id, 'getRadioStatistics', { index: 0 }),
  resetRadioStatisticsCounters: (session, id) => session.command(id, 'resetRadioStatisticsCounters'),
  getSpectralScanParams: (session, id) => session.command(id, 'getSpectralScanParams'),
  getSpectralScanProgress: (session, id) => session.command(id, 'getSpectralScanProgress'),
  getSpectralScanResults: (session, id) => session.command(id, 'getSpectralScanResults'),
  getBackups: (session, id) => session.command(id, 'getBackups'),
  createBackup: (session, id) => session.command(id, 'createBackup', { description: 'conformance' }),
  restoreBackup: async (session, id) => {
    await session.command(id, 'createBackup', { description: 'before restore' });
    const { backups } = await session.command(id, 'getBackups');
    return session.command(id, 'restoreBackup', { index: backups.at(-1)!.index });
  },
  getSoftwareVersions: (session, id) => session.command(id, 'getSoftwareVersions'),
  getUpgradableSoftware: (session, id) => session.command(id, 'getUpgradableSoftware'),
  getInstallableSoftware: (session, id) => session.command(id, 'getInstallableSoftware'),
  upgradeSoftware: (session, id) => session.command(id, 'upgradeSoftware', { packageToUpgrade: 'all' }),
  installSoftware: async (session, id) => {
    const installable = await session.command(id, 'getInstallableSoftware');
    return session.command(id, 'installSoftware', { packageToInstall: installable[0]!.name });
  },
  getLastInstallUpgradeStatus: (session, id) => session.command(id, 'getLastInstallUpgradeStatus'),
  getBspStatus: (session, id) => session.command(id, 'getBspStatus'),
  getWmDeviceInformation: (session, id) => session.command(id, 'getWmDeviceInformation'),
  getWmHomeNetworkBranch: (session, id) => session.command(id, 'getWmHomeNetworkBranch'),
  getWmRfInformation: (session, id) => session.command(id, 'getWmRfInformation'),
  getWmNetworkInfo: (session, id) => session.command(id, 'getWmNetworkInfo'),
  setWmPreferredNetwork: async (session, id) => {
    const { availableNetworks } = await session.command(id, 'getWmNetworkInfo');
    const network = availableNetworks[0]!;
    return session.command(id, 'setWmPreferredNetwork', { mcc: network.MCC, mnc: network.mnc });
  },
  getWmActiveProfileParameters: (session, id) => session.command(id, 'getWmActiveProfileParameters'),
  getWmCallStatistics: (session, id) => session.command(id, 'getWmCallStatistics'),
  getWmApns: (session, id) => session.command(id, 'getWmApns'),
  getWmPDP_Profiles: (session, id) => session.command(id, 'getWmPDP_Profiles'),
  modifyWmPDP_Profiles: async (session, id) => {
    const profiles = await session.command(id, 'getWmPDP_Profiles');
    const body =
      profiles && typeof profiles === 'object' && !Array.isArray(profiles) ? profiles : { profiles };
    return session.command(id, 'modifyWmPDP_Profiles', body as Record<string, unknown>);
  },
  addWmApn: (session, id) => session.command(id, 'addWmApn', { name: 'iot.conformance' }),
  updateWmApn: async (session, id) => {
    const { apns } = await session.command(id, 'getWmApns');
    const apn = apns[0]!;
    return session.command(id, 'updateWmApn', {
      name: apn.name,
      type: apn.type,
      idxModem: apn.idxModem,
      idx: apn.idx,
    });
  },
  deleteWmApn: async (session, id) => {
    await session.command(id, 'addWmApn', { name: 'iot.to-delete' });
    const { apns } = await session.command(id, 'getWmApns');
    return session.command(id, 'deleteWmApn', apns.find((apn) => apn.name === 'iot.to-delete')!.idx);
  },
  getWmStatusApn: (session, id) => session.command(id, 'getWmStatusApn'),
  getConnectivityTypes: (session, id) => session.command(id, 'getConnectivityTypes'),
  setPreferredFallbackConnectivityType: async (session, id) => {
    const types = await session.command(id, 'getConnectivityTypes');
    const preferred = types.find((type) => type.preferred) ?? types[0]!;
    const fallback = types.find((type) => type.fallback) ?? types[1] ?? preferred;
    return session.command(id, 'setPreferredFallbackConnectivityType', {
      preferredIdx: preferred.index,
      fallbackIdx: fallback.index,
    });
  },
  setPreferredPingIpAddress: (session, id) =>
    session.command(id, 'setPreferredPingIpAddress', { ipAddr: '1.1.1.1' }),
  getPreferredPingIpAddress: (session, id) => session.command(id, 'getPreferredPingIpAddress'),
  getFirewallConfiguration: (session, id) => session.command(id, 'getFirewallConfiguration'),
  setFirewallConfiguration: async (session, id) => {
    const current = FirewallConfigurationSchema.parse(await session.command(id, 'getFirewallConfiguration'));
    return session.command(id, 'setFirewallConfiguration', {
      ...current,
      ping: { ...current.ping, enabled: true },
    });
  },
};

describe('every gateway command answers a valid request with a schema-valid answer', () => {
  it('has a valid call for every command of the catalogue', () => {
    expect(Object.keys(validCommands).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it.each(COMMAND_NAMES)('%s', async (name) => {
    const gateways = onlineGateways();
    // Commands that restart the gateway each get a gateway of their own; the others share the first one.
    const restarts = ['reboot', 'restoreBackup', 'upgradeSoftware', 'installSoftware'];
    const gatewayId = restarts.includes(name) ? gateways[1 + restarts.indexOf(name)]! : gateways[0]!;
    await expect(validCommands[name](provider, gatewayId)).resolves.not.toThrow();
  });

  it('refuses newest-BSP-only commands on an older BSP with 400 and says why', async () => {
    const old = simulator.fixture.gateways.find(
      (gateway) => gateway.bspVersion !== '6.0.2' && gateway.initialStatus === 'ONLINE',
    )!;
    const error = await provider.command(old.id, 'getWmNetworkInfo').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400 });
    expect((error as Error).message).toMatch(/BSP/);
    expect(gatewayCommands.getWmNetworkInfo.newestBspOnly).toBe(true);
  });
});

interface Violation {
  rule: string;
  /** A request through the client, expected to be refused before sending. */
  viaClient: () => Promise<unknown>;
  /** The same request on the wire. */
  raw: { method: 'GET' | 'POST'; path: string; body?: string };
  /** The failing field's path as the client names it (query./body. prefixed) and as the server does. */
  path: string;
}

function endpointViolation(
  rule: string,
  name: Exclude<EndpointName, 'gatewayCommand'>,
  request: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown },
  path: string,
): Violation {
  const definition = endpoints[name];
  const search = encodeQuery(request.query);
  return {
    rule,
    viaClient: () =>
      // eslint-disable-next-line no-restricted-syntax -- a request the types refuse is what the client must refuse
      provider.call(name, {
        params: request.params ?? {},
        query: request.query,
        body: request.body,
      } as never),
    raw: {
      method: definition.method,
      path: fillPath(definition.path, request.params ?? {}) + (search ? `?${search}` : ''),
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    },
    path,
  };
}

function commandViolation(rule: string, name: CommandName, request: unknown, path: string): Violation {
  const gatewayId = () => onlineGateways()[0]!;
  return {
    rule,
    // eslint-disable-next-line no-restricted-syntax -- a request the types refuse is what the client must refuse
    viaClient: () => provider.command(gatewayId(), name, request as never),
    raw: {
      method: 'POST',
      path: `/api/gateway/{gatewayId}/command/${gatewayCommands[name].path}`,
      body: JSON.stringify(request),
    },
    path,
  };
}

function violations(): Violation[] {
  const ids = fixtureIds();
  const settings = (extra: Record<string, unknown>) => ({
    body: { entityId: { entityType: 'APPLICATION', id: ids.applicationId }, ...extra },
  });
  const http = (configuration: Record<string, unknown>) => ({
    body: {
      ...integration(ids),
      type: 'HTTP_V2',
      configuration: { host: 'https://ingest.example.com', port: 443, ...configuration },
    },
  });
  const mqtt = (configuration: Record<string, unknown>) => ({ body: integration(ids, configuration) });
  const customer = { params: { customerId: ids.acme.id } };
  const events = (query: Record<string, unknown>) => ({ query: { startTs: 0, ...query } });
  const gateways = (query: Record<string, unknown>) => ({ params: { providerId: ids.providerId }, query });
  const performance = (query: Record<string, unknown>) => ({
    params: { customerId: ids.acme.id, measurement: ids.series.measurement, field: ids.series.field },
    query,
  });
  return [
    endpointViolation(
      'device list: active other than true or false',
      'listCustomerDevices',
      { ...customer, query: { active: 'maybe' } },
      'query.active',
    ),
    endpointViolation(
      'sub-customer device list: active other than true or false',
      'listSubCustomerDevices',
      { params: { subCustomerId: ids.subCustomerId }, query: { active: 'yes' } },
      'query.active',
    ),
    endpointViolation('login: username required', 'login', { body: { password: 'x' } }, 'body.username'),
    endpointViolation('refresh: refreshToken required', 'refreshToken', { body: {} }, 'body.refreshToken'),
    endpointViolation(
      'token lifetime: whole seconds',
      'saveCustomer',
      {
        body: {
          id: { entityType: 'CUSTOMER', id: ids.acme.id },
          additionalInfo: { accessTokenTtlSeconds: 1.5 },
        },
      },
      'body.additionalInfo',
    ),
    endpointViolation(
      'NbTrans: minNbTrans at least 1',
      'saveNetworkSettings',
      settings({ adrNbTransRanges: { '0': { minNbTrans: 0, maxNbTrans: 2 } } }),
      'body.adrNbTransRanges.0.minNbTrans',
    ),
    endpointViolation(
      'NbTrans: maxNbTrans at most 3',
      'saveNetworkSettings',
      settings({ adrNbTransRanges: { '3': { minNbTrans: 1, maxNbTrans: 4 } } }),
      'body.adrNbTransRanges.3.maxNbTrans',
    ),
    endpointViolation(
      'NbTrans: min not above max',
      'saveNetworkSettings',
      settings({ adrNbTransRanges: { '7': { minNbTrans: 3, maxNbTrans: 1 } } }),
      'body.adrNbTransRanges.7.minNbTrans',
    ),
    endpointViolation(
      'NbTrans: data rates DR0 to DR15 only',
      'saveNetworkSettings',
      settings({ adrNbTransRanges: { '16': { minNbTrans: 1, maxNbTrans: 1 } } }),
      'body.adrNbTransRanges.16',
    ),
    endpointViolation(
      'ADR: adrMaxNbTrans removed',
      'saveNetworkSettings',
      settings({ adrMaxNbTrans: 3 }),
      'body.adrMaxNbTrans',
    ),
    endpointViolation(
      'ADR: adrMinNbTrans removed',
      'saveNetworkSettings',
      settings({ adrMinNbTrans: 1 }),
      'body.adrMinNbTrans',
    ),
    endpointViolation(
      'network settings: entity type',
      'getNetworkSettings',
      { params: { entityType: 'GATEWAY', entityId: 'x' } },
      'entityType',
    ),
    endpointViolation(
      'MQTT_V2: no port in host',
      'saveIntegration',
      mqtt({ host: 'broker.example.com:1883' }),
      'body.configuration.host',
    ),
    endpointViolation(
      'MQTT_V2: port required',
      'saveIntegration',
      mqtt({ port: undefined }),
      'body.configuration.port',
    ),
    endpointViolation(
      'MQTT_V2: clientId ≤ 23 on 3.1',
      'saveIntegration',
      mqtt({ mqttVersion: 'MQTT_VERSION_3_1', clientId: 'c'.repeat(24) }),
      'body.configuration.clientId',
    ),
    endpointViolation(
      'MQTT_V2: clientId ≤ 256 on 3.1.1',
      'saveIntegration',
      mqtt({ clientId: 'c'.repeat(257) }),
      'body.configuration.clientId',
    ),
    endpointViolation(
      'MQTT_V2: mqttVersion enum',
      'saveIntegration',
      mqtt({ mqttVersion: 'MQTT_VERSION_5' }),
      'body.configuration.mqttVersion',
    ),
    endpointViolation(
      'MQTT_V2: pendingQueueMaxSize ≥ 1',
      'saveIntegration',
      mqtt({ pendingQueueMaxSize: 0 }),
      'body.configuration.pendingQueueMaxSize',
    ),
    endpointViolation(
      'MQTT_V2: pendingQueueMaxSize ≤ 10000',
      'saveIntegration',
      mqtt({ pendingQueueMaxSize: 10_001 }),
      'body.configuration.pendingQueueMaxSize',
    ),
    endpointViolation(
      'MQTT_V2: maxInflight ≥ 1',
      'saveIntegration',
      mqtt({ maxInflight: 0 }),
      'body.configuration.maxInflight',
    ),
    endpointViolation(
      'MQTT_V2: maxInflight ≤ 100',
      'saveIntegration',
      mqtt({ maxInflight: 101 }),
      'body.configuration.maxInflight',
    ),
    endpointViolation(
      'MQTT_V2: connectionTimeoutS ≥ 1',
      'saveIntegration',
      mqtt({ connectionTimeoutS: 0 }),
      'body.configuration.connectionTimeoutS',
    ),
    endpointViolation(
      'MQTT_V2: keepAliveIntervalS ≥ 1',
      'saveIntegration',
      mqtt({ keepAliveIntervalS: 0 }),
      'body.configuration.keepAliveIntervalS',
    ),
    endpointViolation(
      'MQTT_V2: autoreconnectIntervalS ≥ 1',
      'saveIntegration',
      mqtt({ autoreconnectIntervalS: 0 }),
      'body.configuration.autoreconnectIntervalS',
    ),
    endpointViolation(
      'MQTT_V2: pendingQueueOnErrorProcessingRetryIntervalS ≥ 1',
      'saveIntegration',
      mqtt({ pendingQueueOnErrorProcessingRetryIntervalS: 0 }),
      'body.configuration.pendingQueueOnErrorProcessingRetryIntervalS',
    ),
    endpointViolation(
      'MQTT_V2: pushTopic not empty',
      'saveIntegration',
      mqtt({ pushTopic: '' }),
      'body.configuration.pushTopic',
    ),
    endpointViolation(
      'MQTT_V2: pushQos enum',
      'saveIntegration',
      mqtt({ pushQos: 'ONCE' }),
      'body.configuration.pushQos',
    ),
    endpointViolation(
      'MQTT_V2: pullQos enum',
      'saveIntegration',
      mqtt({ pullQos: 'TWICE' }),
      'body.configuration.pullQos',
    ),
    endpointViolation(
      'MQTT_V2: certificate in PEM form',
      'saveIntegration',
      mqtt({ caCertificate: 'not pem' }),
      'body.configuration.caCertificate',
    ),
    endpointViolation(
      'HTTP_V2: host with protocol',
      'saveIntegration',
      http({ host: 'ingest.example.com' }),
      'body.configuration.host',
    ),
    endpointViolation(
      'HTTP_V2: no port in host',
      'saveIntegration',
      http({ host: 'https://ingest.example.com:8443' }),
      'body.configuration.host',
    ),
    endpointViolation(
      'HTTP_V2: authMethod enum',
      'saveIntegration',
      http({ authMethod: 'TOKEN' }),
      'body.configuration.authMethod',
    ),
    endpointViolation(
      'HTTP_V2: BASIC_AUTH needs username',
      'saveIntegration',
      http({ authMethod: 'BASIC_AUTH', password: 'p' }),
      'body.configuration.username',
    ),
    endpointViolation(
      'HTTP_V2: BASIC_AUTH needs password',
      'saveIntegration',
      http({ authMethod: 'BASIC_AUTH', username: 'u' }),
      'body.configuration.password',
    ),
    endpointViolation(
      'integration: type MQTT_V2 or HTTP_V2',
      'saveIntegration',
      { body: { ...integration(ids), type: 'MQTT' } },
      'body.type',
    ),
    endpointViolation(
      'events: startTs required',
      'listEnhancedEvents',
      { query: { limit: 10 } },
      'query.startTs',
    ),
    endpointViolation('events: limit ≥ 1', 'listEnhancedEvents', events({ limit: 0 }), 'query.limit'),
    endpointViolation('events: limit ≤ 100', 'listEnhancedEvents', events({ limit: 101 }), 'query.limit'),
    endpointViolation('events: page from 0', 'listEnhancedEvents', events({ page: -1 }), 'query.page'),
    endpointViolation(
      'events: severity enum',
      'listEnhancedEvents',
      events({ severity: 'Warning' }),
      'query.severity',
    ),
    endpointViolation(
      'events: source enum',
      'listEnhancedEvents',
      events({ source: 'USER' }),
      'query.source',
    ),
    endpointViolation('events: state enum', 'listEnhancedEvents', events({ state: 'Open' }), 'query.state'),
    endpointViolation(
      'events: eventType enum',
      'listEnhancedEvents',
      events({ eventType: 'Warnings' }),
      'query.eventType',
    ),
    endpointViolation(
      'events: eventName from the list',
      'listEnhancedEvents',
      events({ eventName: 'GATEWAY_ON_FIRE' }),
      'query.eventName',
    ),
    endpointViolation(
      'raised events: no state filter',
      'listRaisedEnhancedEvents',
      events({ state: 'Raised' }),
      'query.state',
    ),
    endpointViolation(
      'entity events: limit ≤ 100',
      'listEntityEnhancedEvents',
      {
        params: { entityType: 'GATEWAY', entityId: ids.gatewayId, eventType: 'Alarms' },
        query: { startTs: 0, limit: 500 },
      },
      'query.limit',
    ),
    endpointViolation(
      'entity events: event type from the list',
      'listEntityEnhancedEvents',
      {
        params: { entityType: 'GATEWAY', entityId: ids.gatewayId, eventType: 'Warnings' },
        query: { startTs: 0 },
      },
      'eventType',
    ),
    endpointViolation(
      'gateway list: limit ≥ 1',
      'listProviderGateways',
      gateways({ limit: 0 }),
      'query.limit',
    ),
    endpointViolation(
      'gateway list: page from 0',
      'listProviderGateways',
      gateways({ page: -1 }),
      'query.page',
    ),
    endpointViolation(
      'gateway list: sortDirection ASC or DESC',
      'listProviderGateways',
      gateways({ sortDirection: 'UP' }),
      'query.sortDirection',
    ),
    endpointViolation(
      'gateway list: one of the nine sort fields',
      'listProviderGateways',
      gateways({ sortField: 'LAST_SEEN' }),
      'query.sortField',
    ),
    endpointViolation(
      'performance: order ASC or DESC',
      'getCustomerPerformance',
      performance({ order: 'UP' }),
      'query.order',
    ),
    endpointViolation(
      'performance: limit ≥ 1',
      'getCustomerPerformance',
      performance({ limit: 0 }),
      'query.limit',
    ),
    endpointViolation(
      'performance: showTags from the six tags',
      'getCustomerPerformance',
      performance({ showTags: 'gatewayId,colour' }),
      'query.showTags',
    ),
    endpointViolation(
      'performance: stopMs not before startMs',
      'getCustomerPerformance',
      performance({ startMs: 10, stopMs: 5 }),
      'query.stopMs',
    ),
    commandViolation(
      'ping: packetsCount ≥ 1',
      'ping',
      { packetsCount: 0, destination: '8.8.8.8' },
      'packetsCount',
    ),
    commandViolation(
      'ping: destination a host or IP',
      'ping',
      { packetsCount: 1, destination: 'not a host!' },
      'destination',
    ),
    commandViolation(
      'reverseSsh: sshRevPort a port',
      'reverseSsh',
      { options: '', sshRevPort: 70_000, username: 'u', password: 'p', sshHost: '127.0.0.1', sshPort: 22 },
      'sshRevPort',
    ),
    commandViolation(
      'getRadioStatistics: index a whole number',
      'getRadioStatistics',
      { index: 1.5 },
      'index',
    ),
    commandViolation(
      'createBackup: description required',
      'createBackup',
      { description: '' },
      'description',
    ),
    commandViolation('restoreBackup: index not negative', 'restoreBackup', { index: -1 }, 'index'),
    commandViolation(
      'upgradeSoftware: package required',
      'upgradeSoftware',
      { packageToUpgrade: '' },
      'packageToUpgrade',
    ),
    commandViolation('installSoftware: package required', 'installSoftware', {}, 'packageToInstall'),
    commandViolation(
      'setWmPreferredNetwork: mcc of 3 digits',
      'setWmPreferredNetwork',
      { mcc: '30', mnc: '720' },
      'mcc',
    ),
    commandViolation('addWmApn: name required', 'addWmApn', { name: '' }, 'name'),
    commandViolation('updateWmApn: idx required', 'updateWmApn', { name: 'a', type: 0, idxModem: 0 }, 'idx'),
    commandViolation('deleteWmApn: a bare integer', 'deleteWmApn', { idx: 3 }, '(root)'),
    commandViolation(
      'setPreferredFallbackConnectivityType: indexes',
      'setPreferredFallbackConnectivityType',
      { preferredIdx: -1, fallbackIdx: 0 },
      'preferredIdx',
    ),
    commandViolation(
      'setPreferredPingIpAddress: an IP address',
      'setPreferredPingIpAddress',
      { ipAddr: 'gateway.local' },
      'ipAddr',
    ),
    commandViolation(
      'setFirewallConfiguration: ssh section',
      'setFirewallConfiguration',
      {
        enabled: true,
        doSPrevention: { enabled: false, perMinLimit: 1, burstLimit: 1 },
        ping: { enabled: true, limit: { enabled: false, pingPerMinLimit: 1, pingBurstLimit: 1 } },
        filters: [],
      },
      'ssh',
    ),
  ];
}

describe('every rule of the spec is enforced on both sides', () => {
  it.each(violations().map((violation) => [violation.rule, violation] as const))(
    '%s',
    async (_rule, violation) => {
      const refused = await violation.viaClient().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RequestValidationError);
      expect((refused as RequestValidationError).issues.map((issue) => issue.path)).toContain(violation.path);

      const path = violation.raw.path.replace('{gatewayId}', onlineGateways()[0]!);
      const response = await fetch(simulator.url + path, {
        method: violation.raw.method,
        headers: { 'X-Authorization': `Bearer ${provider.accessToken}`, 'Content-Type': 'application/json' },
        body: violation.raw.body,
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { message: string; errorCode: number };
      const serverPath = violation.path.replace(/^(query|body)\./, '');
      expect(body.message).toContain(serverPath);
      expect([30, 31]).toContain(body.errorCode);
    },
  );
});
