import type { Stats } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTemporaryFileName, STALE_TEMPORARY_FILE_AGE_MS } from './atomic-file';
import { ensurePrivateFolder, UnsafePathError } from './private-files';
import { t } from '../../shared/i18n';

/** How deep below the data folder start-up looks for stale temporary files (visit photos lie 4 folders down). */
const MAX_SWEEP_DEPTH = 5;

/** Who may own the data folder: this user id (tests pass another to see the refusal), or none on Windows. */
export interface DataFolderOptions {
  ownerId?: number;
}

/**
 * Makes sure the data folder is one only this user controls before anything in it is read: creates it 0700 when
 * missing, tightens a 0755 one to 0700, and throws UnsafePathError, with what to do, when it is a symbolic link,
 * not a folder, owned by another user, or writable by the group or others (someone else could have planted files
 * or links in it). Owner and mode are not checked on Windows, where they do not say who may write.
 */
export async function checkDataFolder(path: string, options: DataFolderOptions = {}): Promise<void> {
  const ownerId = 'ownerId' in options ? options.ownerId : process.getuid?.();
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await ensurePrivateFolder(path);
    return;
  }
  const refuse = (message: string) => new UnsafePathError(path, message);
  if (stats.isSymbolicLink()) throw refuse(t('errors:dataFolderLink', { path }));
  if (!stats.isDirectory()) throw refuse(t('errors:dataFolderNotFolder', { path }));
  if (ownerId !== undefined && process.platform !== 'win32') {
    if (stats.uid !== ownerId) {
      throw refuse(t('errors:dataFolderOtherOwner', { path, uid: stats.uid }));
    }
    if (stats.mode & 0o022) {
      throw refuse(t('errors:dataFolderWritable', { path, mode: (stats.mode & 0o777).toString(8) }));
    }
  }
  await ensurePrivateFolder(path);
}

/**
 * Removes the temporary files an interrupted `writeFileAtomic` left in the data folder and its sub-folders (to a
 * depth of 5): only names of its pattern (`<file>.<pid>.<12 hex>.tmp`), only regular files, and only those not
 * modified for STALE_TEMPORARY_FILE_AGE_MS (a write under way in another process is left alone). Links are not
 * followed; a folder that cannot be read is passed over. Resolves with the paths removed.
 */
export async function removeStaleTemporaryFiles(root: string, now: number): Promise<string[]> {
  const removed: string[] = [];
  const sweep = async (folder: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < MAX_SWEEP_DEPTH) await sweep(path, depth + 1);
      if (!entry.isFile() || !isTemporaryFileName(entry.name)) continue;
      const stats = await lstat(path).catch(() => undefined);
      if (!stats?.isFile() || now - stats.mtimeMs < STALE_TEMPORARY_FILE_AGE_MS) continue;
      await rm(path, { force: true });
      removed.push(path);
    }
  };
  await sweep(root, 1);
  return removed;
}
