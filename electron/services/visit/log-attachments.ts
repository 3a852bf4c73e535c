import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-file';
import { ensurePrivateFolder } from '../files/private-files';
import type { GatewayIdentity, JournalLine, VisitEntry } from '../../shared/visit/journal-entry';
import type { GatewayHint } from './gateway-identity';
import { readBounded, sha256Hex } from './journal-file';
import type { Visits } from './visits';

/**
 * The folder of a visit's attached logs, in its own folder: `<visit folder>/logs/<file>`, each the bytes a
 * `log-attached` entry hashed, so a closed visit's bundle holds the logs its journal names even once the terminal's
 * own log has grown or gone.
 */
const LOGS_FOLDER = 'logs';

/** A session log to attach: its file, and what names it (the session, the gateway as typed). */
export interface ExportedLog {
  path: string;
  sessionId?: string;
  typed?: string;
}

/** What attaching needs of the visits: the open visit, its entries and folder, and appending to it. */
export type LogVisits = Pick<Visits, 'ensureOpen' | 'entries' | 'append' | 'pathsOf'>;

/** A log a journal attached: the latest SHA-256 recorded under its file name. */
interface AttachedLog {
  sha256: string;
  sessionId?: string;
}

/** The logs a journal attached, by file name (as kept in a bundle's `logs/`), each with its latest SHA-256. */
function attachedLogsOf(lines: readonly JournalLine[]): Map<string, AttachedLog> {
  const attached = new Map<string, AttachedLog>();
  for (const line of lines) {
    const entry = line.entry as VisitEntry;
    if (entry.kind === 'log-attached')
      attached.set(entry.logFile, {
        sha256: entry.sha256,
        ...(entry.sessionId ? { sessionId: entry.sessionId } : {}),
      });
  }
  return attached;
}

/**
 * The name a log is kept under: its file name, or `2-<name>`, `3-<name>`… when the journal attached another
 * session's log (or, without a session, another file) under that name.
 */
function nameFor(log: ExportedLog, attached: ReadonlyMap<string, AttachedLog>, taken: ReadonlySet<string>) {
  const base = basename(log.path.replace(/\\/g, '/'));
  const isFree = (name: string) => {
    const kept = attached.get(name);
    if (taken.has(name)) return false;
    return !kept || (log.sessionId !== undefined && kept.sessionId === log.sessionId);
  };
  if (isFree(base)) return base;
  let suffix = 2;
  while (!isFree(`${suffix}-${base}`)) suffix += 1;
  return `${suffix}-${base}`;
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

/** Attachments under way, per store: one at a time, so two never both find a log new and attach it twice. */
const queues = new WeakMap<object, Promise<unknown>>();

/**
 * Attaches session logs to the open visit (opening an implicit one when none is) as they are now: each log is
 * read, copied into the visit's folder (`logs/<name>`) and recorded in a `log-attached` entry with its SHA-256 and
 * size — unless the journal already holds that log with those very bytes, so a log is never attached twice with
 * one hash. Called when a session closes (terminal-journal.ts), for the sessions still open when the visit closes,
 * and at each export of the open visit. A log that cannot be read rejects (the caller says so).
 */
export function attachLogs(
  visits: LogVisits,
  logs: readonly ExportedLog[],
  resolve?: (hint: GatewayHint) => Promise<GatewayIdentity | undefined>,
): Promise<void> {
  return inLogQueue(visits, () => attachNow(visits, logs, resolve));
}

/**
 * Runs `task` once the attachments to `visits` under way are done, and before any asked for later: an export reads
 * the journal and the logs' copies in one turn, so what it bundles is what the journal it bundles names.
 */
export function inLogQueue<Value>(visits: object, task: () => Promise<Value>): Promise<Value> {
  const previous = queues.get(visits) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(task);
  queues.set(visits, next);
  return next;
}

async function attachNow(
  visits: LogVisits,
  logs: readonly ExportedLog[],
  resolve?: (hint: GatewayHint) => Promise<GatewayIdentity | undefined>,
): Promise<void> {
  if (logs.length === 0) return;
  const visit = await visits.ensureOpen();
  const lines = visits.entries(visit.id);
  const attached = attachedLogsOf(lines);
  // A log's gateway is the one its session's opening entry named, resolved when the session opened.
  const sessionGateways = new Map<string, GatewayIdentity>();
  for (const line of lines) {
    const entry = line.entry as VisitEntry;
    if (entry.kind === 'terminal-opened' && entry.gateway)
      sessionGateways.set(entry.sessionId, entry.gateway);
  }
  const folder = join(visits.pathsOf(visit.id).folder, LOGS_FOLDER);
  const taken = new Set<string>();
  for (const log of logs) {
    const bytes = await readBounded(log.path);
    const fileName = nameFor(log, attached, taken);
    taken.add(fileName);
    const sha256 = sha256Hex(bytes);
    const copy = join(folder, fileName);
    const isKept = attached.get(fileName)?.sha256 === sha256;
    // The copy is written before the entry naming it, so an entry never names bytes not on the disk.
    if (!isKept || !(await exists(copy))) {
      await ensurePrivateFolder(folder);
      await writeFileAtomic(copy, bytes);
    }
    if (isKept) continue;
    await visits.append({
      kind: 'log-attached',
      logFile: fileName,
      sha256,
      bytes: bytes.length,
      ...(log.sessionId ? { sessionId: log.sessionId } : {}),
      ...(await gatewayOfLog(log, sessionGateways, resolve)),
    });
    attached.set(fileName, { sha256, ...(log.sessionId ? { sessionId: log.sessionId } : {}) });
  }
}

/**
 * The logs a journal attached, as a bundle takes them: the copy kept in the visit's folder of each file name's
 * latest attachment. A copy that is missing (a journal older than these copies) is left out; the bundle's
 * verification then names the log the journal attached and the bundle lacks.
 */
export async function attachedLogFiles(
  lines: readonly JournalLine[],
  visitFolder: string,
): Promise<Array<{ fileName: string; bytes: Uint8Array }>> {
  const files: Array<{ fileName: string; bytes: Uint8Array }> = [];
  for (const fileName of attachedLogsOf(lines).keys()) {
    const bytes = await readBounded(join(visitFolder, LOGS_FOLDER, fileName)).catch(() => undefined);
    if (bytes) files.push({ fileName, bytes });
  }
  return files;
}

/** Of the terminal logs main knows, those of sessions the journal recorded (terminal-opened), to attach. */
export function sessionLogsOf(
  lines: readonly JournalLine[],
  logs: ReadonlyArray<{ path: string; id: string }>,
): ExportedLog[] {
  const sessionIds = new Set(
    lines.flatMap((line) => {
      const entry = line.entry as VisitEntry;
      return entry.kind === 'terminal-opened' ? [entry.sessionId] : [];
    }),
  );
  return logs.filter((log) => sessionIds.has(log.id)).map((log) => ({ path: log.path, sessionId: log.id }));
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
