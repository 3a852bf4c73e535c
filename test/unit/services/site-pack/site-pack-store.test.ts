import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SitePackStore, SitePacks } from '../../../../electron/services/site-pack';
import { makeSitePack } from '../../../helpers/factories';

let dataDir: string;
const NOW = 1_700_000_900_000;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-site-pack-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function buildStore() {
  return new SitePackStore({ dataDir, clock: { now: () => NOW } });
}

async function writeRaw(text: string): Promise<string> {
  const folder = join(dataDir, 'site-packs');
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'profile-1.json');
  await writeFile(path, text);
  return path;
}

describe('SitePackStore', () => {
  it('reads back a saved pack in a fresh store, with its size', async () => {
    const pack = makeSitePack(3);
    const saved = await buildStore().save(pack);
    const read = await buildStore().get('profile-1');
    expect(read?.pack).toEqual(pack);
    expect(read?.sizeBytes).toBe(saved.sizeBytes);
    expect(read?.sizeBytes).toBe((await stat(join(dataDir, 'site-packs', 'profile-1.json'))).size);
  });

  it('writes the file 0600 in a 0700 folder', async () => {
    await buildStore().save(makeSitePack(1));
    expect((await stat(join(dataDir, 'site-packs'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dataDir, 'site-packs', 'profile-1.json'))).mode & 0o777).toBe(0o600);
  });

  it('tightens a folder that already exists with wider permissions', async () => {
    await mkdir(join(dataDir, 'site-packs'), { mode: 0o755 });
    await buildStore().save(makeSitePack(1));
    expect((await stat(join(dataDir, 'site-packs'))).mode & 0o777).toBe(0o700);
  });

  it('replaces the pack atomically: no temporary file is left and the old pack reads until the new one is in', async () => {
    const store = buildStore();
    await store.save(makeSitePack(2));
    await store.save(makeSitePack(5));
    expect(await readdir(join(dataDir, 'site-packs'))).toEqual(['profile-1.json']);
    const text = await readFile(join(dataDir, 'site-packs', 'profile-1.json'), 'utf8');
    expect((JSON.parse(text) as { gateways: unknown[] }).gateways).toHaveLength(5);
  });

  it('reads no pack when none was prepared', async () => {
    expect(await buildStore().read('profile-1')).toEqual({ kind: 'none' });
  });

  it('sets a corrupt file aside with a notice naming it, and reads no pack afterwards', async () => {
    await writeRaw('{"version": 1, "gateways": [tr');
    const store = buildStore();
    const outcome = await store.read('profile-1');
    expect(outcome.kind).toBe('set-aside');
    if (outcome.kind !== 'set-aside') return;
    expect(outcome.notice.code).toBe('SITE_PACK_SET_ASIDE');
    expect(outcome.notice.message).toContain(`profile-1.json.corrupt-${NOW}`);
    expect(outcome.notice.message).toContain('damaged');
    expect(await readdir(join(dataDir, 'site-packs'))).toEqual([`profile-1.json.corrupt-${NOW}`]);
    expect(await store.read('profile-1')).toEqual({ kind: 'none' });
  });

  it('sets aside a pack an older version wrote, saying so, and keeps its content', async () => {
    const old = JSON.stringify({ version: 0, gateways: [] });
    await writeRaw(old);
    const outcome = await buildStore().read('profile-1');
    expect(outcome.kind === 'set-aside' && outcome.notice.message).toMatch(/older version of Field Kit/);
    expect(await readFile(join(dataDir, 'site-packs', `profile-1.json.corrupt-${NOW}`), 'utf8')).toBe(old);
  });

  it('sets aside a file of the right version whose fields do not match the schema', async () => {
    await writeRaw(JSON.stringify({ ...makeSitePack(1), gateways: [{ name: 'no id' }] }));
    expect((await buildStore().read('profile-1')).kind).toBe('set-aside');
  });

  it('leaves every other profile’s pack alone when one is set aside', async () => {
    await buildStore().save(makeSitePack(2, { profileId: 'profile-2' }));
    await writeRaw('not json');
    const store = buildStore();
    await store.read('profile-1');
    expect((await store.get('profile-2'))?.pack.gateways).toHaveLength(2);
  });

  it('refuses a profile id that would leave the folder', () => {
    expect(() => buildStore().pathOf('../profiles')).toThrow(/cannot name/);
  });

  it('keeps no secret: the file holds which gateways have a root password, never a password', async () => {
    await buildStore().save(makeSitePack(2, { rootPasswordStored: ['gw-1'] }));
    const text = await readFile(join(dataDir, 'site-packs', 'profile-1.json'), 'utf8');
    expect(text).toContain('"rootPasswordStored":["gw-1"]');
    expect(text).not.toMatch(/password"\s*:\s*"/i);
  });
});

describe('SitePacks answers', () => {
  it('tells a set-aside pack to its notice listener once', async () => {
    await writeRaw('garbage');
    const notices: string[] = [];
    const packs = new SitePacks({
      dataDir,
      clock: { now: () => NOW },
      onNotice: (notice) => notices.push(notice.code),
    });
    expect(await packs.get('profile-1')).toBeNull();
    expect(await packs.get('profile-1')).toBeNull();
    expect(notices).toEqual(['SITE_PACK_SET_ASIDE']);
  });

  it('answers a page of its scope’s list, searched by a MAC typed with colons, as of the pack’s time', async () => {
    const packs = new SitePacks({ dataDir });
    const pack = makeSitePack(50);
    await packs.save(pack);
    const mac = pack.gateways[42]!.gatewayMac.toLowerCase();
    const answer = await packs.answer('profile-1', {
      endpoint: 'listCustomerGateways',
      params: { customerId: 'customer-1' },
      query: { page: 0, limit: 100, sortField: 'NAME', sortDirection: 'ASC', textSearch: mac },
    });
    expect(answer?.asOf).toBe(pack.preparedAt);
    expect((answer?.value as { data: Array<{ name: string }> }).data.map((row) => row.name)).toEqual([
      'Gateway 42',
    ]);
  });

  it('answers every page of a long list, so the count and the rows agree', async () => {
    const packs = new SitePacks({ dataDir });
    await packs.save(makeSitePack(250));
    const page = async (number: number) =>
      (
        await packs.answer('profile-1', {
          endpoint: 'listCustomerGateways',
          params: { customerId: 'customer-1' },
          query: { page: number, limit: 100, sortField: 'CREATED_TIME', sortDirection: 'ASC' },
        })
      )?.value as { data: unknown[]; totalElements: number; hasNext: boolean };
    expect((await page(0)).totalElements).toBe(250);
    expect((await page(2)).data).toHaveLength(50);
    expect((await page(2)).hasNext).toBe(false);
  });

  it('does not answer a list of a scope outside the pack', async () => {
    const packs = new SitePacks({ dataDir });
    await packs.save(makeSitePack(5));
    expect(
      await packs.answer('profile-1', {
        endpoint: 'listCustomerGateways',
        params: { customerId: 'customer-2' },
        query: { page: 0, limit: 100 },
      }),
    ).toBeNull();
  });

  it('answers a chosen gateway’s raised alarms as of when they were read', async () => {
    const packs = new SitePacks({ dataDir });
    await packs.save(makeSitePack(3));
    const answer = await packs.answer('profile-1', {
      endpoint: 'listEntityEnhancedEvents',
      params: { entityType: 'GATEWAY', entityId: 'gw-0', eventType: 'Alarms' },
      query: { startTs: 0, limit: 100 },
    });
    expect(answer).toEqual({
      value: { data: [{ eventName: 'WAN down', endTs: null }] },
      asOf: 1_700_000_200_000,
    });
  });

  it('finds a gateway by the serial number its details name', async () => {
    const packs = new SitePacks({ dataDir });
    const stored = await packs.save(makeSitePack(30));
    expect(
      packs
        .searchOf(stored.pack)
        .find('sn-7781')
        .map((gateway) => gateway.id.id),
    ).toEqual(['gw-0']);
  });

  it('opens a pack stored with a last seen time no Date holds, that time read as unknown', async () => {
    const pack = makeSitePack(2);
    const stored = { ...pack, gateways: [{ ...pack.gateways[0]!, lastSeenTime: 9e15 }, pack.gateways[1]!] };
    await writeRaw(JSON.stringify(stored));
    const read = await buildStore().get('profile-1');
    expect(read?.pack.gateways[0]).toEqual({ ...pack.gateways[0], lastSeenTime: null });
    expect(read?.pack.gateways[1]).toEqual(pack.gateways[1]);
  });
});
