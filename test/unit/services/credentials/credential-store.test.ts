import { describe, expect, it } from 'vitest';
import {
  MemoryStore,
  KeytarStore,
  openCredentialStore,
  type KeytarApi,
} from '../../../../electron/services/credentials';

function buildFakeKeytar(): KeytarApi & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getPassword: async (service, account) => entries.get(`${service}/${account}`) ?? null,
    setPassword: async (service, account, password) => {
      entries.set(`${service}/${account}`, password);
    },
    deletePassword: async (service, account) => entries.delete(`${service}/${account}`),
  };
}

describe('MemoryStore', () => {
  it('returns what was set and null after delete', async () => {
    const store = new MemoryStore();
    await store.set('svc', 'acct', 'secret');
    expect(await store.get('svc', 'acct')).toBe('secret');
    expect(await store.delete('svc', 'acct')).toBe(true);
    expect(await store.get('svc', 'acct')).toBeNull();
  });

  it('keeps services apart even when joined names would collide', async () => {
    const store = new MemoryStore();
    await store.set('a:b', 'c', 'one');
    expect(await store.get('a', 'b:c')).toBeNull();
  });
});

describe('openCredentialStore', () => {
  it('uses the OS keychain when it answers the probe, leaving no probe entry behind', async () => {
    const keytar = buildFakeKeytar();
    const opened = await openCredentialStore({ loadKeytar: async () => keytar });
    expect(opened.keychain).toBe('os');
    expect(opened.store.kind).toBe('os');
    expect(keytar.entries.size).toBe(0);
  });

  it('falls back to session-only memory when the keychain never answers', async () => {
    const hanging: KeytarApi = {
      getPassword: () => new Promise(() => undefined),
      setPassword: () => new Promise(() => undefined),
      deletePassword: () => new Promise(() => undefined),
    };
    const opened = await openCredentialStore({ loadKeytar: async () => hanging, timeoutMs: 50 });
    expect(opened.keychain).toBe('session-only');
    expect(opened.store).toBeInstanceOf(MemoryStore);
    expect(opened.reason).toMatch(/did not answer/);
  });

  it('gives the whole probe one deadline: a keychain slow at each step falls back in time', async () => {
    const keytar = buildFakeKeytar();
    const slowly =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      (...args: A) =>
        new Promise<R>((resolve) => setTimeout(() => resolve(call(...args)), 60));
    const slow: KeytarApi = {
      getPassword: slowly(keytar.getPassword),
      setPassword: slowly(keytar.setPassword),
      deletePassword: slowly(keytar.deletePassword),
    };
    // Each step answers within the timeout; the write, read and delete together do not.
    const opened = await openCredentialStore({ loadKeytar: async () => slow, timeoutMs: 150 });
    expect(opened.keychain).toBe('session-only');
    expect(opened.reason).toMatch(/did not answer within 150 ms/);
  });

  it('falls back to session-only memory when keytar cannot load', async () => {
    const opened = await openCredentialStore({
      loadKeytar: async () => {
        throw new Error('libsecret-1.so.0: cannot open shared object file');
      },
    });
    expect(opened.keychain).toBe('session-only');
    expect(opened.reason).toMatch(/libsecret/);
  });
});

describe('KeytarStore', () => {
  it('reports a refusing keychain as a CredentialStoreError', async () => {
    const refusing: KeytarApi = {
      ...buildFakeKeytar(),
      setPassword: async () => {
        throw new Error('Cannot create an item in a locked collection');
      },
    };
    const store = new KeytarStore(refusing, 100);
    await expect(store.set('svc', 'acct', 'x')).rejects.toMatchObject({ name: 'CredentialStoreError' });
  });
});
