import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HostKeyChangedError,
  KnownHostsUnreadableError,
} from '../../../../electron/services/ssh/host-key-errors';
import {
  fingerprintHostKey,
  KnownHosts,
  readHostKeyType,
} from '../../../../electron/services/ssh/known-hosts';
import { deriveHostKey } from '../../../../simulator/ssh/host-keys';

let directory: string;
let path: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fieldkit-known-hosts-'));
  path = join(directory, 'known-hosts.json');
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const keyOf = (name: string) => deriveHostKey('known-hosts-test', name).publicKeyBlob;
const createStore = () => new KnownHosts({ path, clock: { now: () => Date.parse('2026-05-01T10:00:00Z') } });

describe('KnownHosts', () => {
  it('trusts a key on first use and says it is new', async () => {
    const verdict = await createStore().verify('gateway:a', keyOf('a'));
    expect(verdict).toEqual({
      keyId: 'gateway:a',
      fingerprint: fingerprintHostKey(keyOf('a')),
      keyType: 'ssh-ed25519',
      isNew: true,
    });
  });

  it('accepts the same key again, also after a restart, as not new', async () => {
    await createStore().verify('127.0.0.1:2222', keyOf('relay'));
    const verdict = await createStore().verify('127.0.0.1:2222', keyOf('relay'));
    expect(verdict.isNew).toBe(false);
  });

  it('refuses a changed key with both fingerprints and the key id', async () => {
    const store = createStore();
    await store.verify('gateway:a', keyOf('a'));
    const error = await store.verify('gateway:a', keyOf('impostor')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostKeyChangedError);
    expect(error).toMatchObject({
      keyId: 'gateway:a',
      expected: fingerprintHostKey(keyOf('a')),
      actual: fingerprintHostKey(keyOf('impostor')),
    });
  });

  it('accepts the new key after an explicit replace', async () => {
    const store = createStore();
    await store.verify('gateway:a', keyOf('a'));
    await store.replace('gateway:a', fingerprintHostKey(keyOf('replacement')));
    expect((await store.verify('gateway:a', keyOf('replacement'))).isNew).toBe(false);
  });

  it('keeps pins of different key ids apart', async () => {
    const store = createStore();
    await store.verify('127.0.0.1:2222', keyOf('relay'));
    expect((await store.verify('gateway:a', keyOf('a'))).isNew).toBe(true);
  });

  it('refuses to replace a key with something that is not a fingerprint', async () => {
    await expect(createStore().replace('gateway:a', 'not-a-fingerprint')).rejects.toThrow(
      /SHA-256 fingerprint/,
    );
  });

  it('trusts on first use again after forget', async () => {
    const store = createStore();
    await store.verify('gateway:a', keyOf('a'));
    await store.forget('gateway:a');
    expect((await store.verify('gateway:a', keyOf('other'))).isNew).toBe(true);
  });

  it('writes a file that validates and holds the pin', async () => {
    await createStore().verify('gateway:a', keyOf('a'));
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toEqual({
      version: 1,
      hosts: {
        'gateway:a': {
          fingerprint: fingerprintHostKey(keyOf('a')),
          keyType: 'ssh-ed25519',
          firstSeenAt: Date.parse('2026-05-01T10:00:00Z'),
        },
      },
    });
  });

  it('refuses to trust anything while the file is corrupt, and leaves it untouched', async () => {
    await writeFile(path, '{"version":1,"hosts":{"gateway:a":{"fingerprint":"nope"}}}');
    await expect(createStore().verify('gateway:a', keyOf('a'))).rejects.toBeInstanceOf(
      KnownHostsUnreadableError,
    );
    expect(await readFile(path, 'utf8')).toBe('{"version":1,"hosts":{"gateway:a":{"fingerprint":"nope"}}}');
  });

  it('serialises concurrent first uses so every pin is kept', async () => {
    const store = createStore();
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => store.verify(`gateway:${name}`, keyOf(name))));
    const saved = JSON.parse(await readFile(path, 'utf8')) as { hosts: Record<string, unknown> };
    expect(Object.keys(saved.hosts).sort()).toEqual(['gateway:a', 'gateway:b', 'gateway:c', 'gateway:d']);
  });
});

describe('readHostKeyType', () => {
  it('reads the type name at the start of a key blob', () => {
    expect(readHostKeyType(keyOf('a'))).toBe('ssh-ed25519');
  });

  it('answers unknown for a blob too short to hold a name', () => {
    expect(readHostKeyType(new Uint8Array([0, 0]))).toBe('unknown');
  });
});
