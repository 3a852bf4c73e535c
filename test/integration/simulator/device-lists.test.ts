import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { rawClient } from './http-client';

type DeviceList = {
  data: Array<{ active: boolean; lastActivityTime: number | null; state: string }>;
  totalElements: number;
};

describe('device lists over HTTP', () => {
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;
  let acmeToken: string;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1' });
    client = rawClient(simulator);
    acmeToken = (await client.login('tech@acme.demo', 'demo-tech')).token;
  });
  afterAll(() => simulator.close());

  const acme = () => simulator.fixture.customers.find((customer) => customer.name === 'Acme Water')!;
  const globex = () => simulator.fixture.customers.find((customer) => customer.name === 'Globex Energy')!;

  it('answers 200 with every device of the customer, each carrying active, lastActivityTime and state', async () => {
    const answer = await client.get<DeviceList>(`/api/customer/${acme().id}/devices`, acmeToken);
    expect(answer.status).toBe(200);
    const expected = simulator.fixture.devices.filter((device) => device.customerId === acme().id).length;
    expect(answer.body.totalElements).toBe(expected);
    for (const device of answer.body.data) {
      expect(typeof device.active).toBe('boolean');
      expect(device).toHaveProperty('lastActivityTime');
      expect(device.state).toBe(device.active ? 'ACTIVE' : 'INACTIVE');
    }
  });

  it('splits the devices into online ones with active=true and offline ones with active=false', async () => {
    const path = `/api/customer/${acme().id}/devices`;
    const all = await client.get<DeviceList>(path, acmeToken);
    const online = await client.get<DeviceList>(`${path}?active=true`, acmeToken);
    const offline = await client.get<DeviceList>(`${path}?active=false`, acmeToken);
    expect(online.body.data.every((device) => device.active)).toBe(true);
    expect(offline.body.data.every((device) => !device.active)).toBe(true);
    expect(online.body.totalElements).toBeGreaterThan(0);
    expect(offline.body.totalElements).toBeGreaterThan(0);
    expect(online.body.totalElements + offline.body.totalElements).toBe(all.body.totalElements);
  });

  it('answers 200 for a sub-customer of the caller', async () => {
    const sub = acme().subCustomers[0]!;
    const answer = await client.get<DeviceList>(`/api/subCustomer/${sub.id}/devices?active=false`, acmeToken);
    expect(answer.status).toBe(200);
  });

  it('answers 400 errorCode 31 naming active when active is neither true nor false', async () => {
    const answer = await client.get<{ errorCode: number; message: string }>(
      `/api/customer/${acme().id}/devices?active=maybe`,
      acmeToken,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 400,
      errorCode: 31,
      message: expect.stringContaining('active'),
    });
  });

  it('answers 401 errorCode 10 without a token and with a forged one', async () => {
    const missing = await client.get(`/api/customer/${acme().id}/devices`);
    const forged = await client.get(`/api/customer/${acme().id}/devices`, `${acmeToken.slice(0, -4)}AAAA`);
    expect(missing).toMatchObject({ status: 401, body: { errorCode: 10 } });
    expect(forged).toMatchObject({ status: 401, body: { errorCode: 10 } });
  });

  it('answers 403 errorCode 20 for a customer outside the caller', async () => {
    const answer = await client.get(`/api/customer/${globex().id}/devices`, acmeToken);
    expect(answer).toMatchObject({ status: 403, body: { status: 403, errorCode: 20 } });
  });

  it('answers 404 errorCode 32 for an unknown customer and for a customer given as a sub-customer', async () => {
    const unknown = await client.get('/api/customer/00000000-0000-4000-8000-000000000000/devices', acmeToken);
    const notSub = await client.get(`/api/subCustomer/${acme().id}/devices`, acmeToken);
    expect(unknown).toMatchObject({ status: 404, body: { errorCode: 32 } });
    expect(notSub).toMatchObject({ status: 404, body: { errorCode: 32 } });
  });

  it('lets a provider user list any customer of its provider', async () => {
    const { token } = await client.login('provider@fieldkit.demo', 'demo-provider');
    expect((await client.get(`/api/customer/${globex().id}/devices`, token)).status).toBe(200);
  });
});
