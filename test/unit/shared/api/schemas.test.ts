import { describe, expect, it } from 'vitest';
import { commandConsequence } from '../../../../electron/shared/api/command-titles';
import {
  COMMAND_NAMES,
  decodeQuery,
  describeIssues,
  DeviceListQuerySchema,
  ENDPOINT_NAMES,
  endpoints,
  gatewayCommands,
  GatewayListQuerySchema,
  IntegrationSchema,
  NetworkSettingsWriteSchema,
  toNetworkSettingsWrite,
} from '../../../../electron/shared/api';

const mqtt = (configuration: Record<string, unknown>) => ({
  name: 'Uplinks',
  type: 'MQTT_V2',
  applicationId: { entityType: 'APPLICATION', id: 'app-1' },
  converterId: { entityType: 'CONVERTER', id: 'conv-2' },
  configuration: { host: 'broker.example.com', port: 8883, pushTopic: 'uplinks', ...configuration },
});

function failingPaths(result: { success: boolean; error?: Parameters<typeof describeIssues>[0] }) {
  return result.success ? [] : describeIssues(result.error!).map((issue) => issue.path);
}

describe('the endpoint table', () => {
  it('holds every endpoint of the spec plus GET /api/auth/user', () => {
    const paths = ENDPOINT_NAMES.map((name) => `${endpoints[name].method} ${endpoints[name].path}`);
    expect(paths).toHaveLength(21);
    expect(paths).toContain('GET /api/auth/user');
    expect(paths).toContain('POST /api/gateway/{gatewayId}/command/{command}');
  });

  it('catalogues every gateway command of the spec with a group and a risk', () => {
    expect(COMMAND_NAMES).toHaveLength(43);
    const disruptive = COMMAND_NAMES.filter((name) => gatewayCommands[name].risk === 'disruptive').sort();
    expect(disruptive).toEqual(
      [
        'deleteWmApn',
        'installSoftware',
        'reboot',
        'restoreBackup',
        'setFirewallConfiguration',
        'setPreferredFallbackConnectivityType',
        'setWmPreferredNetwork',
        'upgradeSoftware',
      ].sort(),
    );
    for (const name of disruptive) expect(commandConsequence(name)).not.toMatch(/can disrupt/);
  });
});

describe('decodeQuery', () => {
  it('types numbers and booleans and leaves bad values for the schema to refuse', () => {
    expect(decodeQuery(GatewayListQuerySchema, { limit: '20', page: '3' })).toEqual({ limit: 20, page: 3 });
    expect(decodeQuery(DeviceListQuerySchema, { active: 'true' })).toEqual({ active: true });
    expect(
      DeviceListQuerySchema.safeParse(decodeQuery(DeviceListQuerySchema, { active: 'yes' })).success,
    ).toBe(false);
  });
});

describe('integration rules', () => {
  it('accepts a valid MQTT_V2 integration and fills the QoS defaults', () => {
    const parsed = IntegrationSchema.parse(mqtt({}));
    expect(parsed.configuration).toMatchObject({ pushQos: 'AT_LEAST_ONCE', pullQos: 'AT_LEAST_ONCE' });
  });

  it.each([
    [{ host: 'broker.example.com:1883' }, 'configuration.host'],
    [{ pushTopic: '' }, 'configuration.pushTopic'],
    [{ pendingQueueMaxSize: 10_001 }, 'configuration.pendingQueueMaxSize'],
    [{ maxInflight: 0 }, 'configuration.maxInflight'],
    [{ keepAliveIntervalS: 0 }, 'configuration.keepAliveIntervalS'],
    [{ mqttVersion: 'MQTT_VERSION_3_1', clientId: 'x'.repeat(24) }, 'configuration.clientId'],
    [{ clientId: 'x'.repeat(257) }, 'configuration.clientId'],
    [{ pushQos: 'ALWAYS' }, 'configuration.pushQos'],
    [{ caCertificate: 'not a certificate' }, 'configuration.caCertificate'],
  ])('refuses MQTT_V2 configuration %o at %s', (configuration, path) => {
    expect(failingPaths(IntegrationSchema.safeParse(mqtt(configuration)))).toEqual([path]);
  });

  it('allows a 256-character clientId on MQTT 3.1.1', () => {
    expect(IntegrationSchema.safeParse(mqtt({ clientId: 'x'.repeat(256) })).success).toBe(true);
  });

  it('requires username and password for BASIC_AUTH and a URL host without port for HTTP_V2', () => {
    const http = {
      ...mqtt({}),
      type: 'HTTP_V2',
      configuration: { host: 'https://ingest.example.com:8443', port: 443, authMethod: 'BASIC_AUTH' },
    };
    expect(failingPaths(IntegrationSchema.safeParse(http))).toEqual([
      'configuration.host',
      'configuration.username',
      'configuration.password',
    ]);
  });
});

describe('network settings rules', () => {
  const base = { entityId: { entityType: 'APPLICATION' as const, id: 'app-1' } };

  it('enforces 1 ≤ minNbTrans ≤ maxNbTrans ≤ 3 on data rates "0" to "15"', () => {
    const body = {
      ...base,
      adrNbTransRanges: {
        '0': { minNbTrans: 1, maxNbTrans: 3 },
        '5': { minNbTrans: 3, maxNbTrans: 2 },
        '15': { minNbTrans: 0, maxNbTrans: 4 },
        '16': { minNbTrans: 1, maxNbTrans: 1 },
      },
    };
    expect(failingPaths(NetworkSettingsWriteSchema.safeParse(body))).toEqual([
      'adrNbTransRanges.5.minNbTrans',
      'adrNbTransRanges.15.minNbTrans',
      'adrNbTransRanges.15.maxNbTrans',
      'adrNbTransRanges.16',
    ]);
  });

  it('refuses the removed adrMaxNbTrans and adrMinNbTrans, and drops them from a record read back', () => {
    expect(
      failingPaths(NetworkSettingsWriteSchema.safeParse({ ...base, adrMaxNbTrans: 2, adrMinNbTrans: 1 })),
    ).toEqual(['adrMaxNbTrans', 'adrMinNbTrans']);
    const readBack = { ...base, adrMaxNbTrans: 2, adrConservativeSlope: true };
    const body = toNetworkSettingsWrite(readBack);
    expect(body).toEqual({ ...base, adrConservativeSlope: true });
  });
});

describe('decodeQuery with hostile keys', () => {
  it('treats keys named like Object.prototype members as unknown fields', () => {
    const decoded = decodeQuery(DeviceListQuerySchema, { toString: '0', constructor: 'x' });
    expect(decoded).toEqual({ toString: '0', constructor: 'x' });
    expect(DeviceListQuerySchema.safeParse(decoded).success).toBe(false);
  });
});
