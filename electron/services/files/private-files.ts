import { chmod, mkdir } from 'node:fs/promises';

/** Mode of a folder only its owner may list or enter. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Mode of a file only its owner may read or write. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `path` (and missing parents) as 0700, and tightens it to 0700 when it already exists with a looser mode
 * (folders made by an earlier version were 0755). Parents that already exist are left as they are.
 */
export async function ensurePrivateFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await chmod(path, PRIVATE_FOLDER_MODE);
}

/** Tightens an existing file to 0600 (a log an earlier version made 0644); a missing file is no error. */
export async function tightenFile(path: string): Promise<void> {
  try {
    await chmod(path, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
