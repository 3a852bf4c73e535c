import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import { HostAddressError, startHost, type StartedHost } from '../../../electron/host';
import {
  BUSY_MESSAGE,
  KEY_REFUSED_MESSAGE,
  LINK_LIFETIME_MS,
  MAX_CONNECTIONS,
} from '../../../electron/host/host-server';
import { HOST_BUSY_CODE, HOST_KEY_REFUSED_CODE } from '../../../electron/shared/ipc/host-key';
import { MemoryStore } from '../../../electron/services/credentials';
import type { Clock } from '../../../electron/shared/clock';
import { decodeEventFrame } from '../../../electron/shared/ipc/event-frame';
import { createHostSocket, exchangeLink, settleSocket } from '../../helpers/host-socket';

let folder: string;
const hosts: StartedHost[] = [];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers, agent: false }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function launch(
  options: { port?: number; demo?: boolean; clock?: Pick<Clock, 'now'> } = {},
): Promise<StartedHost> {
  const host = await startHost({
    ...options,
    dataDir: join(folder, 'data'),
    rendererDir: join(folder, 'renderer'),
    credentials: { store: new MemoryStore(), keychain: 'os' },
    log: { info: () => undefined, error: () => undefined },
  });
  hosts.push(host);
  return host;
}

/** Opens the printed URL as a browser would and returns the key it was handed. */
function exchangeToken(host: StartedHost): Promise<string> {
  return exchangeLink(host.url);
}

function origin(host: StartedHost): string {
  return `http://127.0.0.1:${host.port}`;
}

/**
 * Connects to /ipc with `key` as the page does; resolves the socket once the host answered a call on it, or
 * rejects saying how the host refused it (`refused <status>`, `closed <code>: <reason>`).
 */
async function connect(
  host: StartedHost,
  key: string | undefined,
  headers: Record<string, string> = {},
): Promise<WebSocket> {
  const outcome = await settleSocket(createHostSocket(origin(host), key, headers));
  if (outcome.kind === 'open') return outcome.socket;
  throw new Error(
    outcome.kind === 'refused' ? `refused ${outcome.status}` : `closed ${outcome.code}: ${outcome.reason}`,
  );
}

function invoke(socket: WebSocket, id: number, channel: string, input?: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id === id) {
        socket.off('message', onMessage);
        resolve(message.result);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, input }));
  });
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-host-'));
  await mkdir(join(folder, 'renderer'));
  await writeFile(join(folder, 'renderer', 'index.html'), '<!doctype html><title>Field Kit</title>', 'utf8');
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await rm(folder, { recursive: true, force: true });
});

describe('browser host', () => {
  it('prints a URL on 127.0.0.1 carrying a random token', async () => {
    const host = await launch();
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/);
  });

  it('refuses to listen on any address but 127.0.0.1', async () => {
    await expect(startHost({ host: '0.0.0.0' })).rejects.toBeInstanceOf(HostAddressError);
  });

  it("serves the page without a credential, but closes its socket without this run's key, saying why", async () => {
    const host = await launch();
    expect((await get(`${origin(host)}/`)).status).toBe(200);
    await expect(connect(host, undefined)).rejects.toThrow(
      `closed ${HOST_KEY_REFUSED_CODE}: ${KEY_REFUSED_MESSAGE}`,
    );
  });

  it('refuses a wrong token', async () => {
    const host = await launch();
    const answer = await get(`${origin(host)}/?token=not-the-token`);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('This link has expired or is not from this run of Field Kit');
    expect(answer.headers.location).toBeUndefined();
  });

  it("exchanges the token for this run's key in the redirect's fragment, and sets no cookie", async () => {
    const host = await launch();
    const answer = await get(host.url);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(/^\/#fieldkit-key=[A-Za-z0-9_-]{40,}$/);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('hands the key out once: the same link opened again leads to / without it', async () => {
    const host = await launch();
    const link = host.url;
    expect(await exchangeLink(link)).not.toBe('');
    const again = await get(link);
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/');
  });

  it('refuses a link nobody opened within 5 minutes', async () => {
    let now = 1_700_000_000_000;
    const host = await launch({ clock: { now: () => now } });
    const link = host.url;
    now += LINK_LIFETIME_MS;
    expect((await get(link)).status).toBe(403);
  });

  it('issues a new link on each read of url, each good once', async () => {
    const host = await launch();
    const [first, second] = [host.url, host.url];
    expect(second).not.toBe(first);
    expect((await get(second)).status).toBe(303);
    expect((await get(first)).status).toBe(303);
  });

  it('always redirects the token exchange to /, never to a path of the request', async () => {
    const host = await launch();
    const token = new URL(host.url).searchParams.get('token')!;
    const answer = await get(`${origin(host)}/.//evil.example/x?token=${token}`);
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.location as string, origin(host)).pathname).toBe('/');
    expect(answer.headers.location).toMatch(/^\/#/);
  });

  it('serves the renderer with a strict CSP', async () => {
    const host = await launch();
    const answer = await get(`${origin(host)}/`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>Field Kit</title>');
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('refuses a request whose Host header is not ours (DNS rebinding)', async () => {
    const host = await launch();
    const answer = await get(`${origin(host)}/`, { host: `evil.example:${host.port}` });
    expect(answer.status).toBe(421);
  });

  it('does not serve files outside the renderer folder', async () => {
    const host = await launch();
    const answer = await get(`${origin(host)}/..%2fdata%2fprofiles.json`);
    expect(answer.status).toBe(404);
  });

  it('refuses a WebSocket from a foreign Origin even with the key', async () => {
    const host = await launch();
    const key = await exchangeToken(host);
    await expect(connect(host, key, { origin: 'http://evil.example' })).rejects.toThrow('refused 403');
  });

  it('refuses a stale key from an earlier run on the same port', async () => {
    const first = await launch();
    const staleKey = await exchangeToken(first);
    const port = first.port;
    await first.close();
    const second = await launch({ port });
    await expect(connect(second, staleKey)).rejects.toThrow(`closed ${HOST_KEY_REFUSED_CODE}`);
  });

  it(`serves ${MAX_CONNECTIONS} sockets at once, closes the next saying why, and takes one again after one closes`, async () => {
    const host = await launch();
    const key = await exchangeToken(host);
    const open: WebSocket[] = [];
    for (let index = 0; index < MAX_CONNECTIONS; index += 1) open.push(await connect(host, key));
    await expect(connect(host, key)).rejects.toThrow(`closed ${HOST_BUSY_CODE}: ${BUSY_MESSAGE}`);
    const closing = open.pop()!;
    await new Promise((resolve) => {
      closing.once('close', resolve);
      closing.close();
    });
    await vi.waitFor(async () => open.push(await connect(host, key)));
    expect(await invoke(open[0]!, 1, 'app:info')).toMatchObject({ ok: true });
    for (const socket of open) socket.close();
  });

  it('lets a good client call app:info', async () => {
    const host = await launch();
    const socket = await connect(host, await exchangeToken(host));
    expect(await invoke(socket, 1, 'app:info')).toEqual({
      ok: true,
      value: { version: expect.any(String), mode: 'browser', keychain: 'os' },
    });
    socket.close();
  });

  it('pushes terminal output as one binary message holding every byte, in order with the events around it', async () => {
    const host = await launch();
    const socket = await connect(host, await exchangeToken(host));
    const messages: Array<{ isBinary: boolean; data: Buffer }> = [];
    socket.on('message', (data: Buffer, isBinary) => messages.push({ isBinary, data }));
    const bytes = Uint8Array.from({ length: 300_000 }, (_, index) => (index * 7) % 256);
    const totals = { bytesIn: 300_003, bytesOut: 12 };
    host.services.events.emit('terminal:data', { id: 'term-1', data: bytes, ...totals });
    host.services.events.emit('terminal:data', { id: 'term-1', data: new Uint8Array([1, 2, 3]), ...totals });
    await vi.waitFor(() => expect(messages).toHaveLength(2));
    expect(messages.map(({ isBinary }) => isBinary)).toEqual([true, true]);
    const [first, second] = messages.map(({ data }) => decodeEventFrame(data));
    expect(first).toMatchObject({ event: 'terminal:data', payload: { id: 'term-1', ...totals } });
    expect(Buffer.from(first!.payload.data).equals(bytes)).toBe(true);
    expect([...second!.payload.data]).toEqual([1, 2, 3]);
    socket.close();
  });

  it('answers a frame whose channel has a non-callable toString, and keeps answering', async () => {
    const host = await launch();
    const socket = await connect(host, await exchangeToken(host));
    const answered = new Promise<unknown>((resolve) =>
      socket.once('message', (data: WebSocket.RawData) => resolve(JSON.parse(data.toString()))),
    );
    socket.send('{"id":1,"channel":{"toString":1},"input":{}}');
    expect(await answered).toMatchObject({ id: 1, result: { ok: false, error: { code: 'INVALID_INPUT' } } });
    expect(await invoke(socket, 2, 'app:info')).toMatchObject({ ok: true });
    socket.close();
  });

  it('answers INTERNAL for a server answer nested 6,000 levels deep, and keeps answering', async () => {
    const host = await launch();
    let deep: unknown = [];
    for (let level = 0; level < 6_000; level += 1) deep = [deep];
    host.services.handlers['api:call'] = () => ({
      data: [],
      extra: deep,
    });
    const socket = await connect(host, await exchangeToken(host));
    expect(await invoke(socket, 1, 'api:call', { endpoint: 'listGateways' })).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL' },
    });
    expect(await invoke(socket, 2, 'app:info')).toMatchObject({ ok: true });
    socket.close();
  });

  it('answers a bad input with INVALID_INPUT over the socket', async () => {
    const host = await launch();
    const socket = await connect(host, await exchangeToken(host));
    expect(await invoke(socket, 7, 'profiles:select', { id: 42 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ path: 'id' }] },
    });
    socket.close();
  });

  it('in demo mode preselects the demo profile listing its accounts, and logs in to the simulator', async () => {
    const host = await launch({ demo: true });
    const socket = await connect(host, await exchangeToken(host));
    const list = (await invoke(socket, 1, 'profiles:list')) as {
      value: {
        profiles: { id: string; name: string; demoAccounts?: { username: string; password: string }[] }[];
        selectedId: string;
      };
    };
    const demo = list.value.profiles[0];
    expect(demo?.name).toBe('Demo network server');
    expect(list.value.selectedId).toBe(demo?.id);
    const account = demo?.demoAccounts?.[0];
    expect(account).toBeDefined();
    const changed = new Promise<unknown>((resolve) => {
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { event?: string; payload?: unknown };
        if (message.event === 'session:changed') resolve(message.payload);
      });
    });
    const login = await invoke(socket, 2, 'session:login', {
      profileId: demo?.id,
      username: account?.username,
      password: account?.password,
      remember: 'none',
    });
    expect(login).toMatchObject({ ok: true, value: { username: account?.username, state: 'active' } });
    expect(await changed).toMatchObject({ username: account?.username });
    socket.close();
  });
});
