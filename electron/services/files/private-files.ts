import { constants, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import { t } from '../../shared/i18n';

/** Mode of a folder only its owner may list or enter. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Mode of a file only its owner may read or write. */
export const PRIVATE_FILE_MODE = 0o600;

// Where the platform has no such flag (Windows), 0 leaves it out; links there need privileges to make.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO opened without O_NONBLOCK waits for its other end: start-up would hang on a planted one.
const NO_WAIT = constants.O_NONBLOCK ?? 0;

/**
 * A path in the data folder that Field Kit refuses to use: a symbolic link, something that is not a file or
 * folder as expected, or a folder other users may write to. The message says which and what to do.
 */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Creates `path` (and missing parents) as 0700, and tightens it to 0700 when it already exists with a looser mode
 * (folders made by an earlier version were 0755). Parents that already exist are left as they are. Throws
 * UnsafePathError, changing nothing, when `path` is a symbolic link or not a folder: a chmod would act on
 * whatever the link points to.
 */
export async function ensurePrivateFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) throw linkRefused(path);
  if (!stats.isDirectory()) {
    throw new UnsafePathError(path, t('errors:pathNotFolder', { path }));
  }
  await chmod(path, PRIVATE_FOLDER_MODE);
}

/**
 * Tightens an existing file to 0600 (a log an earlier version made 0644); a missing file is no error. A symbolic
 * link or anything but a regular file is refused (UnsafePathError) and left as it is.
 */
export async function tightenFile(path: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await openRegularFile(path, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
  } finally {
    await handle.close();
  }
}

/**
 * Appends text (UTF-8) to a file only its owner may read, creating it 0600 and tightening one left looser. Never
 * follows a symbolic link and never writes into anything but a regular file: those are refused with
 * UnsafePathError. `durable`: the text is on the disk (datasync) when the promise resolves.
 */
export async function appendPrivateFile(
  path: string,
  text: string,
  options: { durable?: boolean } = {},
): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
  const handle = await openRegularFile(path, flags, PRIVATE_FILE_MODE);
  try {
    if ((await handle.stat()).mode & 0o077) await handle.chmod(PRIVATE_FILE_MODE);
    await handle.appendFile(text, 'utf8');
    if (options.durable === true) await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads a whole file as UTF-8 without following a symbolic link or waiting on a FIFO: anything but a regular
 * file is refused with UnsafePathError. A missing file rejects with ENOENT, as `readFile` does.
 */
export async function readPrivateFile(path: string): Promise<string> {
  return (await readPrivateBytes(path)).toString('utf8');
}

/** Reads a whole file's bytes, refusing a symbolic link, a FIFO or anything else not a regular file (as above). */
export async function readPrivateBytes(path: string): Promise<Buffer> {
  const handle = await openRegularFile(path, constants.O_RDONLY);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Opens `path` with `flags`, refusing a symbolic link (O_NOFOLLOW) and, once open, anything not a regular file. */
async function openRegularFile(path: string, flags: number, mode?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags | NO_FOLLOW | NO_WAIT, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last part is a link (O_NOFOLLOW). ENXIO: a FIFO opened for writing that nobody reads.
    if (code === 'ELOOP') throw linkRefused(path);
    if (code === 'ENXIO') throw notAFile(path);
    throw error;
  }
  let stats: Stats;
  try {
    stats = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (!stats.isFile()) {
    await handle.close();
    throw notAFile(path);
  }
  return handle;
}

function linkRefused(path: string): UnsafePathError {
  return new UnsafePathError(path, t('errors:pathIsLink', { path }));
}

function notAFile(path: string): UnsafePathError {
  return new UnsafePathError(path, t('errors:pathNotFile', { path }));
}
