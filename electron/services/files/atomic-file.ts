import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ensurePrivateFolder } from './private-files';

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
  const handle = await open(temporary, 'w', mode);
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
