import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../../electron/services/api';
import { FieldKitServices, type ServerSessionFacts, type ServerSessionPort } from '../../../electron/app';
import type {
  CommandName,
  CommandRequest,
  CommandResponse,
  EndpointName,
  EndpointRequest,
  EndpointResponse,
} from '../../../electron/shared/api';
import {
  CREDENTIAL_SERVICE,
  MemoryStore,
  passwordAccount,
  refreshTokenAccount,
} from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import { rootPasswordsAccount } from '../../../electron/services/terminals';
import { makeServerSessionFacts } from '../../helpers/factories';

const GOOD_PASSWORD = 'correct horse';

/** A session double: accepts GOOD_PASSWORD, rotates refresh tokens, never sees the network. */
class FakeSession implements ServerSessionPort {
  static sequence = 0;
  facts_: ServerSessionFacts | null = null;
  token: string | null = null;
  listeners = new Set<() => void>();
  calls: unknown[] = [];

  async login(username: string, password: string) {
    if (password !== GOOD_PASSWORD) throw new ApiError(401, 10, 'Invalid username or password', 'login');
    this.start(username);
  }
  async resume(refreshToken: string) {
    if (!refreshToken.startsWith('rt-')) throw new ApiError(401, 11, 'Token has expired', 'refresh');
    this.start('tech@example.com');
  }
  async logout() {
    this.facts_ = null;
    this.token = null;
  }
  // The double answers every call with an empty page and every command with {}, whatever the table says.
  async call<Name extends EndpointName>(endpoint: Name, request: EndpointRequest<Name>) {
    this.calls.push({ endpoint, request });
    const page = { data: [], totalPages: 0, totalElements: 0, hasNext: false };
    return page as EndpointResponse<Name>;
  }
  async sendGatewayCommand<Name extends CommandName>(
    gatewayId: string,
    command: Name,
    body?: CommandRequest<Name>,
  ) {
    this.calls.push({ gatewayId, command, body });
    return {} as CommandResponse<Name>;
  }
  facts() {
    return this.facts_;
  }
  refreshToken() {
    return this.token;
  }
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  dispose() {
    this.listeners.clear();
  }
  rotate() {
    this.token = `rt-${++FakeSession.sequence}`;
    for (const listener of this.listeners) listener();
  }
  private start(username: string) {
    this.token = `rt-${++FakeSession.sequence}`;
    this.facts_ = makeServerSessionFacts({ username });
  }
}

let folder: string;
let sessions: FakeSession[];
let credentials: MemoryStore;

async function buildServices() {
  const services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: credentials, keychain: 'os' },
    createSession: () => {
      const session = new FakeSession();
      sessions.push(session);
      return session;
    },
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  const profile = await services.profiles.save({ name: 'Lab', baseUrl: 'https://oam.example.com' });
  return { services, router, profile };
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-app-'));
  sessions = [];
  credentials = new MemoryStore();
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('FieldKitServices', () => {
  it('answers app:info with the mode and keychain', async () => {
    const { router } = await buildServices();
    expect(await router.dispatch('app:info', undefined, null)).toEqual({
      ok: true,
      value: { version: '0.1.0', mode: 'browser', keychain: 'os' },
    });
  });

  it('logs in and answers a summary that carries no token', async () => {
    const { router, profile } = await buildServices();
    const result = await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: GOOD_PASSWORD, remember: 'none' },
      null,
    );
    expect(result).toMatchObject({ ok: true, value: { profileName: 'Lab', username: 'tech@example.com' } });
    expect(JSON.stringify(result)).not.toContain('rt-');
  });

  it('answers UNAUTHENTICATED for a wrong password', async () => {
    const { router, profile } = await buildServices();
    const result = await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: 'nope', remember: 'none' },
      null,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
  });

  it('keeps the rotated refresh token in the keychain with remember "session"', async () => {
    const { router, profile } = await buildServices();
    await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: GOOD_PASSWORD, remember: 'session' },
      null,
    );
    sessions[0]?.rotate();
    await vi.waitFor(async () => {
      expect(await credentials.get(CREDENTIAL_SERVICE, refreshTokenAccount(profile.id))).toBe(
        sessions[0]?.token,
      );
    });
    expect(await credentials.get(CREDENTIAL_SERVICE, passwordAccount(profile.id))).toBeNull();
  });

  it('resumes a remembered session after a restart', async () => {
    const first = await buildServices();
    await first.router.dispatch(
      'session:login',
      {
        profileId: first.profile.id,
        username: 'tech@example.com',
        password: GOOD_PASSWORD,
        remember: 'session',
      },
      null,
    );
    await first.services.close();
    const second = await buildServices();
    const result = await second.router.dispatch('session:resume', { profileId: first.profile.id }, null);
    expect(result).toMatchObject({ ok: true, value: { username: 'tech@example.com', state: 'active' } });
  });

  it('resumes with the remembered password when the refresh token is spent', async () => {
    const { router, profile } = await buildServices();
    await credentials.set(CREDENTIAL_SERVICE, refreshTokenAccount(profile.id), 'spent');
    await credentials.set(
      CREDENTIAL_SERVICE,
      passwordAccount(profile.id),
      JSON.stringify({ username: 'tech@example.com', password: GOOD_PASSWORD }),
    );
    const result = await router.dispatch('session:resume', { profileId: profile.id }, null);
    expect(result).toMatchObject({ ok: true, value: { state: 'active' } });
  });

  it('forgets a spent refresh token and resumes to null when no password is remembered', async () => {
    const { router, profile } = await buildServices();
    await credentials.set(CREDENTIAL_SERVICE, refreshTokenAccount(profile.id), 'spent');
    expect(await router.dispatch('session:resume', { profileId: profile.id }, null)).toEqual({
      ok: true,
      value: null,
    });
    expect(await credentials.get(CREDENTIAL_SERVICE, refreshTokenAccount(profile.id))).toBeNull();
  });

  it('logs in anyway and tells the user when the keychain refuses to save the login', async () => {
    const { services, router, profile } = await buildServices();
    credentials.set = async () => {
      throw new Error('locked collection');
    };
    const result = await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: GOOD_PASSWORD, remember: 'session' },
      null,
    );
    expect(result).toMatchObject({ ok: true, value: { state: 'active' } });
    expect(services.handlers['app:notices'](undefined, { channel: 'app:notices' })).toMatchObject({
      notices: [{ code: 'KEYCHAIN_WRITE_FAILED' }],
    });
  });

  it('resumes to null when nothing is remembered', async () => {
    const { router, profile } = await buildServices();
    expect(await router.dispatch('session:resume', { profileId: profile.id }, null)).toEqual({
      ok: true,
      value: null,
    });
  });

  it('deletes the keychain entries on logout and pushes a null session', async () => {
    const { services, router, profile } = await buildServices();
    await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: GOOD_PASSWORD, remember: 'password' },
      null,
    );
    expect(await credentials.get(CREDENTIAL_SERVICE, passwordAccount(profile.id))).not.toBeNull();
    const changes: unknown[] = [];
    services.events.on('session:changed', (payload) => changes.push(payload));
    expect(await router.dispatch('session:logout', undefined, null)).toEqual({ ok: true, value: null });
    expect(await credentials.get(CREDENTIAL_SERVICE, refreshTokenAccount(profile.id))).toBeNull();
    expect(await credentials.get(CREDENTIAL_SERVICE, passwordAccount(profile.id))).toBeNull();
    expect(changes).toEqual([null]);
  });

  it('keeps the gateways\u2019 root passwords on a plain sign-out and removes them on "forget passwords"', async () => {
    const { services, router, profile } = await buildServices();
    const login = {
      profileId: profile.id,
      username: 'tech@example.com',
      password: GOOD_PASSWORD,
      remember: 'none',
    };
    await router.dispatch('session:login', login, null);
    await services.rootPasswords.rememberRootPassword('gw-1', 'label-pw');
    expect(await router.dispatch('session:logout', undefined, null)).toEqual({ ok: true, value: null });
    await router.dispatch('session:login', login, null);
    expect(await services.rootPasswords.rootPassword('gw-1')).toBe('label-pw');
    expect(await router.dispatch('session:logout', { forgetPasswords: true }, null)).toEqual({
      ok: true,
      value: null,
    });
    await router.dispatch('session:login', login, null);
    expect(await services.rootPasswords.rootPassword('gw-1')).toBeUndefined();
  });

  it('removes the profile\u2019s gateway root passwords with the profile', async () => {
    const { services, router, profile } = await buildServices();
    const login = {
      profileId: profile.id,
      username: 'tech@example.com',
      password: GOOD_PASSWORD,
      remember: 'none',
    };
    await router.dispatch('session:login', login, null);
    await services.rootPasswords.rememberRootPassword('gw-1', 'label-pw');
    expect(await router.dispatch('profiles:delete', { id: profile.id }, null)).toEqual({
      ok: true,
      value: null,
    });
    expect(await credentials.get(CREDENTIAL_SERVICE, rootPasswordsAccount(profile.id))).toBeNull();
  });

  it('refuses api:call before login with UNAUTHENTICATED', async () => {
    const { router } = await buildServices();
    const result = await router.dispatch(
      'api:call',
      { endpoint: 'getCustomer', params: { customerId: 'c' } },
      null,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
  });

  it('refuses an endpoint name that is not in the endpoint table', async () => {
    const { router, profile } = await buildServices();
    await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: GOOD_PASSWORD, remember: 'none' },
      null,
    );
    const result = await router.dispatch('api:call', { endpoint: 'dropDatabase' }, null);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('refuses api:call to the token endpoints so no token pair reaches the renderer', async () => {
    const { router, profile } = await buildServices();
    await router.dispatch(
      'session:login',
      { profileId: profile.id, username: 'tech@example.com', password: GOOD_PASSWORD, remember: 'none' },
      null,
    );
    for (const endpoint of ['login', 'refreshToken']) {
      const result = await router.dispatch('api:call', { endpoint, body: {} }, null);
      expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(sessions[0]?.calls).toEqual([]);
  });

  it('maps a network failure to NETWORK', async () => {
    const { services } = await buildServices();
    const mapped = services.mapError(new NetworkError('login', 'The server refused the connection'));
    expect(mapped?.code).toBe('NETWORK');
  });

  it('runs shutdown hooks once, in reverse order, even when one fails', async () => {
    const { services } = await buildServices();
    const order: string[] = [];
    services.addShutdownHook(() => {
      order.push('tunnels');
    });
    services.addShutdownHook(() => {
      order.push('terminals');
      throw new Error('already closed');
    });
    await services.close();
    await services.close();
    expect(order).toEqual(['terminals', 'tunnels']);
  });

  it('reports session-only mode as a notice', async () => {
    const services = await FieldKitServices.create({
      dataDir: folder,
      mode: 'browser',
      version: '0.1.0',
      credentials: { store: credentials, keychain: 'session-only', reason: 'no D-Bus' },
      createSession: () => new FakeSession(),
    });
    expect(services.handlers['app:notices'](undefined, { channel: 'app:notices' })).toMatchObject({
      notices: [{ code: 'KEYCHAIN_UNAVAILABLE' }],
    });
  });

  it('writes a notice raised at start in the language the screen tells main afterwards', async () => {
    const services = await FieldKitServices.create({
      dataDir: folder,
      mode: 'browser',
      version: '0.1.0',
      credentials: { store: credentials, keychain: 'session-only', reason: 'no D-Bus' },
      createSession: () => new FakeSession(),
    });
    const rebuilds = vi.fn();
    services.onLanguageChange(rebuilds);
    const noticeText = async () =>
      (await services.handlers['app:notices'](undefined, { channel: 'app:notices' })).notices[0]?.message;
    expect(await noticeText()).toMatch(/^No system keychain answered/);
    try {
      await services.handlers['app:language'](
        { language: 'de', systemLocale: 'de-DE' },
        { channel: 'app:language' },
      );
      expect(await noticeText()).toMatch(/^Kein System-Schlüsselbund hat geantwortet/);
      expect(rebuilds).toHaveBeenCalledTimes(1);
      await services.handlers['app:language'](
        { language: 'es', systemLocale: 'es-ES' },
        { channel: 'app:language' },
      );
      expect(await noticeText()).toMatch(/^Ningún llavero del sistema respondió/);
    } finally {
      await services.handlers['app:language'](
        { language: 'en', systemLocale: 'en-GB' },
        { channel: 'app:language' },
      );
    }
    expect(await noticeText()).toMatch(/^No system keychain answered/);
  });
});
