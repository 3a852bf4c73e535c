import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { ensurePrivateFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../files/private-files';
import { MAX_JOURNAL_BYTES, readBounded, readJournalBytes, sha256Hex } from './journal-file';
import { JOURNAL_FILE_NAME } from './visits';

/** What the bundle's manifest says it is: the verifier refuses any other. */
export const BUNDLE_FORMAT = 'oam-field-kit/visit-bundle';
/** File name of a bundle's manifest. */
export const MANIFEST_FILE_NAME = 'manifest.json';
/** Largest file a bundle holds (reports, photos and logs are far smaller; bounded so a verify cannot exhaust memory). */
export const MAX_BUNDLE_FILE_BYTES = MAX_JOURNAL_BYTES;

/** A file of a bundle: where it is inside the bundle, what it is, and its SHA-256 and size. */
export const BundleFileSchema = z.object({
  path: z.string().min(1),
  role: z.enum(['report', 'journal', 'photo', 'log']),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.int().nonnegative(),
});
/** A file of a bundle. */
export type BundleFile = z.infer<typeof BundleFileSchema>;

/** `manifest.json` of a bundle: the visit, its journal's length and head, and every other file with its hash. */
export const BundleManifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(1),
  visitId: z.string(),
  createdAt: z.number(),
  journal: z.object({ path: z.literal(JOURNAL_FILE_NAME), entries: z.int().nonnegative(), head: z.string() }),
  files: z.array(BundleFileSchema),
});
/** `manifest.json` of a bundle. */
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

/**
 * What goes into a bundle: the journal's bytes the report was made from, the report files, the visit's photos, and
 * the session logs' bytes as they were hashed for their `log-attached` entries (a log still being written may have
 * grown since).
 */
export interface BundleContents {
  visitId: string;
  journal: Uint8Array;
  reportPaths: string[];
  photos: Array<{ path: string; fileName: string }>;
  logs: Array<{ fileName: string; bytes: Uint8Array }>;
  createdAt: number;
}

/**
 * Writes a bundle into `folder` (created 0700; it must not exist: an export never overwrites another): the report
 * files at its top, `journal.jsonl`, `photos/`, `logs/`, and `manifest.json` naming each file with its SHA-256. The
 * journal is copied as it is on disk; its entries and head are read from the copy, so they match what is bundled.
 */
export async function writeVisitBundle(folder: string, contents: BundleContents): Promise<BundleManifest> {
  await mkdir(folder, { mode: PRIVATE_FOLDER_MODE });
  const files: BundleFile[] = [];
  const add = async (source: string | Uint8Array, target: string, role: BundleFile['role']) => {
    const path = join(folder, target);
    await ensurePrivateFolder(dirname(path));
    if (typeof source === 'string') await copyFile(source, path);
    else await writeFile(path, source, { mode: PRIVATE_FILE_MODE });
    const bytes = await readBounded(path, MAX_BUNDLE_FILE_BYTES);
    files.push({ path: target.split(sep).join('/'), role, sha256: sha256Hex(bytes), bytes: bytes.length });
    return bytes;
  };
  for (const report of contents.reportPaths) await add(report, basename(report), 'report');
  const journal = readJournalBytes(await add(contents.journal, JOURNAL_FILE_NAME, 'journal'), {
    tolerateTail: false,
  });
  for (const photo of contents.photos) await add(photo.path, join('photos', photo.fileName), 'photo');
  for (const log of contents.logs) await add(log.bytes, join('logs', log.fileName), 'log');
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    version: 1,
    visitId: contents.visitId,
    createdAt: contents.createdAt,
    journal: {
      path: JOURNAL_FILE_NAME,
      entries: journal.lines.length,
      head: journal.lines.at(-1)?.hash ?? '0'.repeat(64),
    },
    files,
  };
  await writeFile(join(folder, MANIFEST_FILE_NAME), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: PRIVATE_FILE_MODE,
  });
  return manifest;
}

/** Every file under a folder, as paths relative to it joined with `/` (bounded: a bundle holds a few hundred). */
export async function listBundleFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .slice(0, 10_000)
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}
