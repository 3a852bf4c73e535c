// Property test (issue 22): whatever a server answers — nested thousands deep, tens of MB streamed, wrong types,
// a slow drip, a connection cut mid-body, the wrong content type, broken JSON, any status, a redirect — the
// browser host, in a process of its own, answers every call, keeps answering `app:info`, and its memory stays
// bounded. Issue 28: the same for a gateway group expanded from a hostile pager (page counts from nowhere, totals
// that do not add up, `hasNext: true` forever, 2 KB names).
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLogin, startFakeOamServer, type FakeOamServer } from '../../helpers/fake-oam-server';
import { readMemoryMegabytes, startHostProcess, type HostProcess } from '../../helpers/host-process';
import { answerHostilePaging, type HostilePaging } from '../../helpers/hostile-pager';

/** Peak resident memory the host may reach over the whole run: its idle size plus a few 32 MB answers. */
const PEAK_RSS_BOUND_MB = 512;

type Hostile =
  | { kind: 'deep'; depth: number; asField: boolean }
  | { kind: 'huge'; megabytes: number; declared: boolean }
  | { kind: 'large'; megabytes: number }
  | { kind: 'value'; value: unknown }
  | { kind: 'broken'; text: string }
  | { kind: 'drip'; pieces: number; delayMs: number }
  | { kind: 'cut'; sent: number }
  | { kind: 'content-type'; contentType: string; body: string }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'redirect'; status: number; location: string };

const customer = { id: { entityType: 'CUSTOMER', id: 'customer-1' }, name: 'Acme' };
const customerText = JSON.stringify(customer);

const hostileArbitrary: fc.Arbitrary<Hostile> = fc.oneof(
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.integer({ min: 65, max: 50_000 }),
    asField: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('huge' as const),
    megabytes: fc.integer({ min: 33, max: 48 }),
    declared: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('large' as const), megabytes: fc.integer({ min: 5, max: 12 }) }),
  fc.record({
    kind: fc.constant('value' as const),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 6 }),
      fc.record({ id: fc.jsonValue({ maxDepth: 2 }), name: fc.jsonValue({ maxDepth: 2 }) }),
    ),
  }),
  fc.record({
    kind: fc.constant('broken' as const),
    text: fc.oneof(
      fc.string(),
      fc.integer({ min: 1, max: customerText.length - 1 }).map((end) => customerText.slice(0, end)),
      fc.constant(`${customerText}}`),
    ),
  }),
  fc.record({
    kind: fc.constant('drip' as const),
    pieces: fc.integer({ min: 2, max: 12 }),
    delayMs: fc.integer({ min: 1, max: 25 }),
  }),
  fc.record({
    kind: fc.constant('cut' as const),
    sent: fc.integer({ min: 0, max: customerText.length - 1 }),
  }),
  fc.record({
    kind: fc.constant('content-type' as const),
    contentType: fc.constantFrom('text/html', 'text/plain', 'application/octet-stream', 'image/png'),
    body: fc.oneof(fc.constant(customerText), fc.constant('<html><body>Login</body></html>'), fc.string()),
  }),
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.integer({ min: 200, max: 599 }).filter((status) => status < 300 || status >= 400),
    body: fc.oneof(fc.string({ maxLength: 2000 }), fc.json({ maxDepth: 4 }), fc.constant(customerText)),
  }),
  fc.record({
    kind: fc.constant('redirect' as const),
    status: fc.constantFrom(301, 302, 303, 307, 308),
    location: fc.oneof(fc.webUrl(), fc.constant('/api/auth/user'), fc.string({ maxLength: 100 })),
  }),
);

/** Writes `total` bytes of a JSON string value in 64 KB pieces as the socket drains; stops when cut. */
function streamPadding(response: ServerResponse, total: number, end: string): void {
  const piece = 'x'.repeat(64 * 1024);
  let written = 0;
  const writeMore = (): void => {
    while (written < total && !response.destroyed) {
      written += piece.length;
      if (!response.write(piece)) return void response.once('drain', writeMore);
    }
    if (!response.destroyed) response.end(end);
  };
  writeMore();
}

function answerHostile(hostile: Hostile, response: ServerResponse): void {
  switch (hostile.kind) {
    case 'deep': {
      const nested = `${'['.repeat(hostile.depth)}0${']'.repeat(hostile.depth)}`;
      const text = hostile.asField ? customerText.replace(/}$/, `,"extra":${nested}}`) : nested;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
      return;
    }
    case 'huge':
    case 'large': {
      const head = customerText.replace(/}$/, ',"padding":"');
      const total = hostile.megabytes * 1024 * 1024;
      const declared = hostile.kind === 'huge' && hostile.declared;
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': head.length + total + 2 } : {}),
      });
      response.write(head);
      streamPadding(response, total, '"}');
      return;
    }
    case 'value': {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(hostile.value) ?? '');
      return;
    }
    case 'broken': {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(hostile.text);
      return;
    }
    case 'drip': {
      response.writeHead(200, { 'content-type': 'application/json' });
      const size = Math.ceil(customerText.length / hostile.pieces);
      let offset = 0;
      const next = (): void => {
        if (response.destroyed) return;
        if (offset >= customerText.length) return void response.end();
        response.write(customerText.slice(offset, offset + size));
        offset += size;
        setTimeout(next, hostile.delayMs);
      };
      next();
      return;
    }
    case 'cut': {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': customerText.length,
      });
      response.write(customerText.slice(0, hostile.sent));
      response.socket?.destroy();
      return;
    }
    case 'content-type': {
      response.writeHead(200, { 'content-type': hostile.contentType });
      response.end(hostile.body);
      return;
    }
    case 'status': {
      response.writeHead(hostile.status, { 'content-type': 'application/json' });
      response.end(hostile.body);
      return;
    }
    case 'redirect': {
      // A location with characters a header cannot carry is the server's error, not the client's: send none.
      const isValidHeader = /^[\t\x20-\x7e]*$/.test(hostile.location);
      response.writeHead(hostile.status, isValidHeader ? { location: hostile.location } : {});
      response.end();
      return;
    }
  }
}

let server: FakeOamServer;
let host: HostProcess;
let hostile: Hostile = { kind: 'value', value: customer };
let paging: HostilePaging = { kind: 'forever' };
const answerPaging = answerHostilePaging(() => paging);

/** Any paging a server may give a gateway group: page counts from nowhere, totals that do not add up, no end. */
const hostilePagingArbitrary: fc.Arbitrary<HostilePaging> = fc.oneof(
  fc.record({
    kind: fc.constant('huge-total-pages' as const),
    totalPages: fc.oneof(fc.constantFrom(2 ** 32, 1e7, 10_001), fc.integer({ min: 1, max: 2 ** 40 })),
  }),
  fc.record({
    kind: fc.constant('inconsistent' as const),
    totalPages: fc.integer({ min: 0, max: 2 ** 33 }),
    totalElements: fc.integer({ min: 0, max: 2 ** 33 }),
  }),
  fc.record({ kind: fc.constant('forever' as const), nameLength: fc.constantFrom(0, 2048) }),
  fc.record({
    kind: fc.constant('large' as const),
    totalElements: fc.integer({ min: 0, max: 3_000 }),
    nameLength: fc.constantFrom(0, 2048),
  }),
);

beforeAll(async () => {
  server = await startFakeOamServer((request, response) => {
    if (request.url === '/api/auth/login' || request.url === '/api/auth/token')
      answerLogin(request, response);
    else if (request.url?.includes('/gateways?')) answerPaging(request, response);
    else answerHostile(hostile, response);
  });
  host = await startHostProcess();
  const saved = (await host.invoke('profiles:save', { name: 'Hostile lab', baseUrl: server.url })) as {
    value: { id: string };
  };
  expect(
    await host.invoke('session:login', {
      profileId: saved.value.id,
      username: 'tech@acme.test',
      password: 'secret',
      remember: 'none',
    }),
  ).toMatchObject({ ok: true });
});

afterAll(async () => {
  await host?.stop();
  await server?.close();
});

describe('browser host against a hostile server', () => {
  it('answers every call and app:info, and stays within its memory bound', { timeout: 240_000 }, async () => {
    let calls = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(hostileArbitrary, fc.boolean(), async (answer, viaCachedRead) => {
        hostile = answer;
        const call = viaCachedRead
          ? host.invoke('api:call', { endpoint: 'getCustomer', params: { customerId: 'customer-1' } })
          : host.invoke('api:call', { endpoint: 'getCurrentUser' });
        // While the server answers, the host still answers everyone else.
        expect(await host.invoke('app:info')).toMatchObject({ ok: true, value: { mode: 'browser' } });
        const result = (await call) as { ok: boolean; error?: { code: string; message: string } };
        calls += 1;
        if (!result.ok) {
          refused += 1;
          expect(result.error).toEqual(
            expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
          );
          expect(result.error!.code).not.toBe('INTERNAL');
        }
        if (answer.kind === 'deep' || answer.kind === 'huge' || answer.kind === 'redirect')
          expect(result.ok).toBe(false);
        expect(await host.invoke('app:info')).toMatchObject({ ok: true });
        expect(host.isRunning()).toBe(true);
      }),
      { numRuns: 30 },
    );
    const memory = await readMemoryMegabytes(host.pid);
    expect(memory.peak).toBeLessThan(PEAK_RSS_BOUND_MB);
    expect(calls).toBe(30);
    expect(refused).toBeGreaterThan(0);
  });

  it(
    'expands a gateway group from a hostile pager into a list or a refusal, within its memory bound',
    { timeout: 240_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(hostilePagingArbitrary, async (answer) => {
          paging = answer;
          const result = (await host.invoke('fleet:preview', {
            change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
            gatewayGroupId: 'group-1',
          })) as { ok: boolean; value?: { gatewayCount: number }; error?: { code: string; message: string } };
          if (answer.kind === 'large' && answer.totalElements > 0) {
            expect(result).toMatchObject({ ok: true, value: { gatewayCount: answer.totalElements } });
          } else if (answer.kind === 'large') {
            expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
          } else {
            expect(result.ok).toBe(false);
            expect(result.error?.code).toBe('API_ERROR');
            expect(result.error?.message).toMatch(/^Unexpected answer from listGatewayGroupGateways: /);
          }
          expect(await host.invoke('app:info')).toMatchObject({ ok: true });
        }),
        { numRuns: 12 },
      );
      expect((await readMemoryMegabytes(host.pid)).peak).toBeLessThan(PEAK_RSS_BOUND_MB);
    },
  );
});
