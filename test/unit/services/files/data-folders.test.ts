import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../electron/services/audit/audit-log';
import { OfflineCache } from '../../../../electron/services/offline-cache/offline-cache';
import { exportSiteReport, type SiteVisit } from '../../../../electron/services/reports';
import { Visits } from '../../../../electron/services/visit';
import { KnownHosts } from '../../../../electron/services/ssh/known-hosts';

const STARTED_AT = Date.UTC(2026, 10, 25, 14, 2);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const VISIT: SiteVisit = {
  title: 'Visit to ACME Rooftops',
  technician: 'tech@example.com',
  profileId: 'demo',
  gateways: [{ id: 'gw-1', name: 'Kona Macro 7' }],
  startedAt: STARTED_AT,
  endedAt: STARTED_AT + 60_000,
  entries: [],
};

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-data-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Every folder under (and with) `root` with its mode, then every file with its mode. */
async function modesUnder(
  root: string,
): Promise<{ folders: Record<string, number>; files: Record<string, number> }> {
  const folders: Record<string, number> = { '.': (await stat(root)).mode & 0o777 };
  const files: Record<string, number> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const name = path.slice(root.length + 1);
    if (entry.isDirectory()) folders[name] = (await stat(path)).mode & 0o777;
    else files[name] = (await stat(path)).mode & 0o777;
  }
  return { folders, files };
}

/** Writes what a visit leaves behind: the offline cache, a report, photos, the audit log and known hosts. */
async function writeVisitData(): Promise<void> {
  const cache = new OfflineCache({ dataDir, flushDelayMs: 0 });
  await cache.put('demo', { endpoint: 'listProviderGateways', params: { providerId: 'p-1' } }, { items: [] });
  await cache.close();
  await exportSiteReport(VISIT, join(dataDir, 'reports'));
  const visits = new Visits({ dataDir });
  await visits.load();
  await visits.attachPhoto({ caption: 'Mast', bytes: PNG });
  await visits.shutdown();
  await new AuditLog({ dataDir }).append({
    profileId: 'demo',
    user: 'tech@example.com',
    kind: 'command',
    name: 'getGatewayInfo',
    outcome: 'ok',
    durationMs: 3,
  });
  await new KnownHosts({ path: join(dataDir, 'known-hosts.json') }).replace(
    'gateway:gw-1',
    `SHA256:${'A'.repeat(43)}`,
  );
}

describe('the data folder', () => {
  it('keeps every folder of visit data 0700 and every file 0600', async () => {
    await writeVisitData();
    const { folders, files } = await modesUnder(dataDir);
    expect(Object.keys(folders)).toEqual(
      expect.arrayContaining(['reports', 'offline-cache', 'audit', 'visits']),
    );
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(5);
    for (const [name, mode] of Object.entries(folders)) expect({ name, mode }).toEqual({ name, mode: 0o700 });
    for (const [name, mode] of Object.entries(files)) expect({ name, mode }).toEqual({ name, mode: 0o600 });
  });

  it('tightens folders an earlier version left 0755', async () => {
    for (const name of ['reports', 'offline-cache', 'audit']) {
      await mkdir(join(dataDir, name));
      await chmod(join(dataDir, name), 0o755);
    }
    await chmod(dataDir, 0o755);
    await writeVisitData();
    const { folders } = await modesUnder(dataDir);
    for (const [name, mode] of Object.entries(folders)) expect({ name, mode }).toEqual({ name, mode: 0o700 });
  });
});
