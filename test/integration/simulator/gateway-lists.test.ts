import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SORT_FIELDS, GATEWAY_SORT_KEYS } from '../../../electron/shared/api/gateway';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { rawClient } from './http-client';

type Gateway = Record<string, unknown> & { id: { id: string }; createdTime: number };
type Page = { data: Gateway[]; totalPages: number; totalElements: number; hasNext: boolean };

describe('paginated gateway lists over HTTP', () => {
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;
  let providerToken: string;
  let acmeToken: string;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', gateways: 230, devices: 10 });
    client = rawClient(simulator);
    providerToken = (await client.login('provider@fieldkit.demo', 'demo-provider')).token;
    acmeToken = (await client.login('tech@acme.demo', 'demo-tech')).token;
  });
  afterAll(() => simulator.close());

  const providerPath = () => `/api/v2/provider/${simulator.fixture.providerId}/gateways`;

  it('answers 100 gateways, newest first, by default', async () => {
    const { status, body } = await client.get<Page>(providerPath(), providerToken);
    expect(status).toBe(200);
    expect(body).toMatchObject({ totalElements: 230, totalPages: 3, hasNext: true });
    expect(body.data).toHaveLength(100);
    const times = body.data.map((gateway) => gateway.createdTime);
    expect(times).toEqual([...times].sort((left, right) => right - left));
  });

  it('visits every gateway exactly once when paging to the end', async () => {
    const seen: string[] = [];
    for (let page = 0; page < 10; page++) {
      const { body } = await client.get<Page>(`${providerPath()}?limit=70&page=${page}`, providerToken);
      seen.push(...body.data.map((gateway) => gateway.id.id));
      if (!body.hasNext) break;
    }
    expect(seen).toHaveLength(230);
    expect(new Set(seen).size).toBe(230);
  });

  it.each(GATEWAY_SORT_FIELDS.flatMap((field) => [[field, 'ASC'] as const, [field, 'DESC'] as const]))(
    'sorts by %s %s',
    async (sortField, sortDirection) => {
      const { body } = await client.get<Page>(
        `${providerPath()}?limit=230&sortField=${sortField}&sortDirection=${sortDirection}`,
        providerToken,
      );
      const key = GATEWAY_SORT_KEYS[sortField];
      const values = body.data.map((gateway) => gateway[key] as string | number | boolean);
      const sorted = [...values].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
      expect(values).toEqual(sortDirection === 'ASC' ? sorted : sorted.reverse());
    },
  );

  it("lists only a customer's own gateways on the customer path", async () => {
    const acme = simulator.fixture.customers.find((customer) => customer.name === 'Acme Water')!;
    const { body } = await client.get<Page>(`/api/v2/customer/${acme.id}/gateways?limit=1000`, acmeToken);
    const expected = simulator.fixture.gateways
      .filter((gateway) => gateway.customerId === acme.id)
      .map((gateway) => gateway.id);
    expect(body.data.map((gateway) => gateway.id.id).sort()).toEqual(expected.sort());
  });

  it('lists the gateways of a gateway group', async () => {
    const groupId = simulator.fixture.gateways[0]!.gatewayGroupId;
    const { body } = await client.get<Page>(`/api/v2/gatewayGroup/${groupId}/gateways?limit=1000`, acmeToken);
    expect(body.totalElements).toBe(
      simulator.fixture.gateways.filter((gateway) => gateway.gatewayGroupId === groupId).length,
    );
  });

  it('refuses the provider list to a customer user with 403', async () => {
    expect(await client.get(providerPath(), acmeToken)).toMatchObject({
      status: 403,
      body: { errorCode: 20 },
    });
  });

  it('refuses a bad sort field, a negative page and a zero limit with 400 naming each', async () => {
    const answer = await client.get<{ message: string }>(
      `${providerPath()}?sortField=COLOUR&page=-1&limit=0`,
      providerToken,
    );
    expect(answer.status).toBe(400);
    for (const field of ['sortField', 'page', 'limit']) expect(answer.body.message).toContain(field);
  });

  it('shows a rebooting gateway as OFFLINE in the list', async () => {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE')!;
    simulator.rebootGateway(gateway.id);
    const { body } = await client.get<Page>(`${providerPath()}?limit=1000`, providerToken);
    expect(body.data.find((candidate) => candidate.id.id === gateway.id)?.status).toBe('OFFLINE');
  });
});

describe('gateway lists as time passes', () => {
  const clock = new ManualClock(SIMULATED_START_MS);
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      clock,
      gateways: 8,
      devices: 2,
      rebootMs: 60_000,
    });
  });
  afterAll(() => simulator.close());

  it('lists a rebooted gateway OFFLINE, then ONLINE again with a newer lastSeenTime once it is back', async () => {
    const client = rawClient(simulator);
    const { token } = await client.login('provider@fieldkit.demo', 'demo-provider');
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE')!;
    const listed = async () => {
      const { body } = await client.get<Page>(
        `/api/v2/provider/${simulator.fixture.providerId}/gateways`,
        token,
      );
      return body.data.find((candidate) => candidate.id.id === gateway.id)!;
    };
    const before = await listed();
    simulator.rebootGateway(gateway.id);
    expect((await listed()).status).toBe('OFFLINE');
    clock.advance(60_000);
    const after = await listed();
    expect(after.status).toBe('ONLINE');
    expect(after.lastSeenTime as number).toBeGreaterThan(before.lastSeenTime as number);
  });
});
