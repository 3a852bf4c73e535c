import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import mqtt, { type IPublishPacket } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../electron/services/session';
import { IntegrationSchema } from '../../../electron/shared/api/integration';
import type { RunningSimulator } from '../../../simulator';
import { startMosquitto, type MosquittoBroker } from '../../helpers/mosquitto';
import { loginAs, startTestSimulator } from '../../helpers/simulator';

const USER = { username: 'integration', password: 'uplinks-please' };

describe('the simulator carries the traffic of stored integrations', () => {
  let simulator: RunningSimulator;
  let broker: MosquittoBroker;
  let session: Session;
  let ids: { applicationId: string; converterId: string };

  beforeAll(async () => {
    [simulator, broker] = await Promise.all([startTestSimulator(), startMosquitto({ user: USER })]);
    session = await loginAs(simulator, 'provider');
    const converter = simulator.fixture.converters.find((candidate) => candidate.version === 2);
    const application = [...simulator.world.tenant.applications.values()][0];
    ids = { applicationId: application?.id ?? '', converterId: converter?.id ?? '' };
  });
  afterAll(async () => {
    await simulator?.close();
    await broker?.stop();
  });

  const save = (type: 'MQTT_V2' | 'HTTP_V2', name: string, configuration: Record<string, unknown>) =>
    session.call('saveIntegration', {
      params: {},
      body: IntegrationSchema.parse({
        name,
        type,
        applicationId: { entityType: 'APPLICATION', id: ids.applicationId },
        converterId: { entityType: 'CONVERTER', id: ids.converterId },
        configuration,
      }),
    });

  const subscribe = async (topic: string) => {
    const client = await mqtt.connectAsync({
      host: broker.host,
      port: broker.port,
      username: USER.username,
      password: USER.password,
      reconnectPeriod: 0,
    });
    const first = new Promise<IPublishPacket>((resolve) =>
      client.once('message', (_topic, _payload, packet) => resolve(packet)),
    );
    await client.subscribeAsync(topic, { qos: 2 });
    return { client, first };
  };

  it('publishes an uplink of a stored MQTT_V2 integration to pushTopic with pushQos and pushRetained', async () => {
    const live = await subscribe('site/uplinks');
    try {
      const saved = (await save('MQTT_V2', 'Roof uplinks', {
        host: '127.0.0.1',
        port: broker.port,
        token: USER.username,
        password: USER.password,
        pushTopic: 'site/uplinks',
        pushQos: 'EXACTLY_ONCE',
        pushRetained: true,
      })) as { id: { id: string } };
      const packet = await live.first;
      expect(packet.qos).toBe(2);
      expect(JSON.parse(packet.payload.toString())).toMatchObject({ integrationId: saved.id.id, fPort: 10 });
    } finally {
      await live.client.endAsync();
    }
    // A subscriber that comes later gets the message the broker kept: the uplink was published retained.
    const late = await subscribe('site/uplinks');
    try {
      expect((await late.first).retain).toBe(true);
    } finally {
      await late.client.endAsync();
    }
  });

  it('receives downlinks on pullTopic', async () => {
    const live = await subscribe('site/up2');
    const saved = (await save('MQTT_V2', 'Roof downlinks', {
      host: '127.0.0.1',
      port: broker.port,
      token: USER.username,
      password: USER.password,
      pushTopic: 'site/up2',
      pullTopic: 'site/down',
    })) as { id: { id: string } };
    const publisher = await mqtt.connectAsync({
      host: broker.host,
      port: broker.port,
      username: USER.username,
      password: USER.password,
      reconnectPeriod: 0,
    });
    try {
      // The first uplink shows the integration is connected and subscribed (it subscribes before publishing).
      await live.first;
      await publisher.publishAsync('site/down', '{"confirmed":false}', { qos: 1 });
      await expect
        .poll(() => simulator.world.integrationTraffic.downlinksOf(saved.id.id).length, { timeout: 5_000 })
        .toBe(1);
      expect(simulator.world.integrationTraffic.downlinksOf(saved.id.id)[0]).toMatchObject({
        topic: 'site/down',
        payload: '{"confirmed":false}',
      });
    } finally {
      await Promise.all([live.client.endAsync(), publisher.endAsync()]);
    }
  });

  it('posts HTTP_V2 uplinks with Basic auth and the configured headers', async () => {
    let server: Server | undefined;
    const arrived = new Promise<{ url: string; headers: IncomingHttpHeaders; body: string }>((resolve) => {
      server = createServer((request, response) => {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (body += chunk));
        request.on('end', () => {
          response.end();
          resolve({ url: request.url ?? '', headers: request.headers, body });
        });
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server?.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await save('HTTP_V2', 'Roof webhook', {
        host: 'http://127.0.0.1',
        port,
        basePath: '/uplink',
        authMethod: 'BASIC_AUTH',
        username: 'hook',
        password: 'pa55',
        headers: [{ key: 'X-Tenant', value: 'acme' }],
      });
      const request = await arrived;
      expect(request.url).toBe('/uplink');
      expect(request.headers.authorization).toBe(`Basic ${Buffer.from('hook:pa55').toString('base64')}`);
      expect(request.headers['x-tenant']).toBe('acme');
      expect(JSON.parse(request.body)).toMatchObject({ fPort: 10 });
    } finally {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    }
  });

  it('sends nothing to a host that is not loopback', async () => {
    const saved = (await save('MQTT_V2', 'Remote broker', {
      host: 'broker.example.com',
      port: 1883,
      pushTopic: 'uplinks',
    })) as { id: { id: string } };
    expect(simulator.world.integrationTraffic.carriedIds()).not.toContain(saved.id.id);
  });
});
