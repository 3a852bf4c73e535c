import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { HostAddressError, startHost, type StartedHost } from '../../../electron/host';
import { LINK_LIFETIME_MS } from '../../../electron/host/host-server';
import { MemoryStore } from '../../../electron/services/credentials';
import type { Clock } from '../../../electron/shared/clock';
import { decodeEventFrame } from '../../../electron/shared/ipc/event-frame';

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

/** Opens the printed URL as a browser would and returns the cookie it was given. */
async function exchangeToken(host: StartedHost): Promise<string> {
  const answer = await get(host.url);
  const setCookie = answer.headers['set-cookie']?.[0] ?? '';
  return setCookie.split(';')[0] ?? '';
}

function origin(host: StartedHost): string {
  return `http://127.0.0.1:${host.port}`;
}

/** Connects to /ipc; resolves the open socket or rejects with the HTTP status that refused it. */
function connect(host: StartedHost, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
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

  it('refuses a page request without the token or its cookie', async () => {
    const host = await launch();
    const answer = await get(`${origin(host)}/`);
    expect(answer.status).toBe(403);
  });

  it('refuses a wrong token', async () => {
    const host = await launch();
    const answer = await get(`${origin(host)}/?token=not-the-token`);
    expect(answer.status).toBe(403);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('exchanges the token for an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const host = await launch();
    const answer = await get(host.url);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['set-cookie']?.[0]).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
  });

  it('accepts a link once: a second browser opening the same link is refused', async () => {
    const host = await launch();
    const link = host.url;
    expect((await get(link)).status).toBe(303);
    const again = await get(link);
    expect(again.status).toBe(403);
    expect(again.body).toContain('This link was already used, has expired');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('sends a browser that already holds the cookie back to / when it reloads a used link', async () => {
    const host = await launch();
    const link = host.url;
    const cookie = (await get(link)).headers['set-cookie']?.[0]?.split(';')[0] ?? '';
    const reload = await get(link, { cookie });
    expect(reload.status).toBe(303);
    expect(reload.headers.location).toBe('/');
    expect(reload.headers['set-cookie']).toBeUndefined();
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
    expect(answer.headers.location).toBe('/');
  });

  it('serves the renderer with a strict CSP once the cookie is held', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    const answer = await get(`${origin(host)}/`, { cookie });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>Field Kit</title>');
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('refuses a request whose Host header is not ours (DNS rebinding)', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    const answer = await get(`${origin(host)}/`, { cookie, host: `evil.example:${host.port}` });
    expect(answer.status).toBe(421);
  });

  it('does not serve files outside the renderer folder', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    const answer = await get(`${origin(host)}/..%2fdata%2fprofiles.json`, { cookie });
    expect(answer.status).toBe(404);
  });

  it('refuses a WebSocket without the cookie', async () => {
    const host = await launch();
    await expect(connect(host, { origin: origin(host) })).rejects.toThrow('refused 403');
  });

  it('refuses a WebSocket from a foreign Origin even with the cookie', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    await expect(connect(host, { origin: 'http://evil.example', cookie })).rejects.toThrow('refused 403');
  });

  it('refuses a stale cookie from an earlier run on the same port', async () => {
    const first = await launch();
    const staleCookie = await exchangeToken(first);
    const port = first.port;
    await first.close();
    const second = await launch({ port });
    expect((await get(`${origin(second)}/`, { cookie: staleCookie })).status).toBe(403);
    await expect(connect(second, { origin: origin(second), cookie: staleCookie })).rejects.toThrow(
      'refused 403',
    );
  });

  it('lets a good client call app:info', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    const socket = await connect(host, { origin: origin(host), cookie });
    expect(await invoke(socket, 1, 'app:info')).toEqual({
      ok: true,
      value: { version: expect.any(String), mode: 'browser', keychain: 'os' },
    });
    socket.close();
  });

  it('pushes terminal output as one binary message holding every byte, in order with the events around it', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    const socket = await connect(host, { origin: origin(host), cookie });
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
    const cookie = await exchangeToken(host);
    const socket = await connect(host, { origin: origin(host), cookie });
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
    (host.services.handlers as unknown as Record<string, () => unknown>)['api:call'] = () => ({
      data: [],
      extra: deep,
    });
    const cookie = await exchangeToken(host);
    const socket = await connect(host, { origin: origin(host), cookie });
    expect(await invoke(socket, 1, 'api:call', { endpoint: 'listGateways' })).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL' },
    });
    expect(await invoke(socket, 2, 'app:info')).toMatchObject({ ok: true });
    socket.close();
  });

  it('answers a bad input with INVALID_INPUT over the socket', async () => {
    const host = await launch();
    const cookie = await exchangeToken(host);
    const socket = await connect(host, { origin: origin(host), cookie });
    expect(await invoke(socket, 7, 'profiles:select', { id: 42 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ path: 'id' }] },
    });
    socket.close();
  });

  it('in demo mode preselects the demo profile listing its accounts, and logs in to the simulator', async () => {
    const host = await launch({ demo: true });
    const cookie = await exchangeToken(host);
    const socket = await connect(host, { origin: origin(host), cookie });
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
