import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FieldKitServices } from '../../../electron/app';
import { CREDENTIAL_SERVICE, MemoryStore } from '../../../electron/services/credentials';
import { createRelayResolver, relayPasswordAccount } from '../../../electron/services/terminals';
import { createRouter } from '../../../electron/shared/ipc/router';
import type { Profile } from '../../../electron/shared/ipc/schemas';

const RELAY_PASSWORD = 'relay pass phrase 42';
const RELAY = { host: 'relay.acme.example', port: 2222, username: 'tunnel' };

let folder: string;
let credentials: MemoryStore;

async function buildServices(keychain: 'os' | 'session-only' = 'os') {
  const services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: credentials, keychain },
    createSession: () => {
      throw new Error('no session in these tests');
    },
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  return { services, router };
}

async function saveWithRelay(
  router: Awaited<ReturnType<typeof buildServices>>['router'],
  extra: Record<string, unknown> = {},
) {
  const result = await router.dispatch(
    'profiles:save',
    { name: 'Roof', baseUrl: 'https://oam.roof.example', relay: RELAY, ...extra },
    null,
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.value as Profile;
}

function storedPassword(profileId: string): Promise<string | null> {
  return credentials.get(CREDENTIAL_SERVICE, relayPasswordAccount(profileId));
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-relay-password-'));
  credentials = new MemoryStore();
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the relay password in profiles:save', () => {
  it('stores the password in the keychain and answers only that it is stored', async () => {
    const { router } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    expect(saved).toMatchObject({ relay: RELAY, relayPasswordStored: true });
    expect(JSON.stringify(saved)).not.toContain(RELAY_PASSWORD);
    expect(await storedPassword(saved.id)).toBe(RELAY_PASSWORD);
  });

  it('never writes the password or the stored flag to profiles.json', async () => {
    const { router } = await buildServices();
    await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    const file = await readFile(join(folder, 'profiles.json'), 'utf8');
    expect(file).not.toContain(RELAY_PASSWORD);
    expect(file).not.toContain('relayPassword');
  });

  it('lists each profile as stored or not stored', async () => {
    const { router } = await buildServices();
    const withPassword = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    const without = await saveWithRelay(router);
    const listed = await router.dispatch('profiles:list', undefined, null);
    expect(listed).toMatchObject({
      ok: true,
      value: {
        profiles: [
          { id: withPassword.id, relayPasswordStored: true },
          { id: without.id, relayPasswordStored: false },
        ],
      },
    });
    expect(JSON.stringify(listed)).not.toContain(RELAY_PASSWORD);
  });

  it('keeps the stored password when a save leaves it out', async () => {
    const { router } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    const renamed = await saveWithRelay(router, { id: saved.id, name: 'Roof 2' });
    expect(renamed).toMatchObject({ name: 'Roof 2', relayPasswordStored: true });
    expect(await storedPassword(saved.id)).toBe(RELAY_PASSWORD);
  });

  it('replaces the stored password with a new one', async () => {
    const { router } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    await saveWithRelay(router, { id: saved.id, relayPassword: 'another one' });
    expect(await storedPassword(saved.id)).toBe('another one');
  });

  it('clears the stored password when the save carries null', async () => {
    const { router } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    const cleared = await saveWithRelay(router, { id: saved.id, relayPassword: null });
    expect(cleared.relayPasswordStored).toBe(false);
    expect(await storedPassword(saved.id)).toBeNull();
  });

  it('clears the password when the profile loses its relay', async () => {
    const { router } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    const result = await router.dispatch(
      'profiles:save',
      { id: saved.id, name: 'Roof', baseUrl: 'https://oam.roof.example' },
      null,
    );
    expect(result).toMatchObject({ ok: true, value: { relayPasswordStored: false } });
    expect(await storedPassword(saved.id)).toBeNull();
  });

  it('deletes the password with the profile', async () => {
    const { router } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    expect(await router.dispatch('profiles:delete', { id: saved.id }, null)).toEqual({
      ok: true,
      value: null,
    });
    expect(await storedPassword(saved.id)).toBeNull();
  });

  it('refuses an empty password without echoing what was sent', async () => {
    const { router } = await buildServices();
    const result = await router.dispatch(
      'profiles:save',
      { name: 'Roof', baseUrl: 'not an address', relay: RELAY, relayPassword: RELAY_PASSWORD },
      null,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(result)).not.toContain(RELAY_PASSWORD);
    const empty = await router.dispatch(
      'profiles:save',
      { name: 'Roof', baseUrl: 'https://oam.roof.example', relay: RELAY, relayPassword: '' },
      null,
    );
    expect(empty).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('hands the saved password to reverse SSH’s relay resolver', async () => {
    const { router, services } = await buildServices();
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    const resolveRelay = createRelayResolver({
      currentProfile: () => services.profiles.get(saved.id),
      credentials,
    });
    expect(await resolveRelay()).toEqual({ relay: { ...RELAY, password: RELAY_PASSWORD } });
  });

  it('keeps the password in session memory when no keychain answered', async () => {
    const { router, services } = await buildServices('session-only');
    const saved = await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    expect(saved.relayPasswordStored).toBe(true);
    expect(await services.relayPasswords.isStored(saved.id)).toBe(true);
  });

  it('lists a profile without a relay as not stored without asking the keychain', async () => {
    const { router } = await buildServices();
    await router.dispatch('profiles:save', { name: 'Plain', baseUrl: 'https://oam.plain.example' }, null);
    credentials.get = () => new Promise(() => undefined); // a keychain that never answers
    const listed = await router.dispatch('profiles:list', undefined, null);
    expect(listed).toMatchObject({ ok: true, value: { profiles: [{ relayPasswordStored: false }] } });
  });

  it('counts a known demo password as stored', async () => {
    const { router, services } = await buildServices();
    const saved = await saveWithRelay(router);
    services.relayPasswords.know(saved.id, 'demo relay');
    const listed = await router.dispatch('profiles:list', undefined, null);
    expect(listed).toMatchObject({ ok: true, value: { profiles: [{ relayPasswordStored: true }] } });
  });
});

describe('a keychain that refuses the relay password', () => {
  it('keeps the profile saved, reads "not stored" and says why in a notice, without the password', async () => {
    const { router } = await buildServices();
    credentials.set = async () => {
      throw new Error('The name org.freedesktop.secrets was not provided');
    };
    const result = await router.dispatch(
      'profiles:save',
      { name: 'Roof', baseUrl: 'https://oam.roof.example', relay: RELAY, relayPassword: RELAY_PASSWORD },
      null,
    );
    expect(result).toMatchObject({ ok: true, value: { name: 'Roof', relayPasswordStored: false } });
    const notices = await router.dispatch('app:notices', undefined, null);
    expect(notices).toMatchObject({
      ok: true,
      value: {
        notices: [{ code: 'KEYCHAIN_WRITE_FAILED', message: expect.stringMatching(/relay password/) }],
      },
    });
    expect(JSON.stringify([result, notices])).not.toContain(RELAY_PASSWORD);
  });
});

describe('a keychain that cannot be read', () => {
  it('still lists the profiles, without saying whether a relay password is stored', async () => {
    const { router } = await buildServices();
    await saveWithRelay(router, { relayPassword: RELAY_PASSWORD });
    credentials.get = async () => {
      throw new Error('The keyring is locked');
    };
    const listed = await router.dispatch('profiles:list', undefined, null);
    expect(listed).toMatchObject({ ok: true, value: { profiles: [{ name: 'Roof' }] } });
    expect(JSON.stringify(listed)).not.toContain('relayPasswordStored');
  });
});
