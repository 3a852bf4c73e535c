import { chmod, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Notice } from '../../shared/ipc/schemas';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile, UnsafePathError } from '../files/private-files';
import { SITE_PACK_VERSION, SitePackFileSchema, type SitePackFile } from '../../shared/site-pack-file';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t, type MessageKey } from '../../shared/i18n';

/** Why a pack file was set aside. */
type SetAsideReason = 'notFile' | 'damaged' | 'older' | 'other';

/** The notice for each reason a pack file was set aside. */
const SET_ASIDE_WORDS: Record<SetAsideReason, MessageKey> = {
  notFile: 'sitePack:setAsideNotFile',
  damaged: 'sitePack:setAsideDamaged',
  older: 'sitePack:setAsideOlder',
  other: 'sitePack:setAsideOther',
};

/** The folder of the packs under the data folder. */
export const SITE_PACKS_FOLDER = 'site-packs';

const PROFILE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** A pack as read from disk, with its size in bytes. */
export interface StoredPack {
  pack: SitePackFile;
  sizeBytes: number;
}

/** What reading a profile's pack found: the pack, nothing, or a file set aside (with the notice saying so). */
export type PackReadOutcome =
  | { kind: 'pack'; stored: StoredPack }
  | { kind: 'none' }
  | { kind: 'set-aside'; notice: Omit<Notice, 'at'> & { at: number } };

/**
 * The site packs on disk, one per profile: `<dataDir>/site-packs/<profileId>.json`, the folder 0700 and the files
 * 0600, written atomically (a crash leaves the old pack or the new one). A file that does not parse, or that an
 * older or newer build wrote, or that is not a regular file (never followed or waited on), is renamed
 * `<profileId>.json.corrupt-<time>` and reported once; nothing else is touched. Reads are cached in memory until the next write.
 */
export class SitePackStore {
  readonly folder: string;
  private readonly now: () => number;
  private readonly cache = new Map<string, Promise<PackReadOutcome>>();

  constructor(options: { dataDir: string; clock?: Pick<Clock, 'now'> }) {
    this.folder = join(options.dataDir, SITE_PACKS_FOLDER);
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
  }

  /** The file of a profile's pack; refuses an id that could leave the folder. */
  pathOf(profileId: string): string {
    if (!PROFILE_ID_PATTERN.test(profileId) || profileId.startsWith('.')) {
      throw new Error(`Profile id ${JSON.stringify(profileId)} cannot name a site pack file`);
    }
    return join(this.folder, `${profileId}.json`);
  }

  /** Reads a profile's pack (once; later calls answer from memory until `save` or `delete`). */
  read(profileId: string): Promise<PackReadOutcome> {
    let reading = this.cache.get(profileId);
    if (!reading) {
      reading = this.readFromDisk(profileId).then((outcome) => {
        // The notice is told once; afterwards the profile simply has no pack.
        if (outcome.kind === 'set-aside') this.cache.set(profileId, Promise.resolve({ kind: 'none' }));
        return outcome;
      });
      this.cache.set(profileId, reading);
      // A failed read (a disk error) is tried again next time rather than remembered.
      reading.catch(() => this.cache.delete(profileId));
    }
    return reading;
  }

  /** The pack, or null when there is none (a file set aside reads as none after its first report). */
  async get(profileId: string): Promise<StoredPack | null> {
    const outcome = await this.read(profileId);
    return outcome.kind === 'pack' ? outcome.stored : null;
  }

  /** Writes a profile's pack atomically, 0600 in a 0700 folder, replacing the previous one. */
  async save(pack: SitePackFile): Promise<StoredPack> {
    const path = this.pathOf(pack.profileId);
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    // mkdir leaves an existing folder's mode alone (and applies the umask to a new one).
    await chmod(this.folder, 0o700);
    const text = JSON.stringify(pack);
    await writeFileAtomic(path, text, 0o600);
    const stored = { pack, sizeBytes: Buffer.byteLength(text) };
    this.cache.set(pack.profileId, Promise.resolve({ kind: 'pack', stored }));
    return stored;
  }

  private async readFromDisk(profileId: string): Promise<PackReadOutcome> {
    const path = this.pathOf(profileId);
    let text: string;
    try {
      text = await readPrivateFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
      if (error instanceof UnsafePathError) {
        return this.setAside(profileId, path, 'notFile');
      }
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.setAside(profileId, path, 'damaged');
    }
    const version = (json as { version?: unknown } | null)?.version;
    if (version !== SITE_PACK_VERSION) {
      return this.setAside(
        profileId,
        path,
        typeof version === 'number' && version < SITE_PACK_VERSION ? 'older' : 'other',
      );
    }
    const parsed = SitePackFileSchema.safeParse(json);
    if (!parsed.success || parsed.data.profileId !== profileId) {
      return this.setAside(profileId, path, 'damaged');
    }
    const size = (await stat(path)).size;
    return { kind: 'pack', stored: { pack: parsed.data, sizeBytes: size } };
  }

  private async setAside(profileId: string, path: string, why: SetAsideReason): Promise<PackReadOutcome> {
    const at = this.now();
    const asideName = `${profileId}.json.corrupt-${at}`;
    await rename(path, join(this.folder, asideName));
    return {
      kind: 'set-aside',
      notice: {
        code: 'SITE_PACK_SET_ASIDE',
        message: t(SET_ASIDE_WORDS[why], { file: asideName }),
        at,
      },
    };
  }
}
