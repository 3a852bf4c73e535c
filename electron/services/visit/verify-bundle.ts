import { join } from 'node:path';
import { VisitEntrySchema } from '../../shared/visit/journal-entry';
import {
  BundleManifestSchema,
  listBundleFiles,
  MANIFEST_FILE_NAME,
  MAX_BUNDLE_FILE_BYTES,
  type BundleManifest,
} from './bundle';
import { readBounded, readJournalBytes, sha256Hex } from './journal-file';
import { JOURNAL_FILE_NAME } from './visits';
import { t } from '../../shared/i18n';

/** What checking a bundle found: intact or not, each problem in words (the first is the first met), and the head. */
export interface BundleVerdict {
  isIntact: boolean;
  problems: string[];
  /** The journal's entries and head hash as the bundle holds them (compare the head with the report's last page). */
  entries?: number;
  head?: string;
  /** How many files of each role the manifest lists (none when there is no readable manifest). */
  files?: { reports: number; photos: number; logs: number };
}

/**
 * A bundle as the verifier reads it: its files' paths, the bytes of its manifest and journal, and any file's
 * SHA-256. A folder on this computer (folderBundle), or a bundle chosen in the app whose other files were hashed
 * where they were read (the renderer), since a bundle's photos and logs may not fit in one message.
 */
export interface BundleSource {
  /** Every file of the bundle, as paths relative to its top joined with `/`. */
  list(): Promise<string[]>;
  /** A file's bytes (only the manifest and the journal are asked for); null when missing or unreadable. */
  read(path: string): Promise<Uint8Array | null>;
  /** A file's SHA-256 in lowercase hex; null when missing or unreadable. */
  sha256(path: string): Promise<string | null>;
}

/** A bundle in a folder on this computer, each file read at most MAX_BUNDLE_FILE_BYTES. */
export function folderBundle(folder: string): BundleSource {
  const read = (path: string) => readBounded(join(folder, path), MAX_BUNDLE_FILE_BYTES).catch(() => null);
  return {
    list: () => listBundleFiles(folder),
    read,
    sha256: async (path) => {
      const bytes = await read(path);
      return bytes ? sha256Hex(bytes) : null;
    },
  };
}

function countFiles(manifest: BundleManifest): NonNullable<BundleVerdict['files']> {
  const count = (role: BundleManifest['files'][number]['role']) =>
    manifest.files.filter((file) => file.role === role).length;
  return { reports: count('report'), photos: count('photo'), logs: count('log') };
}

/**
 * Checks an exported bundle offline: the journal's chain entry by entry (a changed, added or removed entry is named
 * by its number), the journal's length and head against the manifest, every file of the manifest against its
 * SHA-256 (changed or removed), files the manifest does not list (added), and each photo and log the journal says
 * was attached against the bundled file's hash. Never throws for what the bundle holds.
 */
export async function verifyBundle(bundle: string | BundleSource): Promise<BundleVerdict> {
  const source = typeof bundle === 'string' ? folderBundle(bundle) : bundle;
  const problems: string[] = [];
  const manifestBytes = await source.read(MANIFEST_FILE_NAME);
  if (!manifestBytes)
    return {
      isIntact: false,
      problems: [t('report:verifyManifestMissing', { file: MANIFEST_FILE_NAME })],
    };
  let manifest: BundleManifest;
  try {
    manifest = BundleManifestSchema.parse(JSON.parse(Buffer.from(manifestBytes).toString('utf8')));
  } catch {
    return {
      isIntact: false,
      problems: [t('report:verifyManifestChanged', { file: MANIFEST_FILE_NAME })],
    };
  }

  const journalBytes = await source.read(JOURNAL_FILE_NAME);
  let entries: number | undefined;
  let head: string | undefined;
  const attached = new Map<string, { sha256: string; what: string }>();
  if (!journalBytes) problems.push(t('report:verifyFileRemoved', { what: JOURNAL_FILE_NAME }));
  else {
    const reading = readJournalBytes(journalBytes, { tolerateTail: false });
    entries = reading.lines.length;
    head = reading.lines.at(-1)?.hash;
    const made = manifest.journal.entries;
    if (reading.broken)
      problems.push(
        t('report:verifyJournalBroken', { reason: reading.broken.reason, line: reading.broken.line }),
      );
    else if (reading.lines.length < made)
      problems.push(
        t(made - reading.lines.length > 1 ? 'report:verifyEntriesRemoved' : 'report:verifyEntryRemoved', {
          entry: reading.lines.length,
          count: made,
        }),
      );
    else if (reading.lines.length > made)
      problems.push(t('report:verifyEntryAdded', { entry: made, count: made }));
    else if (head !== manifest.journal.head) problems.push(t('report:verifyHeadRewritten'));
    for (const line of reading.lines) {
      const parsed = VisitEntrySchema.safeParse(line.entry);
      if (!parsed.success) continue;
      const entry = parsed.data;
      if (entry.kind === 'photo-attached')
        attached.set(`photos/${entry.photo.fileName}`, {
          sha256: entry.photo.sha256,
          what: entry.photo.caption
            ? t('report:verifyPhotoCaptioned', { name: entry.photo.fileName, caption: entry.photo.caption })
            : t('report:verifyPhotoFile', { name: entry.photo.fileName }),
        });
      if (entry.kind === 'photo-removed')
        for (const [path] of attached) if (path.startsWith(`photos/${entry.photoId}.`)) attached.delete(path);
      if (entry.kind === 'log-attached')
        attached.set(`logs/${entry.logFile}`, {
          sha256: entry.sha256,
          what: t('report:verifyLogFile', { name: entry.logFile }),
        });
    }
  }

  const present = new Set(await source.list().catch(() => [] as string[]));
  const listed = new Set(manifest.files.map((file) => file.path));
  for (const file of manifest.files) {
    if (file.role === 'journal') continue;
    const name = file.path.split('/').pop() ?? file.path;
    const what =
      file.role === 'report'
        ? t('report:verifyReportFile', { name: file.path })
        : t(file.role === 'photo' ? 'report:verifyPhotoFile' : 'report:verifyLogFile', { name });
    const sha256 = present.has(file.path) ? await source.sha256(file.path) : null;
    if (!sha256) {
      problems.push(t('report:verifyFileRemoved', { what }));
      continue;
    }
    const recorded = attached.get(file.path);
    if (sha256 !== file.sha256 || (recorded && recorded.sha256 !== file.sha256))
      problems.push(t('report:verifyFileChanged', { what }));
  }
  for (const [path, recorded] of attached)
    if (!listed.has(path)) problems.push(t('report:verifyAttachmentMissing', { what: recorded.what }));
  for (const path of present)
    if (path !== MANIFEST_FILE_NAME && path !== JOURNAL_FILE_NAME && !listed.has(path))
      problems.push(t('report:verifyFileAdded', { path }));

  return {
    isIntact: problems.length === 0,
    problems,
    ...(entries !== undefined ? { entries } : {}),
    ...(head !== undefined ? { head } : {}),
    files: countFiles(manifest),
  };
}
