import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import { makeSitePack } from '../../helpers/factories';

// The channels field mode uses with no session at all: the site pack's status and gateways, the cache falling back
// to the pack, and a pack file set aside with a notice.

let folder: string;
let services: FieldKitServices;
let server: Server | undefined;
let profileId: string;
let invoke: (channel: string, input?: unknown) => Promise<{ ok: boolean; value?: unknown; error?: unknown }>;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-field-handlers-'));
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => {
      throw new Error('field mode must not build a session');
    },
    serverCheckIntervalMs: 20,
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  invoke = (channel, input) => router.dispatch(channel, input, null);
  const profile = await services.profiles.save({ name: 'Lab', baseUrl: 'https://oam.lab.example' });
  profileId = profile.id;
  await services.profiles.select(profileId);
});

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  await services.close();
  await rm(folder, { recursive: true, force: true });
});

describe('field mode channels with no session', () => {
  it('names the profile and its user in a report made without signing in, never its id alone', async () => {
    const reporting = await FieldKitServices.create({
      dataDir: join(folder, 'reporting'),
      mode: 'browser',
      version: '0.1.0',
      credentials: { store: new MemoryStore(), keychain: 'os' },
      createSession: () => {
        throw new Error('field mode must not build a session');
      },
      commissioning: { reportsDir: join(folder, 'reporting', 'reports') },
    });
    try {
      const profile = await reporting.profiles.save({
        name: 'Roof site',
        baseUrl: 'https://oam.lab.example',
        username: 'tech@acme.demo',
      });
      await reporting.profiles.select(profile.id);
      const router = createRouter<null>({
        handlers: reporting.handlers,
        isTrustedSender: () => true,
        mapError: reporting.mapError,
      });
      await router.dispatch('visit:open', { site: 'Roof A' }, null);
      const answer = (await router.dispatch('report:export', { format: 'html' }, null)) as {
        ok: boolean;
        value?: { base64: string };
      };
      expect(answer.ok).toBe(true);
      const html = Buffer.from(answer.value!.base64, 'base64').toString('utf8');
      expect(html).toContain('profile Roof site');
      expect(html).toContain('tech@acme.demo (not signed in: field mode)');
      expect(html).not.toContain(`profile ${profile.id}`);
    } finally {
      await reporting.close();
    }
  });

  it('reports the selected profile’s pack: date, counts, size and which gateways have a root password', async () => {
    await services.sitePacks.save(makeSitePack(12, { profileId, rootPasswordStored: ['gw-3'] }));
    const status = await invoke('site-pack:status');
    expect(status.ok).toBe(true);
    expect(status.value).toMatchObject({
      profileId,
      pack: {
        preparedAt: 1_700_000_200_000,
        gatewayCount: 12,
        detailedCount: 1,
        rootPasswordStored: ['gw-3'],
      },
      job: null,
    });
    expect((status.value as { pack: { sizeBytes: number } }).pack.sizeBytes).toBeGreaterThan(1000);
  });

  it('answers a gateway list search from the pack through cache:get, as of the pack’s time', async () => {
    const pack = makeSitePack(40, { profileId });
    await services.sitePacks.save(pack);
    const answer = await invoke('cache:get', {
      endpoint: 'listCustomerGateways',
      params: { customerId: 'customer-1' },
      query: { page: 0, limit: 100, sortField: 'NAME', sortDirection: 'ASC', textSearch: 'gw-17' },
    });
    expect(answer.value).toMatchObject({ asOf: pack.preparedAt, value: { totalElements: 1 } });
  });

  it('answers what the pack holds about one gateway', async () => {
    await services.sitePacks.save(makeSitePack(3, { profileId }));
    const answer = await invoke('site-pack:gateway', { gatewayId: 'gw-0' });
    expect(answer.value).toMatchObject({ gateway: { name: 'Gateway 0' }, hasRootPassword: false });
  });

  it('refuses to prepare a pack with no session, saying to sign in', async () => {
    const answer = await invoke('site-pack:prepare', {
      scope: { kind: 'customer', id: 'customer-1' },
      selection: { kind: 'all' },
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
  });

  it('sets a corrupt pack aside with a notice, and the app carries on with no pack', async () => {
    await mkdir(join(folder, 'site-packs'), { recursive: true });
    await writeFile(join(folder, 'site-packs', `${profileId}.json`), '{"version":1,');
    const status = await invoke('site-pack:status');
    expect(status).toMatchObject({ ok: true, value: { pack: null } });
    const notices = await invoke('app:notices');
    expect(JSON.stringify(notices.value)).toContain('SITE_PACK_SET_ASIDE');
    expect((await invoke('profiles:list')).ok).toBe(true);
  });

  it('reads the audit log of the selected profile with no session', async () => {
    expect(await invoke('audit:read', { since: 0 })).toEqual({ ok: true, value: { entries: [] } });
  });

  it('checks the server quietly when nothing is remembered, says when it answers, and goes on checking', async () => {
    server = createServer((_request, response) => response.end('OAM'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const profile = await services.profiles.save({ name: 'Site', baseUrl: `http://127.0.0.1:${port}` });
    await services.profiles.select(profile.id);
    const answered = new Promise((resolve) => services.events.on('server:status', resolve));
    expect(await invoke('session:resume', { profileId: profile.id })).toEqual({ ok: true, value: null });
    expect(await answered).toMatchObject({ profileId: profile.id, outcome: 'reachable' });
    // At the answering interval, so that the server going away is noticed with no request sent.
    expect(services.serverWatch.isWatching).toBe(true);
  });

  it('checks at once when asked, with one bare HEAD and no sign-in traffic, and says what it found', async () => {
    const requests: string[] = [];
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const profile = await services.profiles.save({ name: 'Site', baseUrl: `http://127.0.0.1:${port}` });
    await services.profiles.select(profile.id);
    const answer = await invoke('server:check');
    expect(answer).toMatchObject({ ok: true, value: { profileId: profile.id, outcome: 'reachable' } });
    expect(requests).toEqual(['HEAD /']);
  });

  it('says the server does not answer when nothing listens, and goes on checking', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const profile = await services.profiles.save({ name: 'Away', baseUrl: `http://127.0.0.1:${port}` });
    await services.profiles.select(profile.id);
    const answer = await invoke('server:check');
    expect(answer).toMatchObject({ ok: true, value: { profileId: profile.id, outcome: 'unreachable' } });
    expect(services.serverWatch.isWatching).toBe(true);
  });

  it('says at once that the server does not answer when a sign-in finds nothing listening', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    // Services that build real sessions (the ones above refuse to), on this test's folder.
    const signing = await FieldKitServices.create({
      dataDir: join(folder, 'signing'),
      mode: 'browser',
      version: '0.1.0',
      credentials: { store: new MemoryStore(), keychain: 'os' },
      createSession: createDefaultServerSession,
    });
    const away = await signing.profiles.save({ name: 'Away', baseUrl: `http://127.0.0.1:${port}` });
    await signing.profiles.select(away.id);
    const router = createRouter<null>({
      handlers: signing.handlers,
      isTrustedSender: () => true,
      mapError: signing.mapError,
    });
    const statuses: unknown[] = [];
    signing.events.on('server:status', (status) => statuses.push(status));
    const login = await router.dispatch(
      'session:login',
      {
        profileId: away.id,
        username: 'tech@site.example',
        password: 'secret',
        remember: 'none',
      },
      null,
    );
    expect(login).toMatchObject({ ok: false, error: { code: 'NETWORK', details: { network: 'refused' } } });
    // Before any quiet check: the failed request itself said so.
    expect(statuses).toEqual([expect.objectContaining({ profileId: away.id, outcome: 'unreachable' })]);
    await signing.close();
  });
});
