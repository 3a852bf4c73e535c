import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { rawClient } from './http-client';

describe('authentication over HTTP', () => {
  const clock = new ManualClock(SIMULATED_START_MS);
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', clock, accessTtl: 60, refreshTtl: 600 });
    client = rawClient(simulator);
  });
  afterAll(() => simulator.close());

  it('logs in with a JSON body sent as text/plain, and with application/json', async () => {
    const credentials = JSON.stringify({ username: 'tech@acme.demo', password: 'demo-tech' });
    const asText = await client.request('POST', '/api/auth/login', {
      body: credentials,
      contentType: 'text/plain',
    });
    const asJson = await client.request('POST', '/api/auth/login', {
      body: credentials,
      contentType: 'application/json',
    });
    expect(asText).toMatchObject({
      status: 200,
      body: { token: expect.any(String), refreshToken: expect.any(String) },
    });
    expect(asJson.status).toBe(200);
  });

  it('refuses a wrong password with 401 errorCode 10', async () => {
    const answer = await client.request('POST', '/api/auth/login', {
      body: JSON.stringify({ username: 'tech@acme.demo', password: 'wrong' }),
      contentType: 'text/plain',
    });
    expect(answer).toMatchObject({ status: 401, body: { errorCode: 10 } });
  });

  it('rotates the refresh token and refuses the spent one with 401', async () => {
    const first = await client.login('ops@globex.demo', 'demo-ops');
    const refresh = (refreshToken: string) =>
      client.request<{ token: string; refreshToken: string }>('POST', '/api/auth/token', {
        body: JSON.stringify({ refreshToken }),
        contentType: 'text/plain',
      });
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.refreshToken);
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await client.get('/api/auth/user', second.body.token)).status).toBe(200);
  });

  it('answers 401 errorCode 11 once the access token has expired', async () => {
    const { token } = await client.login('tech@acme.demo', 'demo-tech');
    clock.advance(61_000);
    expect(await client.get('/api/auth/user', token)).toMatchObject({ status: 401, body: { errorCode: 11 } });
  });

  it('returns the current user, reading the header name in any case', async () => {
    const { token } = await client.login('tech@acme.demo', 'demo-tech');
    const answer = await client.request('GET', '/api/auth/user', {
      headers: { 'x-authorization': `Bearer ${token}` },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { email: 'tech@acme.demo', authority: 'CUSTOMER_USER' },
    });
  });

  it("applies a customer's new token lifetimes to the next login of its users", async () => {
    const provider = await client.login('provider@fieldkit.demo', 'demo-provider');
    const acme = simulator.fixture.customers.find((customer) => customer.name === 'Acme Water')!;
    const read = await client.get<Record<string, unknown>>(`/api/customer/${acme.id}`, provider.token);
    const saved = await client.post(
      '/api/customer/',
      { ...read.body, additionalInfo: { accessTokenTtlSeconds: 5, refreshTokenTtlSeconds: 50 } },
      provider.token,
    );
    expect(saved.status).toBe(200);
    const reread = await client.get<{ additionalInfo: string }>(`/api/customer/${acme.id}`, provider.token);
    expect(JSON.parse(reread.body.additionalInfo)).toEqual({
      accessTokenTtlSeconds: 5,
      refreshTokenTtlSeconds: 50,
    });
    const { token } = await client.login('tech@acme.demo', 'demo-tech');
    clock.advance(5_000);
    expect(await client.get('/api/auth/user', token)).toMatchObject({ status: 401, body: { errorCode: 11 } });
  });

  it('refuses token lifetimes that are not positive whole seconds with 400 naming the field', async () => {
    const provider = await client.login('provider@fieldkit.demo', 'demo-provider');
    const globex = simulator.fixture.customers.find((customer) => customer.name === 'Globex Energy')!;
    const answer = await client.post<{ message: string }>(
      '/api/customer/',
      { id: { entityType: 'CUSTOMER', id: globex.id }, additionalInfo: { accessTokenTtlSeconds: -1 } },
      provider.token,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('additionalInfo');
  });
});
