// What another local user could plant in the data folder: links, a folder left open to others, stale files.
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FieldKitServices } from '../../../../electron/app';
import { AuditLog } from '../../../../electron/services/audit';
import { readJournalPhotos } from '../../../../electron/services/reports';
import { Visits } from '../../../../electron/services/visit';
import { MemoryStore } from '../../../../electron/services/credentials';
import { STALE_TEMPORARY_FILE_AGE_MS } from '../../../../electron/services/files/atomic-file';
import { checkDataFolder } from '../../../../electron/services/files/data-folder';
import { SYSTEM_CLOCK } from '../../../../electron/shared/clock';
import { tightenFile } from '../../../../electron/services/files/private-files';
import { makeAuditEntry } from '../../../helpers/factories';

const NOW = Date.UTC(2026, 10, 27, 9, 30);

let root: string;
let dataDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'fieldkit-hostile-'));
  dataDir = join(root, 'data');
  await mkdir(dataDir, { mode: 0o700 });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function startServices() {
  return FieldKitServices.create({
    dataDir,
    mode: 'browser',
    version: '0.1.0',
    clock: { ...SYSTEM_CLOCK, now: () => NOW },
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => {
      throw new Error('no session in this test');
    },
  });
}

/** A file of the user's outside the data folder, readable by others, that a planted link points to. */
async function makeVictimFile(): Promise<string> {
  const victim = join(root, 'victim.txt');
  await writeFile(victim, 'the user’s own text\n');
  await chmod(victim, 0o644);
  return victim;
}

describe('links in the data folder', () => {
  it('refuses to append an audit entry through a linked log file, leaving the target as it was', async () => {
    const victim = await makeVictimFile();
    await mkdir(join(dataDir, 'audit'), { mode: 0o700 });
    await symlink(victim, join(dataDir, 'audit', 'demo.jsonl'));
    const log = new AuditLog({ dataDir });

    await expect(log.append(makeAuditEntry({ profileId: 'demo' }))).rejects.toThrow(/is a symbolic link/);
    expect(await readFile(victim, 'utf8')).toBe('the user’s own text\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
  });

  it('refuses an audit folder that is a link, leaving the mode of the folder it points to', async () => {
    const shared = join(root, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o755);
    await symlink(shared, join(dataDir, 'audit'));
    const log = new AuditLog({ dataDir });

    await expect(log.append(makeAuditEntry({ profileId: 'demo' }))).rejects.toThrow(/is a symbolic link/);
    expect((await stat(shared)).mode & 0o777).toBe(0o755);
    expect(await readdir(shared)).toEqual([]);
  });

  it('refuses to tighten a log through a link, leaving the target as it was', async () => {
    const victim = await makeVictimFile();
    const link = join(dataDir, 'main.log');
    await symlink(victim, link);

    await expect(tightenFile(link)).rejects.toThrow(/is a symbolic link/);
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
  });
});

describe('a photo replaced by a link', () => {
  it('is left out of the report instead of putting the linked file in it', async () => {
    const victim = await makeVictimFile();
    const visits = new Visits({ dataDir });
    await visits.load();
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const photo = await visits.attachPhoto({ caption: 'Mast', bytes: png });
    const visitId = visits.current()!.id;
    const { folder } = visits.pathsOf(visitId);
    const photoPath = join(folder, 'photos', photo.fileName);
    await rm(photoPath);
    await symlink(victim, photoPath);

    expect(await readJournalPhotos(visits.entries(visitId), folder)).toEqual([]);
    await visits.shutdown();
  });
});

describe('the data folder at start-up', () => {
  it('refuses a data folder others may write to, naming the mode, before reading anything in it', async () => {
    await writeFile(join(dataDir, 'profiles.json'), '{"planted":true}');
    for (const mode of [0o777, 0o770, 0o702]) {
      await chmod(dataDir, mode);
      await expect(startServices()).rejects.toThrow(`other users may write to it (mode ${mode.toString(8)})`);
    }
    expect(await readdir(dataDir)).toEqual(['profiles.json']);
  });

  it('refuses a data folder owned by another user', async () => {
    await expect(checkDataFolder(dataDir, { ownerId: 4242 })).rejects.toThrow(/belongs to another user/);
  });

  it('refuses a data folder that is a link', async () => {
    const linked = join(root, 'linked-data');
    await symlink(dataDir, linked);
    await expect(checkDataFolder(linked)).rejects.toThrow(/data folder .* is a symbolic link/);
  });

  it('creates a missing data folder 0700 and tightens one left 0755', async () => {
    const missing = join(root, 'new-data');
    await checkDataFolder(missing);
    expect((await stat(missing)).mode & 0o777).toBe(0o700);
    await chmod(dataDir, 0o755);
    await startServices();
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
  });
});

describe('temporary files left by interrupted writes', () => {
  it('are removed at start-up once stale; fresh ones and files of other names stay', async () => {
    await mkdir(join(dataDir, 'reports', 'visit-photos', 'demo', '1764235800000'), {
      recursive: true,
      mode: 0o700,
    });
    const stale = [
      join(dataDir, 'profiles.json.4242.0123456789ab.tmp'),
      join(dataDir, 'reports', 'visit-photos', 'demo', '1764235800000', 'p-1.jpg.77.a1b2c3d4e5f6.tmp'),
    ];
    const kept = [
      join(dataDir, 'known-hosts.json.4243.00aa11bb22cc.tmp'),
      join(dataDir, 'notes.tmp'),
      join(dataDir, 'reports', 'draft.html.1.tmp'),
    ];
    const staleTime = (NOW - STALE_TEMPORARY_FILE_AGE_MS - 1_000) / 1000;
    for (const path of [...stale, ...kept]) {
      await writeFile(path, 'half written');
      await utimes(path, staleTime, staleTime);
    }
    const freshTime = (NOW - 5_000) / 1000;
    await utimes(kept[0]!, freshTime, freshTime);

    await startServices();

    for (const path of stale) await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    for (const path of kept) expect((await stat(path)).isFile()).toBe(true);
  });
});
