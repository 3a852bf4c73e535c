import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createDefaultTransport,
  createPreloadTransport,
  createSocketTransport,
  type Bridge,
  type SocketLike,
} from '../../../../renderer/src/lib/transport';
import { IpcClient } from '../../../../renderer/src/lib/ipc';
import type { Result } from '../../../../renderer/src/lib/wire-types';
import type {
  Apn,
  AuthUser,
  CommandResponse,
  Gateway,
  PerformanceSample,
} from '../../../../electron/shared/api';
import type { BackupView } from '../../../../electron/shared/ipc/domains/gateway-task-answers';
import { encodeEventFrame } from '../../../../electron/shared/ipc/event-frame';
import { ManualClock } from '../../../helpers/manual-clock';

/** A socket the test opens, closes and answers by hand. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: { id: number; channel: string; input?: unknown }[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  binaryType?: string;

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
  answer(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  answerBinary(frame: Uint8Array): void {
    this.onmessage?.({ data: frame.slice().buffer });
  }
}

function setUp(options: { callWaitMs?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const clock = new ManualClock();
  const transport = createSocketTransport({
    url: 'ws://127.0.0.1:1/ipc',
    clock,
    initialRetryDelayMs: 100,
    maxRetryDelayMs: 400,
    callWaitMs: options.callWaitMs ?? 1000,
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
  });
  const latest = () => sockets[sockets.length - 1] as FakeSocket;
  return { transport, clock, sockets, latest };
}

describe('socket transport', () => {
  it('sends a call as { id, channel, input } and resolves with the matching result', async () => {
    const { transport, latest } = setUp();
    latest().open();
    const pending = transport.invoke('profiles:select', { id: 'demo' });
    const [sent] = latest().sent;
    expect(sent).toEqual({ id: 1, channel: 'profiles:select', input: { id: 'demo' } });
    latest().answer({ id: 1, result: { ok: true, value: null } });
    await expect(pending).resolves.toEqual({ ok: true, value: null });
  });

  it('holds a call made before the link opens and sends it once it does', async () => {
    const { transport, latest } = setUp();
    const pending = transport.invoke('session:get', undefined);
    expect(latest().sent).toHaveLength(0);
    latest().open();
    latest().answer({ id: 1, result: { ok: true, value: null } });
    await expect(pending).resolves.toEqual({ ok: true, value: null });
  });

  it('answers NETWORK for a call in flight when the link drops, rather than sending it twice', async () => {
    const { transport, latest, clock, sockets } = setUp();
    latest().open();
    const pending = transport.invoke('session:logout', undefined);
    latest().drop();
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'NETWORK' } });
    clock.advance(100);
    latest().open();
    expect(sockets.flatMap((socket) => socket.sent)).toHaveLength(1);
  });

  it('answers TIMEOUT when the link stays down longer than a call may wait', async () => {
    const { transport, latest, clock } = setUp({ callWaitMs: 1000 });
    latest().drop();
    const pending = transport.invoke('session:get', undefined);
    clock.advance(1000);
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it('reconnects with doubling delays up to the maximum and reports each attempt', () => {
    const { transport, latest, clock, sockets } = setUp();
    const delays: number[] = [];
    transport.onConnection((snapshot) => {
      if (snapshot.status === 'reconnecting' && snapshot.retryAt !== null)
        delays.push(snapshot.retryAt - clock.now());
    });
    for (let attempt = 0; attempt < 5; attempt++) {
      latest().drop();
      clock.advance(400);
    }
    expect(delays).toEqual([100, 200, 400, 400, 400]);
    expect(sockets).toHaveLength(6);
  });

  it('reports open and resets the backoff once a reconnect succeeds', () => {
    const { transport, latest, clock } = setUp();
    latest().drop();
    latest().drop();
    clock.advance(100);
    latest().open();
    expect(transport.connection()).toEqual({ status: 'open', attempt: 0, retryAt: null });
  });

  it('reconnects at once when asked to retry now', () => {
    const { transport, latest, sockets } = setUp();
    latest().drop();
    transport.retryNow();
    expect(sockets).toHaveLength(2);
    expect(transport.connection().status).toBe('reconnecting');
  });

  it('delivers pushed events to their listeners until they unsubscribe', () => {
    const { transport, latest } = setUp();
    latest().open();
    const received: unknown[] = [];
    const stop = transport.on('session:changed', (payload) => received.push(payload));
    latest().answer({ event: 'session:changed', payload: null });
    stop();
    latest().answer({ event: 'session:changed', payload: { state: 'active' } });
    expect(received).toEqual([null]);
  });

  it('asks for binary frames as ArrayBuffers and delivers terminal output from them byte for byte', () => {
    const { transport, latest } = setUp();
    latest().open();
    expect(latest().binaryType).toBe('arraybuffer');
    const received: Array<{ id: string; data: Uint8Array }> = [];
    transport.on('terminal:data', (payload) => received.push(payload as (typeof received)[number]));
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    latest().answerBinary(
      new Uint8Array(Buffer.concat(encodeEventFrame('terminal:data', { id: 'term-1', data: bytes }))),
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.id).toBe('term-1');
    expect([...received[0]!.data]).toEqual([...bytes]);
  });

  it('ignores a binary frame it cannot read', () => {
    const { transport, latest } = setUp();
    latest().open();
    const received: unknown[] = [];
    transport.on('terminal:data', (payload) => received.push(payload));
    latest().answerBinary(new Uint8Array([0, 0, 0, 200, 1, 2]));
    latest().answerBinary(new Uint8Array([0, 0, 0, 3, 0x7b, 0x7d, 0x21]));
    expect(received).toEqual([]);
  });

  it('answers INTERNAL when the backend sends a result of the wrong shape', async () => {
    const { transport, latest } = setUp();
    latest().open();
    const pending = transport.invoke('app:info', undefined);
    latest().answer({ id: 1, result: { status: 'fine' } });
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('stops reconnecting once closed', () => {
    const { transport, latest, clock, sockets } = setUp();
    latest().open();
    transport.close();
    clock.advance(10_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('default transport', () => {
  it('uses the preload bridge when Electron exposes one, and is always connected', async () => {
    const calls: unknown[] = [];
    const fieldkit: Bridge = {
      invoke: async (channel, input) => {
        calls.push([channel, input]);
        return { ok: true, value: 'pong' };
      },
      on: () => () => undefined,
    };
    const transport = createDefaultTransport({ fieldkit, location: { protocol: 'app:', host: 'fieldkit' } });
    await expect(transport.invoke('app:info', undefined)).resolves.toEqual({ ok: true, value: 'pong' });
    expect(calls).toEqual([['app:info', undefined]]);
    expect(transport.connection().status).toBe('open');
  });

  it('opens the WebSocket at /ipc on the page’s own origin otherwise', () => {
    const urls: string[] = [];
    const createSocket = (url: string) => {
      urls.push(url);
      return new FakeSocket();
    };
    createDefaultTransport({ location: { protocol: 'http:', host: '127.0.0.1:4321' } }, createSocket).close();
    createDefaultTransport({ location: { protocol: 'https:', host: 'example.test' } }, createSocket).close();
    expect(urls).toEqual(['ws://127.0.0.1:4321/ipc', 'wss://example.test/ipc']);
  });
});

describe('the browser host key', () => {
  /** A page at a host origin with `hash` in its address and `stored` in its localStorage. */
  function setUpPage(hash: string, stored: string | null) {
    const storage = new Map<string, string>(stored === null ? [] : [['fieldkit-host-key', stored]]);
    const addresses: string[] = [];
    const offered: string[][] = [];
    const sockets: FakeSocket[] = [];
    const transport = createDefaultTransport(
      {
        location: { protocol: 'http:', host: '127.0.0.1:4321', hash, pathname: '/', search: '' },
        history: { replaceState: (_data, _unused, url) => void addresses.push(String(url)) },
        localStorage: {
          getItem: (name) => storage.get(name) ?? null,
          setItem: (name, value) => void storage.set(name, value),
        },
      },
      (_url, protocols) => {
        offered.push(protocols);
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
    );
    const latest = () => sockets[sockets.length - 1] as FakeSocket;
    const refuse = (code: number, reason: string) => {
      latest().readyState = 3;
      latest().onclose?.({ code, reason });
    };
    return { transport, storage, addresses, offered, latest, refuse };
  }

  it('offers the key handed over in the fragment, takes it out of the address bar and keeps it once accepted', () => {
    const page = setUpPage('#fieldkit-key=fresh', 'old');
    expect(page.addresses).toEqual(['/']);
    expect(page.offered).toEqual([['fieldkit', 'fieldkit-key.fresh']]);
    page.latest().open();
    expect(page.storage.get('fieldkit-host-key')).toBe('fresh');
    expect(page.transport.connection().status).toBe('open');
    page.transport.close();
  });

  it('falls back at once to the key it kept when the host refuses the handed one, and never keeps a refused key', () => {
    const page = setUpPage('#fieldkit-key=planted', 'kept');
    page.refuse(4401, 'no key');
    expect(page.offered).toEqual([
      ['fieldkit', 'fieldkit-key.planted'],
      ['fieldkit', 'fieldkit-key.kept'],
    ]);
    page.latest().open();
    expect(page.storage.get('fieldkit-host-key')).toBe('kept');
    page.transport.close();
  });

  it("stops retrying when the host refuses every key, says so in the host's words and fails calls at once", async () => {
    const page = setUpPage('', null);
    expect(page.offered).toEqual([['fieldkit']]);
    page.refuse(4401, 'This page holds no key.');
    expect(page.transport.connection()).toMatchObject({
      status: 'refused',
      reason: 'This page holds no key.',
    });
    await expect(page.transport.invoke('app:info', undefined)).resolves.toMatchObject({
      ok: false,
      error: { code: 'NETWORK', message: 'This page holds no key.' },
    });
    expect(page.offered).toHaveLength(1);
    page.transport.retryNow();
    expect(page.offered).toHaveLength(2);
    page.transport.close();
  });

  it('stops retrying when the host serves its most connections, and tries again when asked', () => {
    const page = setUpPage('', 'kept');
    page.refuse(1013, 'Field Kit already serves 16 connections.');
    expect(page.transport.connection()).toMatchObject({ status: 'refused' });
    page.transport.retryNow();
    page.latest().open();
    expect(page.transport.connection().status).toBe('open');
    page.transport.close();
  });
});

describe('typed endpoint calls', () => {
  /** A client over a preload bridge that records what crosses and answers `value`. */
  function clientAnswering(value: unknown) {
    const crossed: unknown[] = [];
    const bridge: Bridge = {
      invoke: async (channel, input) => {
        crossed.push([channel, input]);
        return { ok: true, value };
      },
      on: () => () => undefined,
    };
    return { client: new IpcClient(createPreloadTransport(bridge)), crossed };
  }

  it('sends an endpoint call as api:call with the endpoint and its parts, and answers what main answered', async () => {
    const samples = [{ timeMs: 1, value: 42 }];
    const { client, crossed } = clientAnswering(samples);
    const answer = await client.call('getGatewayPerformance', {
      params: { gatewayId: 'gateway-1', measurement: 'system', field: 'cpuUsage' },
      query: { startMs: 0, stopMs: 10 },
    });
    expect(crossed).toEqual([
      [
        'api:call',
        {
          endpoint: 'getGatewayPerformance',
          params: { gatewayId: 'gateway-1', measurement: 'system', field: 'cpuUsage' },
          query: { startMs: 0, stopMs: 10 },
        },
      ],
    ]);
    expect(answer).toEqual({ ok: true, value: samples });
    expectTypeOf(answer).toEqualTypeOf<Result<PerformanceSample[]>>();
  });

  it('sends only the endpoint for an endpoint without parts', async () => {
    const { client, crossed } = clientAnswering({ id: { id: 'user-1' } });
    const answer = await client.call('getCurrentUser');
    expect(crossed).toEqual([['api:call', { endpoint: 'getCurrentUser' }]]);
    if (answer.ok) expectTypeOf(answer.value).toEqualTypeOf<AuthUser>();
  });

  it('types the answer of a page endpoint from the endpoint table', async () => {
    const { client } = clientAnswering({ data: [], totalPages: 0, totalElements: 0, hasNext: false });
    const answer = await client.call('listCustomerGateways', { params: { customerId: 'customer-1' } });
    expect(answer.ok && answer.value.data).toEqual([]);
    if (answer.ok) expectTypeOf(answer.value.data).toEqualTypeOf<Gateway[]>();
  });

  it('refuses wrong parts at compile time, and sends them unchanged for main to refuse at run time', async () => {
    const { client, crossed } = clientAnswering(null);
    // @ts-expect-error customerId is a required path parameter of getCustomer.
    await client.call('getCustomer', { params: {} });
    // @ts-expect-error getCustomer has path parameters, so its parts cannot be left out.
    await client.call('getCustomer');
    // @ts-expect-error no endpoint of the table has this name.
    await client.call('getEverything');
    expect(crossed).toEqual([
      ['api:call', { endpoint: 'getCustomer', params: {} }],
      ['api:call', { endpoint: 'getCustomer' }],
      ['api:call', { endpoint: 'getEverything' }],
    ]);
  });
});

describe('IpcClient gateway commands and tasks', () => {
  function clientAnswering(value: unknown) {
    const crossed: unknown[] = [];
    const bridge: Bridge = {
      invoke: async (channel, input) => {
        crossed.push([channel, input]);
        return { ok: true, value };
      },
      on: () => () => undefined,
    };
    return { client: new IpcClient(createPreloadTransport(bridge)), crossed };
  }

  it("sends a command as gateway:command and types the answer from the command's response schema", async () => {
    const apns = { workingIdx: 0, apns: [{ name: 'internet', type: 0, idxModem: 0, idx: 0 }] };
    const { client, crossed } = clientAnswering(apns);
    const answer = await client.command({ gatewayId: 'gateway-1', command: 'getWmApns', body: {} });
    expect(crossed).toEqual([
      ['gateway:command', { gatewayId: 'gateway-1', command: 'getWmApns', body: {} }],
    ]);
    expect(answer).toEqual({ ok: true, value: apns });
    expectTypeOf(answer).toEqualTypeOf<Result<CommandResponse<'getWmApns'>>>();
    if (answer.ok) {
      expectTypeOf(answer.value.apns).toEqualTypeOf<Apn[]>();
      expectTypeOf(answer.value.workingIdx).toEqualTypeOf<number>();
    }
  });

  it('types the ping answer with its packet counts', async () => {
    const { client } = clientAnswering({ packets_sent: 4, packets_recv: 3 });
    const answer = await client.command({
      gatewayId: 'gateway-1',
      command: 'ping',
      body: { destination: '192.0.2.1', packetsCount: 4 },
    });
    expect(answer.ok && answer.value.packets_recv).toBe(3);
    if (answer.ok) expectTypeOf(answer.value.packets_recv).toEqualTypeOf<number>();
  });

  it('refuses a wrong command body at compile time, and sends it unchanged for main to refuse', async () => {
    const { client, crossed } = clientAnswering(null);
    const wrongPing = { destination: 'a', packetsCount: '4' };
    // @ts-expect-error packetsCount of ping is a number.
    await client.command({ gatewayId: 'gateway-1', command: 'ping', body: wrongPing });
    // @ts-expect-error no command of the catalogue has this name.
    await client.command({ gatewayId: 'gateway-1', command: 'formatDisk', body: {} });
    expect(crossed).toEqual([
      ['gateway:command', { gatewayId: 'gateway-1', command: 'ping', body: wrongPing }],
      ['gateway:command', { gatewayId: 'gateway-1', command: 'formatDisk', body: {} }],
    ]);
  });

  it("sends a task as gateway-task:run and types its value from the task's answer", async () => {
    const backups = [{ description: 'before APN change', date: '2026-11-25T10:00:00', index: 2, dateMs: 0 }];
    const { client, crossed } = clientAnswering({ runId: 'run-1', value: backups });
    const answer = await client.runTask({
      gatewayId: 'gateway-1',
      runId: 'run-1',
      task: { task: 'listBackups' },
    });
    expect(crossed).toEqual([
      ['gateway-task:run', { gatewayId: 'gateway-1', runId: 'run-1', task: { task: 'listBackups' } }],
    ]);
    expect(answer.ok && answer.value.value).toEqual(backups);
    if (answer.ok) expectTypeOf(answer.value.value).toEqualTypeOf<BackupView[]>();
  });

  it('types a task that changes the gateway as a result in words', async () => {
    const result = { task: 'createBackup', outcome: 'ok', message: 'Backup "x" created.', index: 3 };
    const { client } = clientAnswering({ runId: 'run-2', value: result });
    const answer = await client.runTask({
      gatewayId: 'gateway-1',
      task: { task: 'createBackup', description: 'x' },
    });
    expect(answer.ok && answer.value.value.message).toBe('Backup "x" created.');
    if (answer.ok) {
      expectTypeOf(answer.value.value.message).toEqualTypeOf<string>();
      expectTypeOf(answer.value.value.index).toEqualTypeOf<number | undefined>();
    }
  });
});
