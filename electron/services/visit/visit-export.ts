import { basename, join } from 'node:path';
import type { GatewayIdentity, JournalLine, VisitEntry } from '../../shared/visit/journal-entry';
import type { GatewayHint } from './gateway-identity';
import { readBounded, sha256Hex } from './journal-file';
import type { Visits } from './visits';
import type { VisitState } from './visit-state';

/** A session log an export attaches: its file, and what names it (the session, the gateway as typed). */
export interface ExportedLog {
  path: string;
  sessionId?: string;
  typed?: string;
}

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
 * The gateway a log's entry names: its session's (resolved when the session opened), else what named the log,
 * resolved now.
 */
async function gatewayOfLog(
  log: ExportedLog,
  sessionGateways: ReadonlyMap<string, GatewayIdentity>,
  resolve: ((hint: GatewayHint) => Promise<GatewayIdentity | undefined>) | undefined,
): Promise<{ gateway?: GatewayIdentity }> {
  const ofSession = log.sessionId ? sessionGateways.get(log.sessionId) : undefined;
  if (ofSession) return { gateway: ofSession };
  if (!log.typed) return {};
  return { gateway: (await resolve?.({ typed: log.typed })) ?? { typed: log.typed } };
}

/**
 * Gets a visit ready to export: its logs are hashed and attached (a `log-attached` entry each, unless the journal
 * already holds that log with that hash; the bytes hashed are the ones bundled), then the journal is read between
 * two appends, so the head printed on the report and the journal bundled are the same. Opens an implicit visit
 * when none is open. A full disk refuses the export (JournalWriteError) rather than bundling unrecorded logs.
 */
export async function gatherVisitEvidence(
  visits: Pick<Visits, 'ensureOpen' | 'entries' | 'append' | 'snapshot' | 'pathsOf'>,
  logs: readonly ExportedLog[],
  resolve?: (hint: GatewayHint) => Promise<GatewayIdentity | undefined>,
): Promise<VisitEvidence> {
  const visit = await visits.ensureOpen();
  const recorded = new Map<string, string>();
  // A log's gateway is the one its session's opening entry named, resolved when the session opened.
  const sessionGateways = new Map<string, GatewayIdentity>();
  for (const line of visits.entries(visit.id)) {
    const entry = line.entry as VisitEntry;
    if (entry.kind === 'log-attached') recorded.set(entry.logFile, entry.sha256);
    if (entry.kind === 'terminal-opened' && entry.gateway)
      sessionGateways.set(entry.sessionId, entry.gateway);
  }
  const bundled: VisitEvidence['logs'] = [];
  for (const log of logs) {
    const bytes = await readBounded(log.path);
    let fileName = basename(log.path);
    if (bundled.some((item) => item.fileName === fileName)) fileName = `${bundled.length + 1}-${fileName}`;
    const sha256 = sha256Hex(bytes);
    if (recorded.get(fileName) !== sha256)
      await visits.append({
        kind: 'log-attached',
        logFile: fileName,
        sha256,
        bytes: bytes.length,
        ...(log.sessionId ? { sessionId: log.sessionId } : {}),
        ...(await gatewayOfLog(log, sessionGateways, resolve)),
      });
    bundled.push({ fileName, bytes });
  }
  const snapshot = await visits.snapshot(visit.id);
  const { folder } = visits.pathsOf(visit.id);
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
 * A closed visit's evidence as it is kept: its journal between two appends, its photos, and no logs (a closed
 * visit takes no more entries, so no log can be attached to it now; the logs of its sessions stay on this laptop).
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
    logs: [],
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
