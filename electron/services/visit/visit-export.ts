import { join } from 'node:path';
import type { GatewayIdentity, JournalLine, VisitEntry } from '../../shared/visit/journal-entry';
import type { GatewayHint } from './gateway-identity';
import { readBounded } from './journal-file';
import { attachedLogFiles, attachLogs, inLogQueue, type ExportedLog } from './log-attachments';
import type { Visits } from './visits';
import type { VisitState } from './visit-state';

/** What an export takes from the visit: the journal it prints and bundles, the photos and the logs' bytes. */
export interface VisitEvidence {
  visit: VisitState;
  journal: { bytes: Uint8Array; entries: number; head: string; lines: JournalLine[] };
  photos: Array<{
    path: string;
    fileName: string;
    id: string;
    caption: string;
    mimeType: 'image/jpeg' | 'image/png';
    base64: string;
    addedAt: number;
  }>;
  logs: Array<{ fileName: string; bytes: Uint8Array }>;
}

/**
 * Gets a visit ready to export: its logs are hashed and attached as they are now (attachLogs: a `log-attached`
 * entry and a copy each, unless the journal already holds that log with that hash), then the journal is read
 * between two appends, so the head printed on the report and the journal bundled are the same; the bundle takes
 * every log the journal attached (logs of sessions closed earlier too), from the visit's copies. Opens an implicit
 * visit when none is open. A full disk refuses the export (JournalWriteError) rather than bundling unrecorded logs.
 */
export async function gatherVisitEvidence(
  visits: Pick<Visits, 'ensureOpen' | 'entries' | 'append' | 'snapshot' | 'pathsOf'>,
  logs: readonly ExportedLog[],
  resolve?: (hint: GatewayHint) => Promise<GatewayIdentity | undefined>,
): Promise<VisitEvidence> {
  await attachLogs(visits, logs, resolve);
  const visit = await visits.ensureOpen();
  const { folder } = visits.pathsOf(visit.id);
  const { snapshot, bundled } = await inLogQueue(visits, async () => {
    const kept = await visits.snapshot(visit.id);
    return { snapshot: kept, bundled: await attachedLogFiles(kept.lines, folder) };
  });
  return {
    visit: asOfSnapshot(visit, snapshot.lines),
    journal: {
      bytes: snapshot.bytes,
      entries: snapshot.lines.length,
      head: snapshot.head,
      lines: snapshot.lines,
    },
    photos: await photoFilesOf(snapshot.lines, folder),
    logs: bundled,
  };
}

/**
 * A closed visit's evidence as it is kept: its journal, its photos, and the logs it attached (copies kept in its
 * folder: logs are attached when a session closes and, for sessions still open, when the visit closes). A closed
 * visit takes no more entries, so nothing is attached now.
 */
export async function gatherClosedVisitEvidence(
  visits: Pick<Visits, 'get' | 'snapshot' | 'pathsOf'>,
  visitId: string,
): Promise<VisitEvidence> {
  const snapshot = await visits.snapshot(visitId);
  const { folder } = visits.pathsOf(visitId);
  const visit = visits.get(visitId);
  if (!visit) throw new Error(`No visit ${visitId} is kept`);
  return {
    visit: asOfSnapshot(visit, snapshot.lines),
    journal: {
      bytes: snapshot.bytes,
      entries: snapshot.lines.length,
      head: snapshot.head,
      lines: snapshot.lines,
    },
    photos: await photoFilesOf(snapshot.lines, folder),
    logs: await attachedLogFiles(snapshot.lines, folder),
  };
}

/** The photos the journal holds at its end, read from the visit's folder, as a bundle takes them. */
function photoFilesOf(lines: readonly JournalLine[], folder: string): Promise<VisitEvidence['photos']> {
  return Promise.all(
    photosOf(lines).map(async ({ photo, at }) => {
      const path = join(folder, 'photos', photo.fileName);
      return {
        path,
        fileName: photo.fileName,
        id: photo.photoId,
        caption: photo.caption,
        mimeType: photo.mimeType,
        base64: (await readBounded(path)).toString('base64'),
        addedAt: at,
      };
    }),
  );
}

/** The photos the journal holds at its end (attached and not removed), with when each was attached. */
function photosOf(lines: readonly JournalLine[]) {
  const photos = new Map<
    string,
    { photo: Extract<VisitEntry, { kind: 'photo-attached' }>['photo']; at: number }
  >();
  for (const line of lines) {
    const entry = line.entry as VisitEntry;
    if (entry.kind === 'photo-attached') photos.set(entry.photo.photoId, { photo: entry.photo, at: line.at });
    if (entry.kind === 'photo-removed') photos.delete(entry.photoId);
  }
  return [...photos.values()];
}

/** The visit's state as of the snapshot (its head and entry count as bundled). */
function asOfSnapshot(visit: VisitState, lines: readonly JournalLine[]): VisitState {
  return { ...visit, entryCount: lines.length, headHash: lines.at(-1)?.hash ?? visit.headHash };
}
