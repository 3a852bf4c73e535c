import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { rawClient } from './http-client';

describe('simulator error answers', () => {
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;
  let providerToken: string;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1' });
    client = rawClient(simulator);
    providerToken = (await client.login('provider@fieldkit.demo', 'demo-provider')).token;
  });
  afterAll(() => simulator.close());

  it('answers 404 with the error body for an unknown route', async () => {
    const answer = await client.get('/api/doesNotExist', providerToken);
    expect(answer).toMatchObject({
      status: 404,
      body: { status: 404, errorCode: 32, message: expect.any(String), timestamp: expect.any(Number) },
    });
  });

  it('answers 400 with the error body to a malformed URL', async () => {
    const answer = await client.get('/api/customer/%E0%A4%A', providerToken);
    expect(answer).toMatchObject({ status: 400, body: { status: 400, errorCode: 31 } });
  });

  it('answers 413 with the error body to a body over 1 MiB', async () => {
    const answer = await client.request('POST', '/api/auth/login', {
      body: 'x'.repeat(1_100_000),
      contentType: 'text/plain',
    });
    expect(answer).toMatchObject({ status: 413, body: { status: 413, errorCode: 31 } });
  });

  it('answers 400 to malformed JSON on login, never 500', async () => {
    const answer = await client.request('POST', '/api/auth/login', {
      body: '{"username":',
      contentType: 'text/plain',
    });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 31 } });
  });

  it('answers 400 naming every failing field of an integration', async () => {
    const application = simulator.fixture.customers[0]!.applications[0]!;
    const converter = simulator.fixture.converters.find((candidate) => candidate.version === 2)!;
    const answer = await client.post<{ message: string }>(
      '/api/integration',
      {
        name: 'uplinks',
        type: 'MQTT_V2',
        applicationId: { entityType: 'APPLICATION', id: application },
        converterId: { entityType: 'CONVERTER', id: converter.id },
        configuration: { host: 'broker.example.com:1883', port: 1883, pushTopic: '', maxInflight: 500 },
      },
      providerToken,
    );
    expect(answer.status).toBe(400);
    for (const path of ['configuration.host', 'configuration.pushTopic', 'configuration.maxInflight']) {
      expect(answer.body.message).toContain(path);
    }
  });

  it('refuses an integration with a version-1 converter and stores one with a version-2 converter', async () => {
    const application = simulator.fixture.customers[0]!.applications[0]!;
    const body = (converterId: string) => ({
      name: 'uplinks',
      type: 'HTTP_V2',
      applicationId: { entityType: 'APPLICATION', id: application },
      converterId: { entityType: 'CONVERTER', id: converterId },
      configuration: { host: 'https://hooks.example.com', port: 443, authMethod: 'NO_AUTH' },
    });
    const v1 = simulator.fixture.converters.find((candidate) => candidate.version === 1)!;
    const v2 = simulator.fixture.converters.find((candidate) => candidate.version === 2)!;
    const refused = await client.post<{ message: string }>('/api/integration', body(v1.id), providerToken);
    const stored = await client.post<{ id: { id: string } }>('/api/integration', body(v2.id), providerToken);
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringContaining('converterId') } });
    expect(stored.status).toBe(200);
    expect(stored.body.id.id).toEqual(expect.any(String));
  });

  it('round-trips network settings and refuses the removed ADR fields', async () => {
    const application = simulator.fixture.customers[0]!.applications[0]!;
    const path = `/api/networkSettings/APPLICATION/${application}`;
    const read = await client.get<Record<string, unknown>>(path, providerToken);
    expect(read.status).toBe(200);
    const ranges = { '0': { minNbTrans: 1, maxNbTrans: 2 }, '15': { minNbTrans: 3, maxNbTrans: 3 } };
    expect(
      (await client.post('/api/networkSettings', { ...read.body, adrNbTransRanges: ranges }, providerToken))
        .status,
    ).toBe(200);
    expect(
      (await client.get<{ adrNbTransRanges: unknown }>(path, providerToken)).body.adrNbTransRanges,
    ).toEqual(ranges);
    const removed = await client.post(
      '/api/networkSettings',
      { ...read.body, adrMaxNbTrans: 3 },
      providerToken,
    );
    const inverted = await client.post<{ message: string }>(
      '/api/networkSettings',
      { ...read.body, adrNbTransRanges: { '3': { minNbTrans: 3, maxNbTrans: 1 } } },
      providerToken,
    );
    expect(removed.status).toBe(400);
    expect(inverted).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('adrNbTransRanges.3') },
    });
  });

  it('answers 404 for network settings of an unknown device', async () => {
    expect((await client.get('/api/networkSettings/DEVICE/nope', providerToken)).status).toBe(404);
  });
});
