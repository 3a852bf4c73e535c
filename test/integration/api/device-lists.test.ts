import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, collectPages, loadPerformanceWindow } from '../../../electron/services/api';
import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { customersOf, loginAs, startTestSimulator } from '../../helpers/simulator';

const clock = new ManualClock(SIMULATED_START_MS);
const simulator = await startTestSimulator({ clock, accessTtl: 60, refreshTtl: 600 });
afterAll(() => simulator.close());
const { acme, globex } = customersOf(simulator);
const acmeUser = await loginAs(simulator, 'acme');
const provider = await loginAs(simulator, 'provider');

async function status(
  path: string,
  token: string | undefined,
): Promise<{ status: number; errorCode?: number }> {
  const headers: Record<string, string> = token ? { 'X-Authorization': `Bearer ${token}` } : {};
  const response = await fetch(simulator.url + path, { headers });
  const body = (await response.json()) as { errorCode?: number };
  return { status: response.status, errorCode: body.errorCode };
}

describe('device lists: the status table of the spec', () => {
  const subCustomerId = acme.subCustomers[0]!.id;
  it.each([
    ['customer', () => `/api/customer/${acme.id}/devices`],
    ['sub-customer', () => `/api/subCustomer/${subCustomerId}/devices`],
  ])('%s list answers 200, 400, 401, 403 and 404 as the spec says', async (_kind, path) => {
    expect((await status(path(), acmeUser.accessToken)).status).toBe(200);
    expect(await status(`${path()}?active=maybe`, acmeUser.accessToken)).toMatchObject({ status: 400 });
    expect(await status(path(), undefined)).toMatchObject({ status: 401, errorCode: 10 });
    expect(await status(path(), 'not-a-token')).toMatchObject({ status: 401, errorCode: 10 });
    const globexUser = await loginAs(simulator, 'globex');
    expect(await status(path(), globexUser.accessToken)).toMatchObject({ status: 403, errorCode: 20 });
    const unknown = path().replace(/[0-9a-f-]{36}/, '00000000-0000-4000-8000-000000000000');
    expect(await status(unknown, provider.accessToken)).toMatchObject({ status: 404, errorCode: 32 });
  });

  it('answers 401 with errorCode 11 for an expired access token', async () => {
    const session = await loginAs(simulator, 'acme');
    const token = session.accessToken;
    clock.advance(61_000);
    expect(await status(`/api/customer/${acme.id}/devices`, token)).toMatchObject({
      status: 401,
      errorCode: 11,
    });
  });

  it('splits the devices into online and offline with the active filter, each carrying its activity', async () => {
    const all = await acmeUser.call('listCustomerDevices', { params: { customerId: acme.id } });
    const online = await acmeUser.call('listCustomerDevices', {
      params: { customerId: acme.id },
      query: { active: true },
    });
    const offline = await acmeUser.call('listCustomerDevices', {
      params: { customerId: acme.id },
      query: { active: false },
    });
    expect(online.data.every((device) => device.active)).toBe(true);
    expect(offline.data.every((device) => !device.active)).toBe(true);
    expect(online.totalElements + offline.totalElements).toBe(all.totalElements);
    expect(online.totalElements).toBeGreaterThan(0);
    expect(offline.totalElements).toBeGreaterThan(0);
    for (const device of all.data) {
      expect(device).toHaveProperty('lastActivityTime');
      expect(typeof device.state).toBe('string');
    }
  });

  it('refuses a customer user the other customer with 403 through the client too', async () => {
    const error = await acmeUser
      .call('listCustomerDevices', { params: { customerId: globex.id } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403 });
  });
});

describe('gateway list paging and sorting', () => {
  const providerId = simulator.fixture.providerId;
  const listAll = (query: Record<string, unknown>) =>
    collectPages(
      (page) =>
        provider.call('listProviderGateways', {
          params: { providerId },
          query: { ...query, page, limit: 7 },
        }),
      { endpoint: 'listProviderGateways', pageSize: 7 },
    );

  it('pages 100 at a time by default, newest first', async () => {
    const page = await provider.call('listProviderGateways', { params: { providerId }, query: {} });
    expect(page.data.length).toBe(Math.min(100, simulator.fixture.gateways.length));
    const created = page.data.map((gateway) => gateway.createdTime);
    expect(created).toEqual([...created].sort((a, b) => b! - a!));
    expect(page.totalElements).toBe(simulator.fixture.gateways.length);
  });

  it.each([
    'CREATED_TIME',
    'NAME',
    'GATEWAY_MAC',
    'GATEWAY_MODEL_NAME',
    'IS_PUBLIC',
    'IS_LOGGING_ENABLED',
    'IS_UDP_ALLOWED',
    'IS_NOT_MQTTS_ALLOWED',
    'STATUS',
  ] as const)('sorts by %s in both directions, visiting every gateway once', async (sortField) => {
    const key = {
      CREATED_TIME: 'createdTime',
      NAME: 'name',
      GATEWAY_MAC: 'gatewayMac',
      GATEWAY_MODEL_NAME: 'gatewayModelName',
      IS_PUBLIC: 'isPublic',
      IS_LOGGING_ENABLED: 'isLoggingEnabled',
      IS_UDP_ALLOWED: 'isUdpAllowed',
      IS_NOT_MQTTS_ALLOWED: 'isNotMqttsAllowed',
      STATUS: 'status',
    }[sortField];
    for (const sortDirection of ['ASC', 'DESC'] as const) {
      const gateways = await listAll({ sortField, sortDirection });
      expect(new Set(gateways.map((gateway) => gateway.id.id)).size).toBe(simulator.fixture.gateways.length);
      const values = gateways.map((gateway) => String((gateway as Record<string, unknown>)[key]));
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values).toEqual(sortDirection === 'ASC' ? sorted : sorted.reverse());
    }
  });
});

describe('performance paging', () => {
  it('visits every sample of a window exactly once, limit by limit', async () => {
    const { measurement, field } = simulator.fixture.performance[0]!;
    const customerId = acme.id;
    const stopMs = clock.now();
    const startMs = stopMs - 6 * 3_600_000;
    const whole = await provider.call('getCustomerPerformance', {
      params: { customerId, measurement, field },
      query: { startMs, stopMs, order: 'ASC', limit: 100_000, showTags: 'gatewayId' },
    });
    const paged = await loadPerformanceWindow(
      (window) =>
        provider.call('getCustomerPerformance', {
          params: { customerId, measurement, field },
          query: { ...window, showTags: 'gatewayId' },
        }),
      { startMs, stopMs, order: 'ASC', limit: 37 },
    );
    expect(whole.length).toBeGreaterThan(100);
    expect(paged.truncated).toBe(false);
    const key = (sample: { timeMs: number; tags?: Record<string, string> }) =>
      `${sample.timeMs}/${sample.tags?.gatewayId}`;
    expect(paged.samples.map(key)).toEqual(whole.map(key));
  });
});
