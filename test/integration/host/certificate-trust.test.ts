// A server with a self-signed certificate (an HTTPS proxy in front of the simulator): login is refused with
// CERTIFICATE_UNTRUSTED naming the fingerprint; once the user trusts that fingerprint, login works.
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { makeSelfSignedCertificate } from '../../helpers/self-signed-certificate';

let folder: string;
let simulator: RunningSimulator;
let proxy: Server;
let proxyUrl: string;
let fingerprint: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-cert-'));
  simulator = await startSimulator({ port: 0 });
  const { key, cert, fingerprint256 } = await makeSelfSignedCertificate('oam.lab.example');
  fingerprint = fingerprint256;
  const target = new URL(simulator.url);
  proxy = createServer({ key, cert }, (incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

describe('self-signed server certificate', () => {
  it('is refused with its fingerprint, then accepted once the user trusts it', async () => {
    const services = await FieldKitServices.create({
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
    const dispatch = (channel: string, input?: unknown) => router.dispatch(channel, input, null);
    const saved = (await dispatch('profiles:save', { name: 'Lab', baseUrl: proxyUrl })) as {
      value: { id: string };
    };
    const account = simulator.fixture.accounts[0]!;
    const login = {
      profileId: saved.value.id,
      username: account.username,
      password: account.password,
      remember: 'none',
    };

    const refused = await dispatch('session:login', login);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'CERTIFICATE_UNTRUSTED',
        details: { sha256: fingerprint, subject: expect.stringContaining('CN=oam.lab.example') },
      },
    });

    expect(
      await dispatch('profiles:trust-certificate', { id: saved.value.id, sha256: fingerprint }),
    ).toMatchObject({
      ok: true,
      value: { trustedCertificateSha256: fingerprint },
    });
    expect(await dispatch('session:login', login)).toMatchObject({ ok: true, value: { state: 'active' } });
    await services.close();
  });
});
