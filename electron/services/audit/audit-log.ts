import { join } from 'node:path';
import { appendPrivateFile, ensurePrivateFolder, readPrivateFile } from '../files/private-files';
import { z } from 'zod';
import { redactSecrets, redactText } from './redaction';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/** What an audit entry records: one gateway command, a wizard step, a fleet job, or a terminal session. */
export const AUDIT_KINDS = ['command', 'wizard', 'fleet', 'terminal'] as const;
/**
 * How the recorded action ended; `unknown`: a change went out and neither its answer nor a read-back came.
 * `sent`: written (and flushed to disk) before a change leaves the laptop; its outcome follows under the same
 * `sendId`. Reading the log never returns a `sent` line as such (see AuditLog.read).
 */
export const AUDIT_OUTCOMES = ['ok', 'failed', 'cancelled', 'unknown', 'sent'] as const;

/** The reason a `sent` entry without an outcome is read as `unknown`: Field Kit stopped before the answer. */
export const SENT_WITHOUT_OUTCOME =
  'sent; Field Kit stopped before the answer was recorded — outcome unknown: re-read the gateway';

/** One line of the audit log. `at` is milliseconds since the epoch; `request` is always redacted. */
export const AuditEntrySchema = z.object({
  at: z.int().nonnegative(),
  profileId: z.string().min(1),
  user: z.string(),
  gatewayId: z.string().optional(),
  kind: z.enum(AUDIT_KINDS),
  name: z.string().min(1),
  risk: z.enum(['read', 'change', 'disruptive']).optional(),
  request: z.unknown().optional(),
  response: z.unknown().optional(),
  outcome: z.enum(AUDIT_OUTCOMES),
  durationMs: z.number().nonnegative(),
  error: z.string().optional(),
  /** Groups the entries of one wizard run or fleet job. */
  runId: z.string().optional(),
  /**
   * True for a read the app made by itself to follow a task of the same run (install progress, the backups list
   * after creating one): not a command the technician gave. The site report tells it through that task.
   */
  automatic: z.boolean().optional(),
  /** For changes: the values before and after (redacted like the request). */
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  /** Ties a `sent` entry to the entry of its outcome. */
  sendId: z.string().optional(),
});
/** One line of the audit log. */
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
/** What a caller hands to `append`: `profileId` defaults to the log's own, `at` to now. */
export type AuditEntryInput = Omit<AuditEntry, 'at' | 'profileId'> & { at?: number; profileId?: string };

/** A filter over the log for reports: entries at or after `since`, of one gateway, of one run, of one user. */
export interface AuditQuery {
  profileId: string;
  /** Only this user's entries (several accounts may work on one profile's server); left out: everyone's. */
  user?: string;
  since?: number;
  until?: number;
  gatewayId?: string;
  runId?: string;
}

/** Where each profile's log lives and how the log reads time. */
export interface AuditLogOptions {
  /** The app data folder: logs go to `<dataDir>/audit/<profileId>.jsonl`. */
  dataDir: string;
  clock?: Pick<Clock, 'now'>;
}

/** Something that records audit entries (the engines take this, so tests can pass a memory sink). */
export interface AuditSink {
  append(entry: AuditEntryInput & { profileId: string }): Promise<AuditEntry>;
}

const PROFILE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * An append-only audit log, one JSON line per entry and one file per profile. Every request, response, before
 * and after value is redacted by key, and the error text by pattern, before it is written: no secret reaches
 * the disk. Appends are serialised per file so lines never interleave; a line that does not parse on read
 * (a torn last line after a crash) is skipped, never fatal.
 */
export class AuditLog implements AuditSink {
  private readonly now: () => number;
  private readonly folder: string;
  private readonly queues = new Map<string, Promise<unknown>>();
  /** `sendId`s of changes this process sent and whose outcome is not written yet: in flight, not unknown. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: AuditLogOptions) {
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
    this.folder = join(options.dataDir, 'audit');
  }

  /** The file a profile's entries go to. Refuses a profile id that could leave the audit folder. */
  pathOf(profileId: string): string {
    if (!PROFILE_ID_PATTERN.test(profileId) || profileId.startsWith('.')) {
      throw new Error(`Profile id ${JSON.stringify(profileId)} cannot name an audit file`);
    }
    return join(this.folder, `${profileId}.jsonl`);
  }

  /**
   * Appends one entry (redacted) and resolves with what was written. A `sent` entry resolves only once it is on
   * the disk (fsync): the change it announces may leave the laptop then, and survives a crash as `unknown`.
   */
  append(input: AuditEntryInput & { profileId: string }): Promise<AuditEntry> {
    let entry: AuditEntry;
    let path: string;
    try {
      entry = sanitizeEntry({ ...input, at: input.at ?? this.now() });
      path = this.pathOf(entry.profileId);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const previous = this.queues.get(path) ?? Promise.resolve();
    const written = previous
      .catch(() => undefined)
      .then(async () => {
        await ensurePrivateFolder(this.folder);
        const line = `${JSON.stringify(entry)}\n`;
        // A change's "sent" entry reaches the disk before the change leaves the laptop.
        await appendPrivateFile(path, line, { durable: entry.outcome === 'sent' });
        if (entry.sendId !== undefined) {
          if (entry.outcome === 'sent') this.inFlight.add(entry.sendId);
          else this.inFlight.delete(entry.sendId);
        }
        return entry;
      });
    this.queues.set(path, written);
    // The caller handles `written`'s rejection; this branch only tidies the queue and must not report it again.
    void written
      .finally(() => {
        if (this.queues.get(path) === written) this.queues.delete(path);
      })
      .catch(() => undefined);
    return written;
  }

  /**
   * Entries of a profile in the order written, filtered; an absent log reads as empty. A `sent` entry is read
   * through its outcome: left out once its outcome is written (or while this process still waits for it), and
   * read as `unknown` (SENT_WITHOUT_OUTCOME) when none came — the app stopped between sending and the answer.
   */
  async read(query: AuditQuery): Promise<AuditEntry[]> {
    const path = this.pathOf(query.profileId);
    await this.queues.get(path)?.catch(() => undefined);
    let text: string;
    try {
      text = await readPrivateFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const written: AuditEntry[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      const result = AuditEntrySchema.safeParse(parsed);
      if (result.success) written.push(result.data);
    }
    const entries: AuditEntry[] = [];
    for (const entry of settleSent(written, this.inFlight)) {
      if (query.since !== undefined && entry.at < query.since) continue;
      if (query.until !== undefined && entry.at > query.until) continue;
      if (query.gatewayId !== undefined && entry.gatewayId !== query.gatewayId) continue;
      if (query.runId !== undefined && entry.runId !== query.runId) continue;
      if (query.user !== undefined && entry.user !== query.user) continue;
      entries.push(entry);
    }
    return entries;
  }
}

/** Keeps entries in memory (tests, and the session-only mode); redacts exactly like AuditLog. */
export class MemoryAuditSink implements AuditSink {
  readonly entries: AuditEntry[] = [];
  private readonly now: () => number;

  constructor(clock: Pick<Clock, 'now'> = SYSTEM_CLOCK) {
    this.now = () => clock.now();
  }

  /** Records one entry, redacted; an outcome replaces the `sent` entry of the same `sendId`. */
  async append(input: AuditEntryInput & { profileId: string }): Promise<AuditEntry> {
    const entry = sanitizeEntry({ ...input, at: input.at ?? this.now() });
    if (entry.outcome !== 'sent' && entry.sendId !== undefined) {
      const sent = this.entries.findIndex(
        (written) => written.outcome === 'sent' && written.sendId === entry.sendId,
      );
      if (sent !== -1) this.entries.splice(sent, 1);
    }
    this.entries.push(entry);
    return entry;
  }
}

/**
 * The entries as a reader should see them: a `sent` entry with an outcome is left out (the outcome says it
 * all), one still `inFlight` too, and one with neither becomes `unknown` (SENT_WITHOUT_OUTCOME).
 */
export function settleSent(
  entries: readonly AuditEntry[],
  inFlight: ReadonlySet<string> = new Set(),
): AuditEntry[] {
  const settled = new Set<string>();
  for (const entry of entries)
    if (entry.outcome !== 'sent' && entry.sendId !== undefined) settled.add(entry.sendId);
  const result: AuditEntry[] = [];
  for (const entry of entries) {
    if (entry.outcome !== 'sent') result.push(entry);
    else if (entry.sendId === undefined || (!settled.has(entry.sendId) && !inFlight.has(entry.sendId)))
      result.push({ ...entry, outcome: 'unknown', error: SENT_WITHOUT_OUTCOME });
  }
  return result;
}

/** Appends a line and flushes it to the disk before resolving. */
/** The entry as it may be written: secrets removed from every free-form field. */
export function sanitizeEntry(entry: AuditEntry): AuditEntry {
  const clean: AuditEntry = { ...entry };
  for (const field of ['request', 'response', 'before', 'after'] as const) {
    if (clean[field] !== undefined) clean[field] = redactSecrets(clean[field]);
  }
  if (clean.error !== undefined) clean.error = redactText(clean.error);
  return AuditEntrySchema.parse(clean);
}
