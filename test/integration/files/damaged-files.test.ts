// Files of the data folder replaced by a FIFO: each reader sets it aside or reports it instead of waiting for a
// writer that never comes. A FIFO cannot be made from Node, so these tests spawn `mkfifo`.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWindowBounds } from '../../../electron/main/window-state';
import { AuditLog } from '../../../electron/services/audit';
import { OfflineCache } from '../../../electron/services/offline-cache';
import { ProfileStore, PROFILES_FILE } from '../../../electron/services/profiles';
import { SITE_PACKS_FOLDER, SitePackStore } from '../../../electron/services/site-pack/site-pack-store';
import { KnownHosts } from '../../../electron/services/ssh/known-hosts';
import { makeAuditEntry } from '../../helpers/factories';
import { writeNotice } from '../../../electron/shared/notice-words';

const NOW = Date.UTC(2026, 10, 27, 9, 30);

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-damaged-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function makeFifo(...path: string[]): void {
  execFileSync('mkfifo', [join(folder, ...path)]);
}

describe('a FIFO in the data folder', () => {
  it('as the profiles file is set aside with a notice instead of hanging the start', async () => {
    makeFifo(PROFILES_FILE);
    const store = new ProfileStore({ folder, clock: { now: () => NOW } });

    const notices = await store.load();

    // A notice writes its message when read, in the language of that moment.
    expect(notices.map((notice) => notice.code)).toEqual(['PROFILES_CORRUPT']);
    expect(writeNotice(notices[0]!.message)).toContain('not a regular file');
    expect(store.list().profiles).toEqual([]);
    expect(await readdir(folder)).toEqual([`${PROFILES_FILE}.corrupt-${NOW}`]);
  });

  it('as a site pack is set aside with a notice', async () => {
    await mkdir(join(folder, SITE_PACKS_FOLDER), { mode: 0o700 });
    makeFifo(SITE_PACKS_FOLDER, 'demo.json');
    const store = new SitePackStore({ dataDir: folder, clock: { now: () => NOW } });

    expect(await store.read('demo')).toMatchObject({
      kind: 'set-aside',
      notice: { code: 'SITE_PACK_SET_ASIDE', message: expect.stringContaining('not a regular file') },
    });
    expect(await readdir(join(folder, SITE_PACKS_FOLDER))).toEqual([`demo.json.corrupt-${NOW}`]);
  });

  it('as an offline cache reads as no cached answer', async () => {
    await mkdir(join(folder, 'offline-cache'), { mode: 0o700 });
    makeFifo('offline-cache', 'demo.json');
    const cache = new OfflineCache({ dataDir: folder, flushDelayMs: 0 });

    expect(await cache.get('demo', { endpoint: 'getCurrentUser', params: {} })).toBeNull();
  });

  it('as the known hosts is refused with a message saying what to do', async () => {
    makeFifo('known-hosts.json');
    const knownHosts = new KnownHosts({ path: join(folder, 'known-hosts.json') });

    await expect(knownHosts.lookup('gateway:gw-1')).rejects.toThrow(
      /not a regular file.*Fix or remove the file/,
    );
  });

  it('as an audit log refuses the entry, naming the file, instead of waiting for a reader', async () => {
    await mkdir(join(folder, 'audit'), { mode: 0o700 });
    makeFifo('audit', 'demo.jsonl');
    const log = new AuditLog({ dataDir: folder });

    await expect(log.append(makeAuditEntry({ profileId: 'demo' }))).rejects.toThrow(
      /demo\.jsonl is not a file/,
    );
    await expect(log.read({ profileId: 'demo' })).rejects.toThrow(/demo\.jsonl is not a file/);
  });

  it('as the window state opens the window with its default bounds', async () => {
    makeFifo('window-state.json');

    expect(await loadWindowBounds(join(folder, 'window-state.json'), [])).toBeNull();
  });
});
