// Interrupted is not unreachable (issue 29): a connection cut after the request was sent is answered as
// INTERRUPTED ("the gateway may have the change; read it back"), and a server that cannot be reached at all as
// NETWORK. Both through the whole main side: router, session, API client, simulator on loopback.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import type { RunningSimulator } from '../../../simulator';
import { answerLogin, startFakeOamServer, type FakeOamServer } from '../../helpers/fake-oam-server';
import { passwordOf, startTestSimulator } from '../../helpers/simulator';

let folder: string | undefined;
let services: FieldKitServices | undefined;
let simulator: RunningSimulator | undefined;
let fakeServer: FakeOamServer | undefined;

afterEach(async () => {
  await services?.close();
  await simulator?.close();
  await fakeServer?.close();
  fakeServer = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
  services = undefined;
  simulator = undefined;
  folder = undefined;
});

/** The app's main side, its dispatch as the renderer calls it. */
async function startApp(): Promise<(channel: string, input?: unknown) => Promise<unknown>> {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-interrupted-'));
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.0.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: createDefaultServerSession,
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  return (channel, input) => router.dispatch(channel, input, null);
}

/** A loopback port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('a connection lost after the request was sent', () => {
  it('is INTERRUPTED, saying the gateway may have the change, and the read-back shows it has', async () => {
    simulator = await startTestSimulator({ dropAfterRate: 1, offlineFraction: 0 });
    const dispatch = await startApp();
    const saved = (await dispatch('profiles:save', { name: 'Drops', baseUrl: simulator.url })) as {
      value: { id: string };
    };
    const account = passwordOf(simulator, 'provider');
    expect(
      await dispatch('session:login', { profileId: saved.value.id, ...account, remember: 'none' }),
    ).toMatchObject({ ok: true });
    const gatewayId = simulator.fixture.gateways[0]!.id;

    const sent = await dispatch('gateway:command', {
      gatewayId,
      command: 'setPreferredPingIpAddress',
      body: { ipAddr: '9.9.9.9' },
      confirmation: { acknowledged: true },
    });

    expect(sent).toMatchObject({
      ok: false,
      error: {
        code: 'INTERRUPTED',
        message: expect.stringMatching(
          /dropped after the request was sent.*may have the change; read it back/,
        ),
      },
    });
    const readBack = await dispatch('gateway:command', {
      gatewayId,
      command: 'getPreferredPingIpAddress',
      confirmation: { acknowledged: true },
    });
    expect(readBack).toMatchObject({ ok: true, value: { ipAddr: '9.9.9.9' } });
  });

  it('is NETWORK, not INTERRUPTED, when nothing listens at the address', async () => {
    const dispatch = await startApp();
    const saved = (await dispatch('profiles:save', {
      name: 'Nobody',
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
    })) as { value: { id: string } };

    const login = await dispatch('session:login', {
      profileId: saved.value.id,
      username: 'tech@acme.demo',
      password: 'demo-tech',
      remember: 'none',
    });

    expect(login).toMatchObject({ ok: false, error: { code: 'NETWORK' } });
  });

  it('is INTERRUPTED for a read too, saying only that the answer was lost', async () => {
    fakeServer = await startFakeOamServer();
    fakeServer.handle = (request, response) => {
      if (request.url?.startsWith('/api/auth/login') || request.url?.startsWith('/api/auth/token'))
        answerLogin(request, response);
      else response.socket?.destroy();
    };
    const dispatch = await startApp();
    const saved = (await dispatch('profiles:save', { name: 'Cuts', baseUrl: fakeServer.url })) as {
      value: { id: string };
    };
    await dispatch('session:login', {
      profileId: saved.value.id,
      username: 'tech@acme.test',
      password: 'secret',
      remember: 'none',
    });

    const read = await dispatch('api:call', { endpoint: 'getCurrentUser' });

    expect(read).toMatchObject({
      ok: false,
      error: { code: 'INTERRUPTED', message: 'The connection dropped before the answer came; try again.' },
    });
  });
});
