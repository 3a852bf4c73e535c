// Issue 28: the browser host's fleet preview against a server whose paging never ends, and what happens to the
// group expansion when the page that asked for it goes away.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { startHost, type StartedHost } from '../../../electron/host';
import { MAX_LIST_BYTES } from '../../../electron/services/api';
import { MemoryStore } from '../../../electron/services/credentials';
import { startFakeOamServer, type FakeOamServer } from '../../helpers/fake-oam-server';
import { createHostSocket, exchangeLink } from '../../helpers/host-socket';
import { answerHostilePaging, pageQueryOf, type HostilePaging } from '../../helpers/hostile-pager';

let folder: string;
let server: FakeOamServer;
let host: StartedHost;
let paging: HostilePaging = { kind: 'forever' };
let onPage: (page: number, response: ServerResponse) => boolean = () => true;

/** This run's host key, read once from the single-use link. */
let hostKey: string;

/** A page of the host: a WebSocket to /ipc that carries the host's key. */
async function openPage(): Promise<{
  socket: WebSocket;
  invoke: (channel: string, input?: unknown) => Promise<unknown>;
}> {
  const socket = createHostSocket(`http://127.0.0.1:${host.port}`, hostKey);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 0;
  const invoke = (channel: string, input?: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (message.id !== id) return;
        socket.off('message', onMessage);
        resolve(message.result);
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, channel, input }));
    });
  return { socket, invoke };
}

const groupPages = (groupId: string) =>
  server.requests.filter((seen) => seen.url.includes(`/gatewayGroup/${groupId}/gateways?`));

const preview = (groupId: string) => ({
  change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
  gatewayGroupId: groupId,
});

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-hostile-pager-'));
  await mkdir(join(folder, 'renderer'));
  await writeFile(join(folder, 'renderer', 'index.html'), '<!doctype html><title>Field Kit</title>', 'utf8');
  server = await startFakeOamServer(
    answerHostilePaging(
      () => paging,
      (page, response) => onPage(page, response),
    ),
  );
  host = await startHost({
    dataDir: join(folder, 'data'),
    rendererDir: join(folder, 'renderer'),
    credentials: { store: new MemoryStore(), keychain: 'os' },
    log: { info: () => undefined, error: () => undefined },
  });
  hostKey = await exchangeLink(host.url);
  const { socket, invoke } = await openPage();
  const saved = (await invoke('profiles:save', { name: 'Hostile pager', baseUrl: server.url })) as {
    value: { id: string };
  };
  expect(
    await invoke('session:login', {
      profileId: saved.value.id,
      username: 'tech@acme.test',
      password: 'secret',
      remember: 'none',
    }),
  ).toMatchObject({ ok: true });
  socket.close();
});

afterAll(async () => {
  await host?.close();
  await server?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('fleet preview against a hostile pager', () => {
  it('answers a group whose pages never end, with 2 KB names, with the byte cap', async () => {
    paging = { kind: 'forever', nameLength: 2048 };
    const { socket, invoke } = await openPage();
    const answer = await invoke('fleet:preview', preview('endless'));
    socket.close();
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'API_ERROR',
        message: `Unexpected answer from listGatewayGroupGateways: data: the list goes on past ${MAX_LIST_BYTES / 1024 / 1024} MB, the most Field Kit reads of one list; it was refused`,
      },
    });
  });

  it('refuses a group of 4294967296 pages after one request', async () => {
    paging = { kind: 'huge-total-pages', totalPages: 4294967296 };
    const { socket, invoke } = await openPage();
    const answer = await invoke('fleet:preview', preview('huge'));
    socket.close();
    expect(answer).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('the server says this list has 4,294,967,296 pages') },
    });
    expect(groupPages('huge')).toHaveLength(1);
  });

  it('cancels the expansion when the page that asked closes its socket', async () => {
    paging = { kind: 'forever' };
    const { socket, invoke } = await openPage();
    const cancelled = new Promise<void>((resolve) => {
      onPage = (page, response) => {
        if (page < 3 || !response.req.url?.includes('/closing/')) return true;
        response.once('close', () => resolve());
        socket.close();
        return false;
      };
    });
    void invoke('fleet:preview', preview('closing'));
    await cancelled;
    // A call through a new page goes after the cancel: by then no other page of the group was asked for.
    const next = await openPage();
    expect(await next.invoke('app:info')).toMatchObject({ ok: true });
    next.socket.close();
    expect(groupPages('closing').map((seen) => pageQueryOf(seen.url).page)).toEqual([0, 1, 2, 3]);
  });
});
