import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore, PROFILES_FILE } from '../../../../electron/services/profiles';
import { applyLanguage } from '../../../../electron/shared/locale';
import { writeNotice } from '../../../../electron/shared/notice-words';

let folder: string;
let sequence = 0;

function buildStore() {
  return new ProfileStore({
    folder,
    clock: { now: () => 1_700_000_000_000 },
    createId: () => `id-${++sequence}`,
  });
}

function buildDraft(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Lab server',
    baseUrl: 'https://oam.example.com',
    username: 'tech@example.com',
    ...overrides,
  };
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-profiles-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('ProfileStore', () => {
  it('starts empty when no file exists', async () => {
    const store = buildStore();
    expect(await store.load()).toEqual([]);
    expect(store.list()).toEqual({ profiles: [], selectedId: null });
  });

  it('persists a new profile so a fresh store reads it back', async () => {
    const store = buildStore();
    await store.load();
    const saved = await store.save(buildDraft());
    await store.select(saved.id);
    const reopened = buildStore();
    await reopened.load();
    expect(reopened.list()).toEqual({ profiles: [saved], selectedId: saved.id });
  });

  it('edits a profile in place when saved with its id', async () => {
    const store = buildStore();
    await store.load();
    const saved = await store.save(buildDraft());
    const edited = await store.save({ ...saved, name: 'Roof 12' });
    expect(store.list().profiles).toEqual([edited]);
    expect(edited.name).toBe('Roof 12');
  });

  it('moves a corrupt file aside, reports it and starts empty', async () => {
    await writeFile(join(folder, PROFILES_FILE), '{"version":1,"profiles":[{"name":', 'utf8');
    const store = buildStore();
    const notices = await store.load();
    expect(notices).toHaveLength(1);
    expect(notices[0]?.code).toBe('PROFILES_CORRUPT');
    expect(store.list().profiles).toEqual([]);
    expect(await readdir(folder)).toEqual([`${PROFILES_FILE}.corrupt-1700000000000`]);
  });

  it('treats a well-formed file with invalid fields as corrupt', async () => {
    const bad = {
      version: 1,
      selectedId: null,
      profiles: [{ id: 'x', name: 'X', baseUrl: 'ftp://x', isDemo: false }],
    };
    await writeFile(join(folder, PROFILES_FILE), JSON.stringify(bad), 'utf8');
    const notices = await buildStore().load();
    expect(writeNotice(notices[0]!.message)).toMatch(/could not be read/);
  });

  it('writes the set-aside notice in the language shown when it is read, not when it was raised', async () => {
    await writeFile(join(folder, PROFILES_FILE), '{ not json', 'utf8');
    const [notice] = await buildStore().load();
    try {
      applyLanguage('de', 'de-DE');
      expect(writeNotice(notice!.message)).toMatch(
        /^Die gespeicherten Server-Profile konnten nicht gelesen werden/,
      );
      applyLanguage('fr', 'fr-FR');
      expect(writeNotice(notice!.message)).toMatch(
        /^Les profils de serveur enregistrés n'ont pas pu être lus/,
      );
    } finally {
      applyLanguage('en', 'en-GB');
    }
    expect(writeNotice(notice!.message)).toMatch(/^The saved server profiles could not be read/);
  });

  it('sets aside a folder named like the profiles file, says so and starts empty', async () => {
    await mkdir(join(folder, PROFILES_FILE));
    const store = buildStore();
    const notices = await store.load();
    expect(notices.map((notice) => ({ code: notice.code, message: writeNotice(notice.message) }))).toEqual([
      { code: 'PROFILES_CORRUPT', message: expect.stringContaining('not a regular file') },
    ]);
    expect(await readdir(folder)).toEqual([`${PROFILES_FILE}.corrupt-1700000000000`]);
    await store.save(buildDraft());
    expect(store.list().profiles).toHaveLength(1);
  });

  it('keeps every one of 20 concurrent saves and a concurrent delete', async () => {
    const store = buildStore();
    await store.load();
    const doomed = await store.save(buildDraft({ name: 'Old server' }));
    const saves = Array.from({ length: 20 }, (_, index) =>
      store.save(buildDraft({ name: `Server ${index}` })),
    );
    await Promise.all([...saves, store.delete(doomed.id)]);
    const expected = Array.from({ length: 20 }, (_, index) => `Server ${index}`);
    expect(store.list().profiles.map((profile) => profile.name)).toEqual(expected);
    const reopened = buildStore();
    await reopened.load();
    expect(reopened.list().profiles.map((profile) => profile.name)).toEqual(expected);
  });

  it('leaves no temporary file behind after a write', async () => {
    const store = buildStore();
    await store.load();
    await store.save(buildDraft());
    expect(await readdir(folder)).toEqual([PROFILES_FILE]);
  });

  it('normalises a trusted fingerprint to colon-separated upper case', async () => {
    const store = buildStore();
    await store.load();
    const saved = await store.save(buildDraft());
    const trusted = await store.trustCertificate(saved.id, 'ab'.repeat(32));
    expect(trusted.trustedCertificateSha256).toBe(Array(32).fill('AB').join(':'));
  });

  it('answers NOT_FOUND for an unknown id', async () => {
    const store = buildStore();
    await store.load();
    await expect(store.select('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps the demo profile in memory, listed first, never written to disk', async () => {
    const store = buildStore();
    await store.load();
    await store.save(buildDraft());
    store.setDemoProfile(
      {
        name: 'Demo network server',
        baseUrl: 'http://127.0.0.1:5555',
        demoAccounts: [{ username: 'a', password: 'b', role: 'CUSTOMER_USER' }],
      },
      { select: true },
    );
    expect(store.list().profiles[0]?.isDemo).toBe(true);
    expect(store.list().selectedId).toBe('demo');
    const file = await readFile(join(folder, PROFILES_FILE), 'utf8');
    expect(file).not.toContain('Demo network server');
  });

  it('refuses to delete the demo profile', async () => {
    const store = buildStore();
    await store.load();
    store.setDemoProfile(
      { name: 'Demo network server', baseUrl: 'http://127.0.0.1:5555' },
      { select: false },
    );
    await expect(store.delete('demo')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
