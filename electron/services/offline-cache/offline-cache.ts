import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile } from '../files/private-files';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/**
 * The reads whose last answers are kept for offline use: the gateway lists and what a gateway page shows
 * (its record, the customer names and the raised alarms). Anything else is never written down.
 */
export const CACHED_ENDPOINTS: readonly string[] = [
  'getCurrentUser',
  'getCustomer',
  'listCustomerGateways',
  'listGatewayGroupGateways',
  'listProviderGateways',
  'listEntityEnhancedEvents',
  'listRaisedEnhancedEvents',
];

/** Most answers kept per profile; the oldest go first (a long day of browsing stays a small file). */
export const MAX_CACHED_ANSWERS = 120;
/**
 * Largest answer kept, in bytes of its JSON: a gateway page of the spec is well under 1 MB, and a larger answer
 * (up to the client's 32 MB) would make every rewrite of the file slow and could fill the disk. A larger answer
 * is not written down; the entry already kept for the same read, if any, stays with its own time.
 */
export const MAX_CACHED_ANSWER_BYTES = 4 * 1024 * 1024;
/**
 * How long answers gather in memory before the file is rewritten: scrolling a long list reads many pages in a
 * second, and one write of the latest state replaces a write (and a disk flush) per page.
 */
export const FLUSH_DELAY_MS = 500;

/** What identifies one cached read: an endpoint with its path parameters and query. */
export interface CacheKeyParts {
  endpoint: string;
  params?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
}

/** A cached answer and when it was received (milliseconds since the epoch). */
export interface CachedAnswer {
  value: unknown;
  asOf: number;
}

const CacheFileSchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), z.object({ value: z.unknown(), asOf: z.number() })),
});
type CacheFile = z.infer<typeof CacheFileSchema>;

const PROFILE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** A stable text for a value: object keys sorted at every level, so `{a,b}` and `{b,a}` are the same key. */
export function canonicalKey(parts: CacheKeyParts): string {
  return JSON.stringify([parts.endpoint, sortDeep(parts.params ?? {}), sortDeep(parts.query ?? {})]);
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([key, item]) => [key, sortDeep(item)]),
  );
}

/**
 * The last successful answers of the cached reads, per profile, on disk at `<dataDir>/offline-cache/
 * <profileId>.json`. Writes are atomic and serialised per profile, so a crash leaves the old file or the new one;
 * a file that does not parse, or is not a regular file (never followed or waited on), reads as empty (it is only a
 * cache). Only endpoints of CACHED_ENDPOINTS are kept.
 */
export class OfflineCache {
  private readonly folder: string;
  private readonly now: () => number;
  private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  private readonly loaded = new Map<string, Promise<CacheFile>>();
  /**
   * Per file: the flush that has not started yet (later answers join it; `writeNow` starts it before its delay)
   * and the last write begun.
   */
  private readonly scheduled = new Map<string, { flush: Promise<void>; writeNow(): void }>();
  private readonly lastWrite = new Map<string, Promise<void>>();
  private readonly flushDelayMs: number;
  private isClosed = false;

  /** `clock`: the time each answer is kept with, and the timer of the flush delay (default SYSTEM_CLOCK). */
  constructor(options: {
    dataDir: string;
    clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
    flushDelayMs?: number;
  }) {
    this.folder = join(options.dataDir, 'offline-cache');
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
    this.clock = clock;
    this.flushDelayMs = options.flushDelayMs ?? FLUSH_DELAY_MS;
  }

  /** True when answers of this endpoint are cached. */
  isCached(endpoint: string): boolean {
    return CACHED_ENDPOINTS.includes(endpoint);
  }

  /** The file of a profile's cache; refuses an id that could leave the cache folder. */
  pathOf(profileId: string): string {
    if (!PROFILE_ID_PATTERN.test(profileId) || profileId.startsWith('.')) {
      throw new Error(`Profile id ${JSON.stringify(profileId)} cannot name a cache file`);
    }
    return join(this.folder, `${profileId}.json`);
  }

  /**
   * Records an answer received now; ignores endpoints that are not cached. `get` sees it at once; the promise
   * resolves once it is on disk (writes of answers close together are coalesced into one).
   */
  async put(profileId: string, parts: CacheKeyParts, value: unknown): Promise<void> {
    if (!this.isCached(parts.endpoint) || this.isClosed) return;
    const path = this.pathOf(profileId);
    if (!fitsInCache(value)) return;
    const file = await this.load(profileId);
    const key = canonicalKey(parts);
    delete file.entries[key];
    file.entries[key] = { value, asOf: this.now() };
    const keys = Object.keys(file.entries);
    for (const stale of keys.slice(0, Math.max(0, keys.length - MAX_CACHED_ANSWERS)))
      delete file.entries[stale];
    await this.scheduleFlush(path, file);
  }

  /**
   * Writes what is pending at once (without waiting for the flush delay) and takes no more answers: after it
   * resolves nothing touches the cache folder (quitting, or a test deleting the data folder, never races a late
   * write).
   */
  async close(): Promise<void> {
    this.isClosed = true;
    // An answer whose file was still loading may schedule one more flush: wait until none is left.
    for (let round = 0; round < 10 && (this.scheduled.size > 0 || round === 0); round++) {
      for (const pending of this.scheduled.values()) pending.writeNow();
      await Promise.allSettled([
        ...[...this.scheduled.values()].map((pending) => pending.flush),
        ...this.lastWrite.values(),
        ...this.loaded.values(),
      ]);
    }
  }

  private scheduleFlush(path: string, file: CacheFile): Promise<void> {
    const pending = this.scheduled.get(path);
    if (pending) return pending.flush;
    let writeNow = () => {};
    const due = new Promise<void>((resolve) => {
      const timer = this.clock.setTimeout(resolve, this.flushDelayMs);
      writeNow = () => {
        this.clock.clearTimeout(timer);
        resolve();
      };
    });
    const flush = due.then(async () => {
      // From here on, new answers schedule the next flush; this one writes the state as it is now.
      this.scheduled.delete(path);
      const text = JSON.stringify(file);
      const previous = this.lastWrite.get(path) ?? Promise.resolve();
      const written = previous.catch(() => undefined).then(() => writeFileAtomic(path, text));
      this.lastWrite.set(path, written);
      await written;
    });
    this.scheduled.set(path, { flush, writeNow });
    return flush;
  }

  /** The last answer of a read for a profile, with its time, or null when none was kept. */
  async get(profileId: string, parts: CacheKeyParts): Promise<CachedAnswer | null> {
    if (!this.isCached(parts.endpoint)) return null;
    const file = await this.load(profileId);
    return file.entries[canonicalKey(parts)] ?? null;
  }

  private load(profileId: string): Promise<CacheFile> {
    const path = this.pathOf(profileId);
    let loading = this.loaded.get(profileId);
    if (!loading) {
      loading = readPrivateFile(path).then(
        (text) => {
          try {
            const parsed = CacheFileSchema.safeParse(JSON.parse(text));
            return parsed.success ? parsed.data : emptyFile();
          } catch {
            return emptyFile();
          }
        },
        () => emptyFile(),
      );
      this.loaded.set(profileId, loading);
    }
    return loading;
  }
}

/** True when the answer's JSON is at most MAX_CACHED_ANSWER_BYTES long. */
function fitsInCache(value: unknown): boolean {
  // UTF-8 takes one to three bytes per UTF-16 unit: most answers are decided by their length alone.
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return true;
  if (text.length > MAX_CACHED_ANSWER_BYTES) return false;
  if (text.length * 3 <= MAX_CACHED_ANSWER_BYTES) return true;
  return Buffer.byteLength(text, 'utf8') <= MAX_CACHED_ANSWER_BYTES;
}

function emptyFile(): CacheFile {
  return { version: 1, entries: {} };
}
