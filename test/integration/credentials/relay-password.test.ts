// A profile's relay password against the real Secret Service keyring (`npm test` runs every test under
//   dbus-run-session -- bash scripts/with-keyring.sh …):
// saved through the app, it survives a restart and opens reverse SSH through the simulator's relay.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { demoConsoleGateway } from '../../../electron/app/demo-terminals';
import {
  CREDENTIAL_SERVICE,
  openCredentialStore,
  type OpenedCredentialStore,
} from '../../../electron/services/credentials';
import { relayPasswordAccount } from '../../../electron/services/terminals';
import { startAppServices } from './app-services';

let simulator: RunningSimulator;
let folder: string;
let credentials: OpenedCredentialStore;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, ssh: true, offlineFraction: 0 });
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-relay-password-'));
  credentials = await openCredentialStore();
});

afterAll(async () => {
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

/** The app as main builds it, terminals included, over this folder and the keychain; no demo relay password. */
const startApp = () => startAppServices(folder, credentials, { terminals: true });

describe('relay password in the OS keychain', () => {
  it('is stored on save, opens reverse SSH after a restart, and goes with the relay', async () => {
    expect(credentials.keychain).toBe('os');
    const relay = simulator.relay!;
    const first = await startApp();
    const saved = (await first.dispatch('profiles:save', {
      name: 'Field server',
      baseUrl: simulator.url,
      relay: { host: relay.host, port: relay.port, username: relay.username },
      relayPassword: relay.password,
    })) as { ok: true; value: { id: string; relayPasswordStored?: boolean } };
    expect(saved).toMatchObject({ ok: true, value: { relayPasswordStored: true } });
    expect(JSON.stringify(saved)).not.toContain(relay.password);
    const profileId = saved.value.id;
    const account = relayPasswordAccount(profileId);
    expect(await credentials.store.get(CREDENTIAL_SERVICE, account)).toBe(relay.password);
    await first.services.close();

    const second = await startApp();
    try {
      const listed = (await second.dispatch('profiles:list')) as {
        value: { profiles: Array<{ id: string; relayPasswordStored?: boolean }> };
      };
      expect(listed.value.profiles.find((profile) => profile.id === profileId)).toMatchObject({
        relayPasswordStored: true,
      });
      const user = simulator.fixture.accounts[0]!;
      expect(
        await second.dispatch('session:login', {
          profileId,
          username: user.username,
          password: user.password,
          remember: 'none',
        }),
      ).toMatchObject({ ok: true });
      const gateway = demoConsoleGateway(simulator.fixture);
      const opened = (await second.dispatch('ssh:open-reverse', {
        gatewayId: gateway.id,
        rootPassword: gateway.rootPassword,
        cols: 80,
        rows: 24,
      })) as { ok: boolean; value?: { id: string }; error?: unknown };
      expect(opened, JSON.stringify(opened.error)).toMatchObject({ ok: true, value: { kind: 'ssh' } });
      expect(await second.dispatch('terminal:close', { id: opened.value!.id })).toEqual({
        ok: true,
        value: {},
      });

      // Saving the profile without its relay removes the password from the keychain.
      expect(
        await second.dispatch('profiles:save', {
          id: profileId,
          name: 'Field server',
          baseUrl: simulator.url,
        }),
      ).toMatchObject({ ok: true, value: { relayPasswordStored: false } });
      expect(await credentials.store.get(CREDENTIAL_SERVICE, account)).toBeNull();
    } finally {
      await second.services.close();
    }
  });
});
