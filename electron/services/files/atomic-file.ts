import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ensurePrivateFolder } from './private-files';

/** How long a temporary file of `writeFileAtomic` must have lain untouched before start-up removes it. */
export const STALE_TEMPORARY_FILE_AGE_MS = 60 * 60 * 1000;

// `<target>.<pid>.<12 hex digits>.tmp`: the name writeFileAtomic gives its temporary file, and nothing else's.
const TEMPORARY_FILE_NAME = /^.+\.\d+\.[0-9a-f]{12}\.tmp$/;

/** True for a name writeFileAtomic gives its temporary files (the only `*.tmp` files start-up may remove). */
export function isTemporaryFileName(name: string): boolean {
  return TEMPORARY_FILE_NAME.test(name);
}

/**
 * Writes a file so that a reader sees the old content or the new, never a torn one: writes a temporary file
 * beside it, flushes it to disk, then renames it over the target. Text is written as UTF-8. The folder is made
 * (or tightened to) 0700: every file written this way holds the user's data (profiles, caches, packs, reports,
 * known hosts).
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  mode = 0o600,
): Promise<void> {
  await ensurePrivateFolder(dirname(path));
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  // 'wx' (O_EXCL) creates the file or fails: it never writes through a link planted at that name.
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
