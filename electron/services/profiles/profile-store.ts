import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { IpcError } from '../../shared/ipc/result';
import {
  ProfileSchema,
  normalizeFingerprint,
  type Profile,
  type ProfileDraft,
} from '../../shared/ipc/schemas';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile, UnsafePathError } from '../files/private-files';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t, type MessageKey } from '../../shared/i18n';
import type { NoticeDraft } from '../../shared/notice-words';

/** The profiles file's name inside the app data folder. */
export const PROFILES_FILE = 'profiles.json';

/** Why a profiles file that is a folder, a FIFO or a link was set aside (it is never followed or waited on). */

/** The id of the in-memory demo profile (never written to disk: its address changes every run). */
export const DEMO_PROFILE_ID = 'demo';

const ProfilesFileSchema = z.object({
  version: z.literal(1),
  selectedId: z.string().nullable(),
  profiles: z.array(ProfileSchema.extend({ isDemo: z.literal(false) })),
});

/** What a ProfileStore needs: the app data folder, and optionally a clock and an id source for tests. */
export interface ProfileStoreOptions {
  folder: string;
  clock?: Pick<Clock, 'now'>;
  createId?: () => string;
}

/**
 * The server profiles, persisted as JSON in the app data folder. Guarantees: every write is atomic, and changes
 * run one after another, each on the list the one before left (none is lost to a concurrent one); the file is
 * validated on read; a corrupt or damaged file (not JSON, not valid, or not a regular file: a folder, a FIFO, a
 * link) is moved aside (`profiles.json.corrupt-<time>`) and reported as a notice, never a crash or a hang; the
 * demo profile lives in memory only.
 */
export class ProfileStore {
  private profiles: Profile[] = [];
  private selectedId: string | null = null;
  private demo: Profile | null = null;
  private readonly path: string;
  private readonly now: () => number;
  private readonly createId: () => string;
  /** The change running now, if any: the next one starts after it settles. */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(options: ProfileStoreOptions) {
    this.path = join(options.folder, PROFILES_FILE);
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
    this.createId = options.createId ?? randomUUID;
  }

  /** Reads the file (absent = no profiles). Returns notices for the user, e.g. a corrupt file moved aside. */
  async load(): Promise<NoticeDraft[]> {
    let text: string;
    try {
      text = await readPrivateFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      if (error instanceof UnsafePathError) return this.setAside('main:noticeProfilesNotFile');
      throw error;
    }
    let parsed: z.infer<typeof ProfilesFileSchema>;
    try {
      parsed = ProfilesFileSchema.parse(JSON.parse(text));
    } catch {
      return this.setAside('main:noticeProfilesDamaged');
    }
    this.profiles = parsed.profiles;
    this.selectedId = parsed.profiles.some((profile) => profile.id === parsed.selectedId)
      ? parsed.selectedId
      : null;
    return [];
  }

  /** Moves the unreadable file aside, starts the list empty and says so (`words`: the notice saying why). */
  private async setAside(words: MessageKey): Promise<NoticeDraft[]> {
    const at = this.now();
    const asideName = `${PROFILES_FILE}.corrupt-${at}`;
    await rename(this.path, join(this.path, '..', asideName));
    this.profiles = [];
    this.selectedId = null;
    return [
      {
        code: 'PROFILES_CORRUPT',
        message: () => t(words, { file: asideName, name: PROFILES_FILE }),
        at,
      },
    ];
  }

  /** Every profile (the demo one first, when present) and the selected id. */
  list(): { profiles: Profile[]; selectedId: string | null } {
    return {
      profiles: this.demo ? [this.demo, ...this.profiles] : [...this.profiles],
      selectedId: this.selectedId,
    };
  }

  /** True when no profile of the user's own is saved (the demo one does not count). */
  isEmpty(): boolean {
    return this.profiles.length === 0;
  }

  /** The profile with this id; throws NOT_FOUND when there is none. */
  get(id: string): Profile {
    const profile = id === this.demo?.id ? this.demo : this.profiles.find((entry) => entry.id === id);
    if (!profile) throw new IpcError('NOT_FOUND', t('main:profileGone'));
    return profile;
  }

  /**
   * Adds (no id) or replaces (existing id) a profile and persists the list. Secrets and what main derives are
   * never written: a draft's relay password and "stored" flag are dropped here (FieldKitServices keeps them).
   */
  save(draft: ProfileDraft): Promise<Profile> {
    return this.change(() => this.saveNow(draft));
  }

  private async saveNow(draft: ProfileDraft): Promise<Profile> {
    const { id, isDemo: _ignored, relayPassword: _secret, relayPasswordStored: _derived, ...fields } = draft;
    if (id !== undefined && id === this.demo?.id) {
      throw new IpcError('FORBIDDEN', t('main:demoProfileReadOnly'));
    }
    const profile = ProfileSchema.parse({
      ...fields,
      id: id ?? this.createId(),
      isDemo: false,
      trustedCertificateSha256: fields.trustedCertificateSha256
        ? normalizeFingerprint(fields.trustedCertificateSha256)
        : undefined,
    });
    const index = id === undefined ? -1 : this.profiles.findIndex((entry) => entry.id === id);
    if (id !== undefined && index < 0) throw new IpcError('NOT_FOUND', t('main:profileGone'));
    const next = [...this.profiles];
    if (index >= 0) next[index] = profile;
    else next.push(profile);
    await this.persist(next, this.selectedId);
    return profile;
  }

  /**
   * Keeps `username` as the profile's user name, on the profile as it is when this change runs (an edit made
   * meanwhile stays). Nothing happens for the demo profile, a profile deleted meanwhile or an unchanged name.
   */
  rememberUsername(id: string, username: string): Promise<void> {
    return this.change(async () => {
      const profile = this.profiles.find((entry) => entry.id === id);
      if (!profile || profile.username === username) return;
      await this.saveNow({ ...profile, username });
    });
  }

  /** Removes a profile (and the selection, if it was selected) and persists the list. */
  delete(id: string): Promise<void> {
    return this.change(async () => {
      if (id === this.demo?.id) throw new IpcError('FORBIDDEN', t('main:demoProfileUndeletable'));
      this.get(id);
      await this.persist(
        this.profiles.filter((profile) => profile.id !== id),
        this.selectedId === id ? null : this.selectedId,
      );
    });
  }

  /** Marks a profile as the one the login screen opens with. */
  select(id: string): Promise<void> {
    return this.change(async () => {
      this.get(id);
      await this.persist(this.profiles, id);
    });
  }

  /** Pins the certificate the user saw and accepted for this profile's server. */
  trustCertificate(id: string, sha256: string): Promise<Profile> {
    return this.change(() => {
      const profile = this.get(id);
      if (profile.isDemo) throw new IpcError('FORBIDDEN', t('main:demoProfileReadOnly'));
      return this.saveNow({ ...profile, trustedCertificateSha256: normalizeFingerprint(sha256) });
    });
  }

  /** Sets the in-memory demo profile; with `select`, selects it for this run without persisting. */
  setDemoProfile(profile: Omit<Profile, 'id' | 'isDemo'>, options: { select: boolean }): Profile {
    this.demo = ProfileSchema.parse({ ...profile, id: DEMO_PROFILE_ID, isDemo: true });
    if (options.select) this.selectedId = DEMO_PROFILE_ID;
    return this.demo;
  }

  /** Runs one change after those before it have settled: each reads the list the previous one wrote. */
  private change<T>(work: () => Promise<T>): Promise<T> {
    const result = this.changes.then(work, work);
    this.changes = result.catch(() => undefined);
    return result;
  }

  private async persist(profiles: Profile[], selectedId: string | null): Promise<void> {
    const persistedSelection = selectedId === DEMO_PROFILE_ID ? null : selectedId;
    const file = { version: 1 as const, selectedId: persistedSelection, profiles };
    await writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
    this.profiles = profiles;
    this.selectedId = selectedId;
  }
}
