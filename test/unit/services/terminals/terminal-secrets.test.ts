import { describe, expect, it } from 'vitest';
import { CREDENTIAL_SERVICE, MemoryStore } from '../../../../electron/services/credentials';
import {
  createRelayResolver,
  legacyRootPasswordAccount,
  relayPasswordAccount,
  RootPasswords,
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

describe('RootPasswords', () => {
  it('gives back a root password it kept for that gateway only', async () => {
    const store = new RootPasswords(new MemoryStore(), () => 'p1');
    await store.rememberRootPassword('gw-1', 'label-pw');
    expect(await store.rootPassword('gw-1')).toBe('label-pw');
    expect(await store.rootPassword('gw-2')).toBeUndefined();
  });

  it('says which gateways of a profile have a root password kept, and none of another profile', async () => {
    let profileId = 'p1';
    const store = new RootPasswords(new MemoryStore(), () => profileId);
    await store.rememberRootPassword('gw-1', 'label-1');
    await store.rememberRootPassword('gw-2', 'label-2');
    profileId = 'p2';
    await store.rememberRootPassword('gw-3', 'label-3');
    expect([...(await store.storedGatewayIds('p1'))].sort()).toEqual(['gw-1', 'gw-2']);
    expect([...(await store.storedGatewayIds('p2'))]).toEqual(['gw-3']);
    expect(await store.storedGatewayIds('p3')).toEqual(new Set());
  });

  it('never offers a root password kept in one profile to another', async () => {
    let profileId: string | undefined = 'p1';
    const store = new RootPasswords(new MemoryStore(), () => profileId);
    await store.rememberRootPassword('gw-1', 'label-pw');
    profileId = 'p2';
    expect(await store.rootPassword('gw-1')).toBeUndefined();
    profileId = undefined;
    expect(await store.rootPassword('gw-1')).toBeUndefined();
  });

  it('forgets every root password of a profile at once, and only that profile’s', async () => {
    let profileId = 'p1';
    const store = new RootPasswords(new MemoryStore(), () => profileId);
    await store.rememberRootPassword('gw-1', 'one');
    await store.rememberRootPassword('gw-2', 'two');
    profileId = 'p2';
    await store.rememberRootPassword('gw-1', 'other');
    await store.forgetProfile('p1');
    expect(await store.rootPassword('gw-1')).toBe('other');
    profileId = 'p1';
    expect([await store.rootPassword('gw-1'), await store.rootPassword('gw-2')]).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('does not adopt an old entry shared by every profile, and deletes it when its gateway is looked up', async () => {
    const credentials = new MemoryStore();
    await credentials.set(CREDENTIAL_SERVICE, legacyRootPasswordAccount('gw-1'), 'old-pw');
    const store = new RootPasswords(credentials, () => 'p1');
    expect(await store.rootPassword('gw-1')).toBeUndefined();
    expect(await credentials.get(CREDENTIAL_SERVICE, legacyRootPasswordAccount('gw-1'))).toBeNull();
  });
});
