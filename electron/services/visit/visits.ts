import { randomUUID } from 'node:crypto';
import { readdir, rm, open as openFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { format } from '../../shared/format';
import { t, type MessageKey, type MessageParams } from '../../shared/i18n';
import {
  GENESIS_HASH,
  VisitEntrySchema,
  type GatewayIdentity,
  type JournalLine,
  type VisitEntry,
  type VisitFields,
} from '../../shared/visit/journal-entry';
import { writeFileAtomic } from '../files/atomic-file';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from '../files/private-files';
import {
  MAX_CAPTION_LENGTH,
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_VISIT,
  PhotoRejectedError,
  sniffImageType,
} from './photo-rules';
import { JournalFile, readBounded, readJournalBytes, sha256Hex } from './journal-file';
import { emptyState, fold, type VisitPhotoFile, type VisitState } from './visit-state';

/** File name of a visit's journal in its folder (and in an exported bundle). */
export const JOURNAL_FILE_NAME = 'journal.jsonl';

const VISIT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PHOTO_EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/** Something to tell the technician about the visits on disk (a damaged tail kept aside, a broken chain). */
export interface VisitNotice {
  code: 'VISIT_JOURNAL_DAMAGED_TAIL' | 'VISIT_JOURNAL_BROKEN' | 'VISIT_JOURNAL_UNREADABLE';
  message: string;
}

/**
 * What the command service, terminals, wizards and fleet call to record what they do, as it happens. `append`
 * resolves once the entry is on the disk; when it rejects (JournalWriteError: disk full; JournalReadOnlyError)
 * the caller must not do the action. With no visit open the first append opens an implicit visit (arrival: now,
 * no site) which the report view then asks the technician to name: work is never done unrecorded, and never
 * refused for want of a visit.
 */
export interface VisitRecorder {
  append(entry: VisitEntry): Promise<JournalLine>;
}

/** The visit being opened by the technician (each field optional; arrival defaults to now). */
export interface VisitOpenInput {
  site?: string;
  customer?: string;
  technician?: string;
  arrivedAt?: number;
  profileId?: string;
  user?: string;
}

/** A refusal the technician can act on (a visit already open, no visit to close, a photo that cannot be kept). */
export class VisitRefusedError extends Error {
  override readonly name = 'VisitRefusedError';
}

/** A sentence about a visit: the one naming its site when it has one, else the one for a visit not yet named. */
function aboutVisit(
  state: VisitState,
  named: MessageKey,
  unnamed: MessageKey,
  params: MessageParams,
): string {
  return state.site ? t(named, { ...params, site: state.site }) : t(unnamed, params);
}

interface LoadedVisit {
  state: VisitState;
  lines: JournalLine[];
  journal: JournalFile;
  folder: string;
}

/** What the store needs: the data folder (visits go to `<dataDir>/visits/<visit id>/`) and a clock. */
export interface VisitsOptions {
  dataDir: string;
  clock?: Pick<Clock, 'now'>;
}

/** Flushes a folder's entries to the disk, so a file just created in it is found after a power loss. */
async function syncFolder(path: string): Promise<void> {
  const handle = await openFile(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The visits kept by the main process, each an append-only journal (`<dataDir>/visits/<id>/journal.jsonl`, 0600 in
 * 0700 folders; one JSON line per entry, hash-chained, flushed before each append resolves — docs/site-report.md,
 * docs/adr/0006-visit-journal-format.md). Several visits exist; at most one is open, and it is found again after a
 * restart or a `kill -9` with everything in it. Implements VisitRecorder for the open visit.
 */
export class Visits implements VisitRecorder {
  private readonly folder: string;
  private readonly now: () => number;
  private readonly visits = new Map<string, LoadedVisit>();
  private readonly listeners = new Set<(current: VisitState | null) => void>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: VisitsOptions) {
    this.folder = join(options.dataDir, 'visits');
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
  }

  /**
   * Reads every visit on disk. A journal cut mid-line keeps every whole entry; the damaged tail is moved to
   * `journal.jsonl.damaged-<time>` beside it and named in a notice. A journal whose chain does not verify is kept
   * read-only, with a notice. Never throws for what is on disk.
   */
  async load(): Promise<VisitNotice[]> {
    const notices: VisitNotice[] = [];
    const names = await readdir(this.folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    for (const id of names.filter((name) => VISIT_ID_PATTERN.test(name)).sort()) {
      const notice = await this.loadVisit(id).catch((error: unknown) => ({
        code: 'VISIT_JOURNAL_UNREADABLE' as const,
        message: t('errors:journalUnreadable', {
          id,
          reason: error instanceof Error ? error.message : String(error),
        }),
      }));
      if (notice) notices.push(notice);
    }
    return notices;
  }

  private async loadVisit(id: string): Promise<VisitNotice | undefined> {
    const folder = join(this.folder, id);
    const path = join(folder, JOURNAL_FILE_NAME);
    const bytes = await readBounded(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (bytes === null) return undefined;
    const reading = readJournalBytes(bytes);
    const state = emptyState(id);
    for (const line of reading.lines) fold(state, line);
    let notice: VisitNotice | undefined;
    let readOnlyReason: string | undefined;
    if (reading.broken) {
      readOnlyReason = t('errors:journalDoesNotVerify', {
        reason: reading.broken.reason,
        line: reading.broken.line,
      });
      notice = {
        code: 'VISIT_JOURNAL_BROKEN',
        message: aboutVisit(state, 'errors:journalBrokenNamed', 'errors:journalBroken', {
          reason: reading.broken.reason,
          path,
        }),
      };
    } else if (reading.damagedTail) {
      const aside = `${path}.damaged-${this.now()}`;
      try {
        await writeFileAtomic(aside, reading.damagedTail);
        const handle = await openFile(path, 'r+');
        try {
          await handle.truncate(reading.goodLength);
          await handle.datasync();
        } finally {
          await handle.close();
        }
        notice = {
          code: 'VISIT_JOURNAL_DAMAGED_TAIL',
          message: aboutVisit(state, 'errors:journalCutShortNamed', 'errors:journalCutShort', {
            count: reading.lines.length,
            bytes: reading.damagedTail.length,
            aside,
          }),
        };
      } catch (error) {
        readOnlyReason = t('errors:journalDamagedLine');
        notice = {
          code: 'VISIT_JOURNAL_BROKEN',
          message: aboutVisit(state, 'errors:journalDamagedNamed', 'errors:journalDamaged', {
            reason: error instanceof Error ? error.message : String(error),
            path,
          }),
        };
      }
    }
    if (reading.lines.length === 0 && !reading.broken) return notice;
    state.readOnlyReason = readOnlyReason;
    const journal = new JournalFile(path, id, {
      lines: reading.lines,
      length: reading.goodLength,
      readOnlyReason,
    });
    this.visits.set(id, { state, lines: reading.lines, journal, folder });
    return notice;
  }

  /** Calls `listener` with the open visit (or null) each time it, or anything in it, changes. */
  onChange(listener: (current: VisitState | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every visit, newest arrival first, as copies. */
  list(): VisitState[] {
    return [...this.visits.values()]
      .map(({ state }) => structuredClone(state))
      .sort((left, right) => right.arrivedAt - left.arrivedAt);
  }

  /** The open visit that takes entries (the newest, should several be open), as a copy; null when none. */
  current(): VisitState | null {
    const open = this.openVisit();
    return open ? structuredClone(open.state) : null;
  }

  /** One visit by id, as a copy; null when unknown. */
  get(visitId: string): VisitState | null {
    const visit = this.visits.get(visitId);
    return visit ? structuredClone(visit.state) : null;
  }

  /** The entries of a visit as written (copies), oldest first. */
  entries(visitId: string): JournalLine[] {
    return structuredClone(this.visits.get(visitId)?.lines ?? []);
  }

  /** Where a visit's files are: its folder and its journal. */
  pathsOf(visitId: string): { folder: string; journal: string } {
    const visit = this.require(visitId);
    return { folder: visit.folder, journal: visit.journal.path };
  }

  /** Opens a visit; refused while another is open (close it first). */
  open(input: VisitOpenInput): Promise<VisitState> {
    return this.serialised(async () => {
      const open = this.openVisit();
      if (open)
        throw new VisitRefusedError(
          aboutVisit(open.state, 'errors:closeVisitFirstNamed', 'errors:closeVisitFirst', {
            started: format.dateTime(open.state.arrivedAt),
          }),
        );
      return structuredClone((await this.create({ ...input, implicit: false })).state);
    });
  }

  /**
   * Closes the open visit with its departure (default now), as the technician may correct it: refused before the
   * visit's arrival (the report would print a visit ending before it began) or after now (not yet known).
   */
  close(departedAt?: number): Promise<VisitState> {
    return this.serialised(async () => {
      const open = this.openVisit();
      if (!open) throw new VisitRefusedError(t('errors:noVisitOpen'));
      const departure = departedAt ?? this.now();
      if (departure < open.state.arrivedAt)
        throw new VisitRefusedError(
          t('report:departureBeforeArrival', { arrived: format.dateTime(open.state.arrivedAt) }),
        );
      if (departure > this.now()) throw new VisitRefusedError(t('report:departureInFuture'));
      await this.write(open, { kind: 'visit-closed', departedAt: departure });
      return structuredClone(open.state);
    });
  }

  /** The open visit, opening an implicit one when none is (an export is an action of the visit too). */
  ensureOpen(): Promise<VisitState> {
    return this.serialised(async () => structuredClone((await this.openOrImplicit()).state));
  }

  /**
   * The journal of a visit as it is on disk between two appends: its bytes (whole entries only), the entries and
   * the head. What an export bundles and prints, so the two agree.
   */
  snapshot(visitId: string): Promise<{ bytes: Buffer; lines: JournalLine[]; head: string }> {
    return this.serialised(async () => {
      const visit = this.require(visitId);
      const bytes = await readBounded(visit.journal.path);
      const reading = readJournalBytes(bytes);
      return {
        bytes: bytes.subarray(0, reading.goodLength),
        lines: reading.lines,
        head: reading.lines.at(-1)?.hash ?? GENESIS_HASH,
      };
    });
  }

  /** Saves the visit's fields as typed; with no visit open, opens an implicit one holding them. */
  update(fields: VisitFields): Promise<VisitState> {
    return this.serialised(async () => {
      const visit = await this.openOrImplicit();
      await this.write(visit, { kind: 'fields-edited', fields });
      return structuredClone(visit.state);
    });
  }

  /** VisitRecorder: appends to the open visit (opening an implicit one when none is); resolves once on disk. */
  async append(entry: VisitEntry): Promise<JournalLine> {
    const parsed = VisitEntrySchema.safeParse(entry);
    if (!parsed.success)
      throw new VisitRefusedError(
        t('errors:entryNotValid', {
          kind: String((entry as { kind?: unknown }).kind),
          issues: parsed.error.issues
            .map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`)
            .join('; '),
        }),
      );
    return this.serialised(async () => this.write(await this.openOrImplicit(), parsed.data));
  }

  /**
   * Keeps a photo with the open visit (opening an implicit one when none is): the file is written (0600) and hashed,
   * then its `photo-attached` entry appended; when the entry cannot be written the file is removed again. Needs no
   * server and no sign-in.
   */
  attachPhoto(photo: {
    bytes: Uint8Array;
    caption: string;
    gateway?: GatewayIdentity;
  }): Promise<VisitPhotoFile> {
    return this.serialised(async () => {
      const mimeType = sniffImageType(photo.bytes);
      if (!mimeType) throw new PhotoRejectedError(t('errors:photoType'));
      if (photo.bytes.length > MAX_PHOTO_BYTES)
        throw new PhotoRejectedError(
          t('errors:photoTooLarge', {
            size: (photo.bytes.length / 1024 / 1024).toFixed(1),
            most: MAX_PHOTO_BYTES / 1024 / 1024,
          }),
        );
      const caption = photo.caption.trim();
      if (caption.length > MAX_CAPTION_LENGTH)
        throw new PhotoRejectedError(
          t('errors:captionTooLong', { length: caption.length, most: MAX_CAPTION_LENGTH }),
        );
      const visit = await this.openOrImplicit();
      if (visit.state.photos.length >= MAX_PHOTOS_PER_VISIT)
        throw new PhotoRejectedError(t('errors:tooManyPhotos', { most: MAX_PHOTOS_PER_VISIT }));
      const photoId = randomUUID();
      const fileName = `${photoId}.${PHOTO_EXTENSIONS[mimeType]}`;
      const path = join(visit.folder, 'photos', fileName);
      await writeFileAtomic(path, photo.bytes);
      const file: VisitPhotoFile = {
        photoId,
        fileName,
        sha256: sha256Hex(photo.bytes),
        bytes: photo.bytes.length,
        mimeType,
        caption,
      };
      try {
        await this.write(visit, {
          kind: 'photo-attached',
          photo: file,
          ...(photo.gateway ? { gateway: photo.gateway } : {}),
        });
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
      return file;
    });
  }

  /** Records that a photo is no longer part of the open visit; its file stays until the visit is deleted. */
  removePhoto(photoId: string): Promise<VisitState> {
    return this.serialised(async () => {
      const open = this.openVisit();
      if (!open || !open.state.photos.some((photo) => photo.photoId === photoId))
        throw new VisitRefusedError(t('errors:photoNotInVisit'));
      await this.write(open, { kind: 'photo-removed', photoId });
      return structuredClone(open.state);
    });
  }

  /** A photo's bytes and type, or null when the visit holds no such photo. */
  async readPhoto(
    visitId: string,
    photoId: string,
  ): Promise<{ mimeType: VisitPhotoFile['mimeType']; bytes: Buffer } | null> {
    const visit = this.visits.get(visitId);
    const photo = visit?.state.photos.find((item) => item.photoId === photoId);
    if (!visit || !photo) return null;
    return {
      mimeType: photo.mimeType,
      bytes: await readBounded(join(visit.folder, 'photos', photo.fileName)),
    };
  }

  /** Closes every journal file (appends under way finish first). */
  async shutdown(): Promise<void> {
    await this.queue.catch(() => undefined);
    for (const visit of this.visits.values()) await visit.journal.close();
  }

  private require(visitId: string): LoadedVisit {
    const visit = this.visits.get(visitId);
    if (!visit) throw new VisitRefusedError(t('errors:noSuchVisit'));
    return visit;
  }

  private openVisit(): LoadedVisit | undefined {
    let newest: LoadedVisit | undefined;
    for (const visit of this.visits.values())
      if (visit.state.isOpen && visit.state.readOnlyReason === undefined)
        if (!newest || visit.state.arrivedAt >= newest.state.arrivedAt) newest = visit;
    return newest;
  }

  private async openOrImplicit(): Promise<LoadedVisit> {
    return this.openVisit() ?? (await this.create({ implicit: true }));
  }

  private async create(input: VisitOpenInput & { implicit: boolean }): Promise<LoadedVisit> {
    const id = randomUUID();
    const folder = join(this.folder, id);
    await ensurePrivateFolder(this.folder);
    await ensurePrivateFolder(folder);
    const path = join(folder, JOURNAL_FILE_NAME);
    // The journal exists (0600) before its first line, so a crash leaves an empty journal, not a visit half made.
    await (await openFile(path, 'a', PRIVATE_FILE_MODE)).close();
    await syncFolder(folder);
    await syncFolder(this.folder);
    const visit: LoadedVisit = {
      state: emptyState(id),
      lines: [],
      journal: new JournalFile(path, id, { lines: [], length: 0 }),
      folder,
    };
    const entry: VisitEntry = {
      kind: 'visit-opened',
      implicit: input.implicit,
      arrivedAt: input.arrivedAt ?? this.now(),
      ...(input.site !== undefined ? { site: input.site } : {}),
      ...(input.customer !== undefined ? { customer: input.customer } : {}),
      ...(input.technician !== undefined ? { technician: input.technician } : {}),
      ...(input.profileId !== undefined ? { profileId: input.profileId } : {}),
      ...(input.user !== undefined ? { user: input.user } : {}),
    };
    try {
      await this.write(visit, entry, false);
    } catch (error) {
      await visit.journal.close();
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    this.visits.set(id, visit);
    this.notify();
    return visit;
  }

  private async write(visit: LoadedVisit, entry: VisitEntry, notify = true): Promise<JournalLine> {
    const line = await visit.journal.append(entry, this.now());
    visit.lines.push(line);
    fold(visit.state, line);
    if (notify) this.notify();
    return line;
  }

  private notify(): void {
    const current = this.current();
    for (const listener of this.listeners) listener(current);
  }

  private serialised<Value>(action: () => Promise<Value>): Promise<Value> {
    const run = this.queue.then(action);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
