// What another local user could plant in the data folder: links, a folder left open to others, stale files.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../electron/services/audit';
import { tightenFile } from '../../../../electron/services/files/private-files';
import { makeAuditEntry } from '../../../helpers/factories';

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
