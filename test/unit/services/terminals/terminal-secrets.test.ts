import { describe, expect, it } from 'vitest';
import { CREDENTIAL_SERVICE, MemoryStore } from '../../../../electron/services/credentials';
import {
  createRelayResolver,
  createRootPasswordStore,
  relayPasswordAccount,
} from '../../../../electron/services/terminals';
import type { Profile } from '../../../../electron/shared/ipc/schemas';

const PROFILE: Profile = {
  id: 'p1',
  name: 'Acme OAM',
  baseUrl: 'https://oam.example',
  isDemo: false,
  relay: { host: 'relay.example', port: 2222, username: 'tech', portRange: [30_000, 30_099] },
};

describe('createRelayResolver', () => {
  it('answers the signed-in profile’s relay with the password from the keychain', async () => {
    const credentials = new MemoryStore();
    await credentials.set(CREDENTIAL_SERVICE, relayPasswordAccount('p1'), 'relay-secret');
    const resolve = createRelayResolver({ currentProfile: () => PROFILE, credentials });
    expect(await resolve()).toEqual({
      relay: { host: 'relay.example', port: 2222, username: 'tech', password: 'relay-secret' },
      portRange: [30_000, 30_099],
    });
  });

  it('says to add a relay when the profile has none', async () => {
    const resolve = createRelayResolver({
      currentProfile: () => ({ ...PROFILE, relay: undefined }),
      credentials: new MemoryStore(),
    });
    await expect(resolve()).rejects.toThrow('The profile "Acme OAM" has no SSH relay');
  });

  it('says no relay password is stored when the keychain has none', async () => {
    const resolve = createRelayResolver({ currentProfile: () => PROFILE, credentials: new MemoryStore() });
    await expect(resolve()).rejects.toThrow('No relay password is stored for the profile "Acme OAM"');
  });

  it('asks to sign in first when nobody is signed in', async () => {
    const resolve = createRelayResolver({ currentProfile: () => undefined, credentials: new MemoryStore() });
    await expect(resolve()).rejects.toThrow('Sign in first');
  });
});

describe('createRootPasswordStore', () => {
  it('gives back a root password it kept for that gateway only', async () => {
    const store = createRootPasswordStore(new MemoryStore());
    await store.rememberRootPassword('gw-1', 'label-pw');
    expect(await store.rootPassword('gw-1')).toBe('label-pw');
    expect(await store.rootPassword('gw-2')).toBeUndefined();
  });
});
