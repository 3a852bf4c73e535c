// Remember-me end to end against the simulator and the credential store that opens on this machine: the real
// Secret Service keyring under
//   dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/integration/credentials
// or the session-only memory store without one (the same semantics, minus surviving the process).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import {
  CREDENTIAL_SERVICE,
  openCredentialStore,
  passwordAccount,
  refreshTokenAccount,
  type OpenedCredentialStore,
} from '../../../electron/services/credentials';
import { startAppServices } from './app-services';

let simulator: RunningSimulator;
let folder: string;
let credentials: OpenedCredentialStore;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0 });
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-remember-'));
  credentials = await openCredentialStore();
});

afterAll(async () => {
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

const startApp = () => startAppServices(folder, credentials);

describe('remember me', () => {
  it('keeps the login in the keychain, resumes it after a restart and forgets it on logout', async () => {
    const account = simulator.fixture.accounts[0]!;
    const first = await startApp();
    const profile = (await first.dispatch('profiles:save', {
      name: 'Simulator',
      baseUrl: simulator.url,
    })) as {
      value: { id: string };
    };
    const profileId = profile.value.id;
    const login = await first.dispatch('session:login', {
      profileId,
      username: account.username,
      password: account.password,
      remember: 'password',
    });
    expect(login).toMatchObject({ ok: true, value: { username: account.username, state: 'active' } });
    expect(await credentials.store.get(CREDENTIAL_SERVICE, refreshTokenAccount(profileId))).toMatch(/\S+/);
    expect(await credentials.store.get(CREDENTIAL_SERVICE, passwordAccount(profileId))).toContain(
      account.password,
    );
    await first.services.close();

    const second = await startApp();
    expect(await second.dispatch('session:resume', { profileId })).toMatchObject({
      ok: true,
      value: { username: account.username, state: 'active' },
    });
    expect(await second.dispatch('api:call', { endpoint: 'getCurrentUser' })).toMatchObject({ ok: true });

    expect(await second.dispatch('session:logout')).toEqual({ ok: true, value: null });
    expect(await credentials.store.get(CREDENTIAL_SERVICE, refreshTokenAccount(profileId))).toBeNull();
    expect(await credentials.store.get(CREDENTIAL_SERVICE, passwordAccount(profileId))).toBeNull();
    await second.services.close();
  });

  it('answers UNAUTHENTICATED for a wrong password and stores nothing', async () => {
    const app = await startApp();
    const profile = (await app.dispatch('profiles:save', {
      name: 'Simulator 2',
      baseUrl: simulator.url,
    })) as {
      value: { id: string };
    };
    const result = await app.dispatch('session:login', {
      profileId: profile.value.id,
      username: simulator.fixture.accounts[0]!.username,
      password: 'definitely-wrong',
      remember: 'session',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    expect(await credentials.store.get(CREDENTIAL_SERVICE, refreshTokenAccount(profile.value.id))).toBeNull();
    await app.services.close();
  });

  it('answers NETWORK when the server is unreachable', async () => {
    const app = await startApp();
    const profile = (await app.dispatch('profiles:save', {
      name: 'Gone',
      baseUrl: 'http://127.0.0.1:9',
    })) as {
      value: { id: string };
    };
    const result = await app.dispatch('session:login', {
      profileId: profile.value.id,
      username: 'a@b.c',
      password: 'x',
      remember: 'none',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'NETWORK' } });
    await app.services.close();
  });
});
