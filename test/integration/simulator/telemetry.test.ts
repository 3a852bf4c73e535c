import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { rawClient } from './http-client';

type Sample = { timeMs: number; value: number; tags?: Record<string, string> };
type EventPage = {
  data: Array<Record<string, unknown> & { startTs: number; state: string }>;
  totalElements: number;
  hasNext: boolean;
};

describe('performance and enhanced events over HTTP', () => {
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;
  let providerToken: string;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1' });
    client = rawClient(simulator);
    providerToken = (await client.login('provider@fieldkit.demo', 'demo-provider')).token;
  });
  afterAll(() => simulator.close());

  const onlineGateway = () =>
    simulator.fixture.gateways.find((gateway) => gateway.initialStatus === 'ONLINE')!;

  it('returns at most limit samples of one gateway, oldest first, inside the window', async () => {
    const now = simulator.clock.now();
    const startMs = now - 3_600_000;
    const { body } = await client.get<Sample[]>(
      `/api/gateway/${onlineGateway().id}/performance/system/cpuUsage?startMs=${startMs}&stopMs=${now}&limit=5`,
      providerToken,
    );
    expect(body).toHaveLength(5);
    expect(body.every((sample) => sample.timeMs >= startMs && sample.timeMs <= now)).toBe(true);
    expect(body.map((sample) => sample.timeMs)).toEqual(
      body.map((sample) => sample.timeMs).sort((left, right) => left - right),
    );
  });

  it('visits every sample exactly once when paging by the last timestamp', async () => {
    const now = simulator.clock.now();
    const path = `/api/gateway/${onlineGateway().id}/performance/battery/voltage`;
    const startMs = now - 6 * 3_600_000;
    const all = (
      await client.get<Sample[]>(`${path}?startMs=${startMs}&stopMs=${now}&limit=1000`, providerToken)
    ).body;
    const paged: Sample[] = [];
    let from = startMs;
    for (let page = 0; page < 100; page++) {
      const { body } = await client.get<Sample[]>(
        `${path}?startMs=${from}&stopMs=${now}&limit=7`,
        providerToken,
      );
      paged.push(...body);
      if (body.length < 7) break;
      from = body[body.length - 1]!.timeMs + 1;
    }
    expect(paged).toEqual(all);
  });

  it('answers one series per tag combination on aggregated queries, tags on every sample', async () => {
    const acme = simulator.fixture.customers.find((customer) => customer.name === 'Acme Water')!;
    const gateways = simulator.fixture.gateways.filter(
      (gateway) => gateway.customerId === acme.id && gateway.initialStatus === 'ONLINE',
    );
    const { body } = await client.get<Sample[]>(
      `/api/gatewayPerformance/customer/${acme.id}/system/temperature?showTags=gatewayId,period&order=DESC&limit=1000`,
      providerToken,
    );
    expect(
      body.every(
        (sample) =>
          Object.keys(sample.tags ?? {})
            .sort()
            .join() === 'gatewayId,period',
      ),
    ).toBe(true);
    const series = new Set(body.map((sample) => sample.tags!.gatewayId));
    for (const gateway of gateways) expect(series).toContain(gateway.id);
  });

  it('answers 404 for an unknown measurement', async () => {
    expect(
      (await client.get(`/api/gateway/${onlineGateway().id}/performance/nope/nothing`, providerToken)).status,
    ).toBe(404);
  });

  it('filters events by state and pages them newest first', async () => {
    const { body } = await client.get<EventPage>(
      '/api/enhancedEvents?startTs=0&state=Raised&limit=5&page=0&sortField=start_ts&sortOrder=desc',
      providerToken,
    );
    expect(body.data).toHaveLength(5);
    expect(body.data.every((event) => event.state === 'Raised' && event.endTs === null)).toBe(true);
    const starts = body.data.map((event) => event.startTs);
    expect(starts).toEqual([...starts].sort((left, right) => right - left));
    expect(body.hasNext).toBe(true);
  });

  it('answers only raised events on the raised endpoint and refuses state there', async () => {
    const raised = await client.get<EventPage>(
      '/api/enhancedEventsRaised?startTs=0&limit=100',
      providerToken,
    );
    const withState = await client.get('/api/enhancedEventsRaised?startTs=0&state=Clear', providerToken);
    expect(raised.body.data.every((event) => event.state === 'Raised')).toBe(true);
    expect(withState.status).toBe(400);
  });

  it('lists the events of one gateway by category', async () => {
    const all = await client.get<EventPage>(
      '/api/enhancedEvents?startTs=0&source=GATEWAY&limit=1',
      providerToken,
    );
    const event = all.body.data[0]!;
    const { body } = await client.get<EventPage>(
      `/api/entity/GATEWAY/${String(event.entityId)}/enhancedEvents/${String(event.eventType)}?startTs=0&limit=100`,
      providerToken,
    );
    expect(body.data.map((candidate) => candidate.id)).toContain(event.id);
    expect(
      body.data.every(
        (candidate) => candidate.entityId === event.entityId && candidate.eventType === event.eventType,
      ),
    ).toBe(true);
  });

  it('refuses an events query without startTs or with limit over 100', async () => {
    expect((await client.get('/api/enhancedEvents?limit=5', providerToken)).status).toBe(400);
    expect((await client.get('/api/enhancedEvents?startTs=0&limit=101', providerToken)).status).toBe(400);
  });

  it("shows a customer user only its own customers' events", async () => {
    const { token } = await client.login('ops@globex.demo', 'demo-ops');
    const globex = simulator.fixture.customers.find((customer) => customer.name === 'Globex Energy')!;
    const ids = new Set([
      ...simulator.fixture.gateways
        .filter((gateway) => gateway.customerId === globex.id)
        .map((gateway) => gateway.id),
      ...simulator.fixture.devices
        .filter((device) => device.customerId === globex.id)
        .map((device) => device.id),
    ]);
    const { body } = await client.get<EventPage>('/api/enhancedEvents?startTs=0&limit=100', token);
    expect(
      body.data
        .filter((event) => event.source !== 'INTEGRATION')
        .every((event) => ids.has(String(event.entityId))),
    ).toBe(true);
  });
});
