import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaptopIntegrationTester } from '../../../electron/services/integrations';
import { createIntegrationsHandlers } from '../../../electron/app/domains/integrations';
import { IntegrationTestInputSchema } from '../../../electron/shared/ipc/domains/integrations';
import { startMosquitto, type MosquittoBroker } from '../../helpers/mosquitto';

const CALL_CONTEXT = { channel: 'integrations:test' } as const;
const USER = { username: 'field-tech', password: 'roof-top-42' };

function mqttInput(broker: MosquittoBroker, overrides: Record<string, unknown> = {}, publish = false) {
  return IntegrationTestInputSchema.parse({
    type: 'MQTT_V2',
    publish,
    configuration: {
      host: broker.host,
      port: broker.port,
      token: USER.username,
      password: USER.password,
      pushTopic: 'uplinks/test',
      connectionTimeoutS: 5,
      ...overrides,
    },
  });
}

describe('integrations:test against a real Mosquitto', () => {
  let broker: MosquittoBroker;
  const handlers = createIntegrationsHandlers();
  const test = (input: Parameters<(typeof handlers)['integrations:test']>[0]) =>
    handlers['integrations:test'](input, CALL_CONTEXT);

  beforeAll(async () => {
    broker = await startMosquitto({ user: USER });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('reports a connection from this laptop with the right password', async () => {
    const outcome = await test(mqttInput(broker));
    expect(outcome.ok).toBe(true);
    expect(outcome.summary).toBe(`This laptop connected to the broker at mqtt://127.0.0.1:${broker.port}.`);
  });

  it('says in words that the broker refused a wrong password', async () => {
    const outcome = await test(mqttInput(broker, { password: 'wrong' }));
    expect(outcome.ok).toBe(false);
    expect(outcome.summary).toContain('check the token (user name) and password');
    expect(JSON.stringify(outcome)).not.toContain('wrong');
  });

  it('publishes one test message to pushTopic when asked', async () => {
    const subscriber = await mqtt.connectAsync({
      host: broker.host,
      port: broker.port,
      username: USER.username,
      password: USER.password,
      reconnectPeriod: 0,
    });
    try {
      await subscriber.subscribeAsync('uplinks/test', { qos: 1 });
      const received = new Promise<string>((resolve) =>
        subscriber.once('message', (_topic, payload) => resolve(payload.toString())),
      );
      const outcome = await test(mqttInput(broker, { pushQos: 'EXACTLY_ONCE' }, true));
      expect(outcome.ok).toBe(true);
      expect(outcome.steps).toContain(
        'Published one test message to "uplinks/test" with QoS 2, not retained.',
      );
      expect(JSON.parse(await received)).toMatchObject({ fieldKitConnectionTest: true });
    } finally {
      await subscriber.endAsync();
    }
  });

  it('pins MQTT 3.1 when mqttVersion says so', async () => {
    const outcome = await test(
      mqttInput(broker, { mqttVersion: 'MQTT_VERSION_3_1', clientId: 'fieldkit-31' }),
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.steps[0]).toContain('with MQTT 3.1.');
  });

  it('says nothing listens when the port is closed', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const outcome = await test(mqttInput({ ...broker, port } as MosquittoBroker));
    expect(outcome.ok).toBe(false);
    expect(outcome.summary).toContain('connection refused');
  });
});

describe('integrations:test against a local HTTP server', () => {
  let server: Server;
  let port: number;
  const arrived: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const tester = new LaptopIntegrationTester();

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        arrived.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body,
        });
        const expected = `Basic ${Buffer.from('hook:s3cret').toString('base64')}`;
        response.statusCode = request.headers.authorization === expected ? 204 : 401;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('posts to host:port/basePath with Basic auth and the configured headers', async () => {
    arrived.length = 0;
    const outcome = await tester.testHttp({
      host: 'http://127.0.0.1',
      port,
      basePath: '/hooks/uplink',
      authMethod: 'BASIC_AUTH',
      username: 'hook',
      password: 's3cret',
      headers: [{ key: 'X-Site', value: 'roof-7' }],
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.summary).toBe(
      `The HTTP server at http://127.0.0.1:${port}/hooks/uplink accepted a test message from this laptop (204).`,
    );
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toMatchObject({ method: 'POST', url: '/hooks/uplink' });
    expect(arrived[0]?.headers['x-site']).toBe('roof-7');
    expect(JSON.parse(arrived[0]?.body ?? '')).toMatchObject({ fieldKitConnectionTest: true });
  });

  it('says the server refused the credentials when the password is wrong', async () => {
    const outcome = await tester.testHttp({
      host: 'http://127.0.0.1',
      port,
      authMethod: 'BASIC_AUTH',
      username: 'hook',
      password: 'nope',
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.summary).toContain('refused the request (401): check the authentication settings');
  });
});
