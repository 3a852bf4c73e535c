import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_CACHED_ANSWER_BYTES,
  MAX_CACHED_ANSWERS,
  OfflineCache,
} from '../../../../electron/services/offline-cache';
import { SYSTEM_CLOCK } from '../../../../electron/shared/clock';
import { ManualClock } from '../../../helpers/manual-clock';

let folder: string;
let now: number;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-cache-'));
  now = 1_700_000_000_000;
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const LIST = {
  endpoint: 'listCustomerGateways',
  params: { customerId: 'c-1' },
  query: { page: 0, limit: 100, sortDirection: 'ASC', sortField: 'NAME' },
};

/** Real timers, and the time the test sets. */
const clock = { ...SYSTEM_CLOCK, now: () => now };

function buildCache() {
  return new OfflineCache({ dataDir: folder, clock, flushDelayMs: 0 });
}

describe('offline cache', () => {
  it('answers the last value of a read with the time it was received', async () => {
    await buildCache().put('demo', LIST, { data: [1] });
    now += 5000;
    await buildCache().put('demo', LIST, { data: [2] });
    expect(await buildCache().get('demo', LIST)).toEqual({ value: { data: [2] }, asOf: now });
  });

  it('finds a read whatever the order of its query keys', async () => {
    const cache = buildCache();
    await cache.put('demo', LIST, 'answer');
    const reordered = {
      endpoint: LIST.endpoint,
      params: LIST.params,
      query: { sortField: 'NAME', sortDirection: 'ASC', limit: 100, page: 0 },
    };
    expect((await cache.get('demo', reordered))?.value).toBe('answer');
  });

  it('keeps each profile apart', async () => {
    const cache = buildCache();
    await cache.put('demo', LIST, 'demo answer');
    expect(await cache.get('other', LIST)).toBeNull();
  });

  it('never writes answers of endpoints that are not list or gateway-page reads', async () => {
    const cache = buildCache();
    await cache.put('demo', { endpoint: 'listIntegrations' }, { secret: 'x' });
    expect(await cache.get('demo', { endpoint: 'listIntegrations' })).toBeNull();
    await expect(readFile(cache.pathOf('demo'), 'utf8')).rejects.toThrow();
  });

  it('does not write down an answer over the size limit, and keeps the one it had for that read', async () => {
    const cache = buildCache();
    await cache.put('demo', LIST, { data: ['small'] });
    const kept = await cache.get('demo', LIST);
    // Two-byte characters: under the limit in string length, over it in UTF-8 bytes.
    const large = { data: ['é'.repeat(MAX_CACHED_ANSWER_BYTES / 2 + 1)] };
    now += 5000;
    await cache.put('demo', LIST, large);
    await cache.put(
      'demo',
      { ...LIST, query: { ...LIST.query, page: 1 } },
      { data: ['x'.repeat(MAX_CACHED_ANSWER_BYTES)] },
    );

    expect(await buildCache().get('demo', LIST)).toEqual(kept);
    expect(await buildCache().get('demo', { ...LIST, query: { ...LIST.query, page: 1 } })).toBeNull();
    expect((await readFile(cache.pathOf('demo'), 'utf8')).length).toBeLessThan(1000);
  });

  it('reads a corrupt file as empty and replaces it on the next write', async () => {
    const cache = buildCache();
    await mkdir(join(folder, 'offline-cache'), { recursive: true });
    await writeFile(cache.pathOf('demo'), '{ torn');
    expect(await cache.get('demo', LIST)).toBeNull();
    await cache.put('demo', LIST, 'fresh');
    expect((await buildCache().get('demo', LIST))?.value).toBe('fresh');
  });

  it('forgets the oldest answers beyond the limit', async () => {
    const cache = buildCache();
    for (let page = 0; page <= MAX_CACHED_ANSWERS; page++) {
      await cache.put('demo', { ...LIST, query: { ...LIST.query, page } }, page);
    }
    expect(await cache.get('demo', { ...LIST, query: { ...LIST.query, page: 0 } })).toBeNull();
    expect((await cache.get('demo', { ...LIST, query: { ...LIST.query, page: 1 } }))?.value).toBe(1);
  });

  it('writes answers that arrive together in one file that holds all of them', async () => {
    const cache = new OfflineCache({ dataDir: folder, clock, flushDelayMs: 20 });
    const pages = [0, 1, 2].map((page) => ({ ...LIST, query: { ...LIST.query, page } }));
    await Promise.all(pages.map((parts, page) => cache.put('demo', parts, page)));
    const reread = buildCache();
    for (const [page, parts] of pages.entries()) expect((await reread.get('demo', parts))?.value).toBe(page);
  });

  it('refuses a profile id that would leave the cache folder', () => {
    expect(() => buildCache().pathOf('../escape')).toThrow(/cannot name a cache file/);
  });

  it('writes what is pending on close and takes no answer after it', async () => {
    // A clock nobody moves: the pending write cannot come from its delay running out.
    const cache = new OfflineCache({ dataDir: folder, clock: new ManualClock(now), flushDelayMs: 50 });
    void cache.put('demo', LIST, 'before close');
    await cache.close();
    expect((await buildCache().get('demo', LIST))?.value).toBe('before close');
    await cache.put('demo', LIST, 'after close');
    expect((await buildCache().get('demo', LIST))?.value).toBe('before close');
  });
});
