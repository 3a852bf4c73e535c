import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  ApiClient,
  ApiError,
  NetworkError,
  RequestAbortedError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from '../../../../electron/services/api';
import { endpoints, fillPath } from '../../../../electron/shared/api';
import { jsonResponse, recordingFetch } from '../../../helpers/recording-fetch';

const BASE = 'https://oam.example.test';
const pair = { token: 'a.b.c', refreshToken: 'r.s.t' };

function clientWith(respond?: Parameters<typeof recordingFetch>[0]) {
  const recorder = recordingFetch(respond);
  return {
    client: new ApiClient({ baseUrl: `${BASE}/`, fetch: recorder.fetch }),
    requests: recorder.requests,
  };
}

describe('ApiClient', () => {
  it('sends the login body as JSON text with Content-Type text/plain and no token', async () => {
    const { client, requests } = clientWith(() => jsonResponse(pair));
    await client.call(
      'login',
      { params: {}, body: { username: 'tech@acme.demo', password: 'pw' } },
      { accessToken: 'x' },
    );
    expect(requests[0]).toMatchObject({ url: `${BASE}/api/auth/login`, method: 'POST' });
    expect(requests[0]?.headers['content-type']).toBe('text/plain');
    expect(requests[0]?.headers['x-authorization']).toBeUndefined();
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({ username: 'tech@acme.demo', password: 'pw' });
  });

  it('sends every other call with X-Authorization: Bearer and the query encoded', async () => {
    const { client, requests } = clientWith(() => jsonResponse({ data: [], totalElements: 0 }));
    await client.call(
      'listCustomerDevices',
      { params: { customerId: 'c 1' }, query: { active: false } },
      { accessToken: 'tok' },
    );
    expect(requests[0]?.url).toBe(`${BASE}/api/customer/c%201/devices?active=false`);
    expect(requests[0]?.headers['x-authorization']).toBe('Bearer tok');
  });

  it('sends a device list without a query string when the query is absent or empty', async () => {
    const { client, requests } = clientWith(() => jsonResponse({ data: [], totalElements: 0 }));
    await client.call('listCustomerDevices', { params: { customerId: 'c1' } });
    await client.call('listCustomerDevices', { params: { customerId: 'c1' }, query: {} });
    await client.call('listCustomerDevices', { params: { customerId: 'c1' }, query: { active: true } });
    expect(requests.map((request) => request.url)).toEqual([
      `${BASE}/api/customer/c1/devices`,
      `${BASE}/api/customer/c1/devices`,
      `${BASE}/api/customer/c1/devices?active=true`,
    ]);
  });

  it('fills every path placeholder URI-encoded, as fillPath does', async () => {
    const { client, requests } = clientWith(() => jsonResponse({}));
    const params = { entityType: 'DEVICE' as const, entityId: 'a b ü?#' };
    // Only the request matters here: the answer ({}) is not a settings record.
    await client.call('getNetworkSettings', { params }).catch(() => undefined);
    expect(requests[0]?.url).toBe(BASE + fillPath(endpoints.getNetworkSettings.path, params));
    expect(requests[0]?.url).toBe(`${BASE}/api/networkSettings/DEVICE/a%20b%20%C3%BC%3F%23`);
  });

  it('sends the gateway list defaults when the caller gives no query', async () => {
    const { client, requests } = clientWith(() =>
      jsonResponse({ data: [], totalPages: 0, totalElements: 0, hasNext: false }),
    );
    await client.call('listCustomerGateways', { params: { customerId: 'c1' } });
    expect(requests[0]?.url).toBe(`${BASE}/api/v2/customer/c1/gateways?limit=100&page=0&sortDirection=DESC`);
  });

  it('refuses an empty or missing path parameter before sending, naming it', async () => {
    const { client, requests } = clientWith();
    for (const params of [{ customerId: '' }, {}]) {
      const error = await client
        .call('listCustomerDevices', { params: params as { customerId: string } })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual(['customerId']);
    }
    expect(requests).toHaveLength(0);
  });

  it('refuses an unknown query field of a device list before sending', async () => {
    const { client, requests } = clientWith();
    const call = client.call('listCustomerDevices', {
      params: { customerId: 'c1' },
      // eslint-disable-next-line no-restricted-syntax -- a query field the type does not have is what the client must refuse
      query: { online: true } as never,
    });
    await expect(call).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests).toHaveLength(0);
  });

  it('refuses an invalid request before sending it and names each failing field', async () => {
    const { client, requests } = clientWith();
    const call = client.call('listEnhancedEvents', {
      params: {},
      query: { startTs: -1, limit: 101, page: -1 },
    });
    await expect(call).rejects.toBeInstanceOf(RequestValidationError);
    await call.catch((error: RequestValidationError) => {
      expect(error.issues.map((issue) => issue.path)).toEqual(['query.startTs', 'query.limit', 'query.page']);
    });
    expect(requests).toHaveLength(0);
  });

  it('keeps unknown fields of an answer and types the known ones', async () => {
    const { client } = clientWith(() => jsonResponse({ ...pair, extra: { kept: true } }));
    const answer = await client.call('refreshToken', { params: {}, body: { refreshToken: 'r' } });
    expect(answer).toEqual({ ...pair, extra: { kept: true } });
  });

  it('reports an answer that breaks the spec with the path of the violation', async () => {
    const { client } = clientWith(() =>
      jsonResponse({ data: [{ active: 'yes', lastActivityTime: null, state: 'X' }], totalElements: 1 }),
    );
    const call = client.call('listCustomerDevices', { params: { customerId: 'c' } });
    await expect(call).rejects.toBeInstanceOf(ResponseValidationError);
    await call.catch((error: ResponseValidationError) =>
      expect(error.issues[0]?.path).toBe('data[0].active'),
    );
  });

  it('names the field of the record that breaks the spec deep in a list, after valid records', async () => {
    const device = (name: string) => ({ name, active: true, lastActivityTime: null, state: 'ONLINE' });
    const { client } = clientWith(() =>
      jsonResponse({
        data: [device('a'), device('b'), { ...device('c'), id: { entityType: 'DEVICE', id: '' } }],
        totalElements: 3,
      }),
    );
    const error = await client
      .call('listCustomerDevices', { params: { customerId: 'c' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toEqual(['data[2].id.id']);
  });

  it('keeps unknown fields of the records in a list', async () => {
    const page = {
      data: [{ active: true, lastActivityTime: 1, state: 'ONLINE', firmware: { kept: true } }],
      totalElements: 1,
      cursor: 'next',
    };
    const { client } = clientWith(() => jsonResponse(page));
    expect(await client.call('listCustomerDevices', { params: { customerId: 'c' } })).toEqual(page);
  });

  it('throws an ApiError carrying status, errorCode, message and endpoint from the error body', async () => {
    const { client } = clientWith(() =>
      jsonResponse({ status: 403, message: 'You don’t have permission', errorCode: 20, timestamp: 1 }, 403),
    );
    const error = await client
      .call('getCustomer', { params: { customerId: 'c' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      errorCode: 20,
      message: 'You don’t have permission',
      endpoint: 'getCustomer',
    });
  });

  it('turns an error answer without the error shape into an ApiError with errorCode 2', async () => {
    const { client } = clientWith(() => new Response('Bad Gateway', { status: 502 }));
    const error = await client
      .call('getCustomer', { params: { customerId: 'c' } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, errorCode: 2, message: 'Bad Gateway' });
  });

  it('sends deleteWmApn as a bare integer and resetRadioStatisticsCounters with no body', async () => {
    const { client, requests } = clientWith(() => new Response(''));
    await client.command('gw-1', 'deleteWmApn', 3);
    await client.command('gw-1', 'resetRadioStatisticsCounters');
    await client.command('gw-1', 'getPublicKey');
    expect(requests.map((request) => [request.url, request.body])).toEqual([
      [`${BASE}/api/gateway/gw-1/command/deleteWmApn`, '3'],
      [`${BASE}/api/gateway/gw-1/command/resetRadioStatisticsCounters`, undefined],
      [`${BASE}/api/gateway/gw-1/command/getPublicKey`, '{}'],
    ]);
    expect(requests[1]?.headers['content-type']).toBeUndefined();
  });

  it('refuses a command body that breaks its rule', async () => {
    const { client, requests } = clientWith();
    await expect(
      client.command('gw-1', 'ping', { packetsCount: 0, destination: 'bad host' }),
    ).rejects.toThrow(/packetsCount.*destination/);
    expect(requests).toHaveLength(0);
  });

  it('gives up with a TimeoutError when the server does not answer in time', async () => {
    const slow = new ApiClient({
      baseUrl: BASE,
      timeoutMs: 50,
      fetch: (url, init) =>
        new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    });
    await expect(slow.call('getCustomer', { params: { customerId: 'c' } })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it('stops with a RequestAbortedError when the caller aborts', async () => {
    const client = new ApiClient({
      baseUrl: BASE,
      fetch: (url, init) =>
        new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    });
    const controller = new AbortController();
    const call = client.call('getCustomer', { params: { customerId: 'c' } }, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('says plainly that a server refused the connection', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await client
      .call('getCustomer', { params: { customerId: 'c' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/refused the connection/);
  });
});
