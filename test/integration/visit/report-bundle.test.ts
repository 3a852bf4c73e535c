import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { exportSiteReport } from '../../../electron/services/reports';
import { gatherVisitEvidence, Visits, writeVisitBundle } from '../../../electron/services/visit';
import { createRouter } from '../../../electron/shared/ipc/router';
import { makeSiteVisit, makeVisitEntry } from '../../helpers/factories';

// An exported bundle checked by `npm run verify-report` (scripts/verify-report.ts, run as its own process): intact
// when untouched; one changed journal line, photo or log, or a file added or removed, is named.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 4, 2]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]);

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-bundle-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Runs the verifier as `npm run verify-report -- <bundle>` does, and resolves its exit code and output. */
function verifyReport(bundle: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts', 'verify-report.ts'), bundle],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** A visit of twenty gateways with two photos and a session log, exported as HTML with its bundle. */
async function exportVisit(): Promise<{
  bundle: string;
  reportHtml: string;
  logName: string;
  photoNames: string[];
}> {
  const visits = new Visits({ dataDir: join(folder, 'data') });
  await visits.load();
  await visits.open({ site: 'Harbour warehouse roof' });
  for (let index = 0; index < 40; index += 1) await visits.append(makeVisitEntry(index));
  await visits.attachPhoto({ bytes: PNG, caption: 'Mast' });
  await visits.attachPhoto({ bytes: JPEG, caption: 'Cabinet' });
  const logPath = join(folder, 'acme-gw-0013_2026-01-15_1204.log');
  await writeFile(logPath, 'login: root\n[password typed]\n# ip link\neth0: NO-CARRIER\n');
  const evidence = await gatherVisitEvidence(visits, [
    { path: logPath, sessionId: 'serial-1', typed: 'acme-gw-0013' },
  ]);
  const reportsDir = join(folder, 'reports');
  const written = await exportSiteReport(
    { ...makeSiteVisit([], { site: 'Harbour warehouse roof' }), journal: evidence.journal },
    reportsDir,
    { timeZone: 'UTC' },
  );
  const bundle = join(reportsDir, written.baseName);
  await writeVisitBundle(bundle, {
    visitId: evidence.visit.id,
    journal: evidence.journal.bytes,
    reportPaths: [written.htmlPath],
    photos: evidence.photos,
    logs: evidence.logs,
    createdAt: 1,
  });
  await visits.shutdown();
  return {
    bundle,
    reportHtml: await readFile(written.htmlPath, 'utf8'),
    logName: evidence.logs[0]!.fileName,
    photoNames: evidence.photos.map((photo) => photo.fileName),
  };
}

describe('npm run verify-report', () => {
  it('finds an untouched bundle intact, with the head printed on the report', async () => {
    const { bundle, reportHtml, logName, photoNames } = await exportVisit();
    expect((await readdir(bundle, { recursive: true })).sort()).toEqual(
      [
        'journal.jsonl',
        'logs',
        `logs/${logName}`,
        'manifest.json',
        'photos',
        ...photoNames.map((name) => `photos/${name}`),
        'site-report_Harbour-warehouse-roof_2026-01-15_1200.html',
      ].sort(),
    );
    const { code, output } = await verifyReport(bundle);
    const head = /Journal head \(compare with the report's last page\): ([0-9a-f]{64})/.exec(output)?.[1];
    expect(output).toContain('Intact: 44 journal entries, every photo, log and report file as exported.');
    expect(code).toBe(0);
    expect(reportHtml).toContain(`<code>${head}</code>`);
  });

  it('names the journal entry that was changed', async () => {
    const { bundle } = await exportVisit();
    const path = join(bundle, 'journal.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[6] = lines[6]!.replace('Checked the mast', 'Replaced the mast');
    await writeFile(path, lines.join('\n'));
    const { code, output } = await verifyReport(bundle);
    expect(output.split('\n')[0]).toBe(
      'NOT intact: journal: entry 6 (note) was changed: its content does not match its hash (line 7)',
    );
    expect(code).toBe(1);
  });

  it('names the photo that was changed', async () => {
    const { bundle, photoNames } = await exportVisit();
    await appendFile(join(bundle, 'photos', photoNames[1]!), Buffer.from([0]));
    const { code, output } = await verifyReport(bundle);
    expect(output.split('\n')[0]).toBe(
      `NOT intact: photo ${photoNames[1]} was changed: its SHA-256 is not the one recorded`,
    );
    expect(code).toBe(1);
  });

  it('names the photo that was changed even when the manifest was rewritten to match it', async () => {
    const { bundle, photoNames } = await exportVisit();
    const photo = join(bundle, 'photos', photoNames[0]!);
    await writeFile(photo, Buffer.from([...PNG, 9]));
    const manifestPath = join(bundle, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
      files: Array<{ path: string; sha256: string }>;
    };
    const { createHash } = await import('node:crypto');
    manifest.files.find((file) => file.path === `photos/${photoNames[0]}`)!.sha256 = createHash('sha256')
      .update(await readFile(photo))
      .digest('hex');
    await writeFile(manifestPath, JSON.stringify(manifest));
    const { code, output } = await verifyReport(bundle);
    expect(output.split('\n')[0]).toBe(
      `NOT intact: photo ${photoNames[0]} was changed: its SHA-256 is not the one recorded`,
    );
    expect(code).toBe(1);
  });

  it('names the session log that was changed', async () => {
    const { bundle, logName } = await exportVisit();
    const path = join(bundle, 'logs', logName);
    await writeFile(path, (await readFile(path, 'utf8')).replace('NO-CARRIER', 'UP'));
    const { code, output } = await verifyReport(bundle);
    expect(output.split('\n')[0]).toBe(
      `NOT intact: log ${logName} was changed: its SHA-256 is not the one recorded`,
    );
    expect(code).toBe(1);
  });

  it('names a photo removed, a file added and the last entry cut off', async () => {
    const { bundle, photoNames } = await exportVisit();
    await rm(join(bundle, 'photos', photoNames[0]!));
    await writeFile(join(bundle, 'photos', 'extra.png'), PNG);
    const journal = join(bundle, 'journal.jsonl');
    const text = await readFile(journal, 'utf8');
    await writeFile(journal, text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1));
    const { code, output } = await verifyReport(bundle);
    expect(output.split('\n').slice(0, 3)).toEqual([
      'NOT intact: journal: entry 43 was removed (the bundle was made with 44 entries)',
      `  also: photo ${photoNames[0]} was removed`,
      '  also: photos/extra.png was added: the bundle was made without it',
    ]);
    expect(code).toBe(1);
  });
});

describe('the app with a visit journal cut mid-line', () => {
  it('opens the visit with every whole entry and names the damaged tail kept aside', async () => {
    const dataDir = join(folder, 'app');
    const visits = new Visits({ dataDir });
    await visits.load();
    await visits.open({ site: 'Pump station 4' });
    for (let index = 0; index < 10; index += 1) await visits.append(makeVisitEntry(index));
    const journal = visits.pathsOf(visits.current()!.id).journal;
    await visits.shutdown();
    const size = (await readFile(journal)).length;
    await truncate(journal, size - 30);

    const services = await FieldKitServices.create({
      dataDir,
      mode: 'browser',
      version: '0.1.0',
      credentials: { store: new MemoryStore(), keychain: 'os' },
      createSession: () => {
        throw new Error('field mode must not build a session');
      },
    });
    try {
      const router = createRouter<null>({ handlers: services.handlers, isTrustedSender: () => true });
      const current = (await router.dispatch('visit:current', undefined, null)) as {
        value: { site: string; entryCount: number };
      };
      expect(current.value).toMatchObject({ site: 'Pump station 4', entryCount: 10 });
      const { notices } = (
        (await router.dispatch('app:notices', undefined, null)) as {
          value: { notices: Array<{ code: string; message: string }> };
        }
      ).value;
      const damaged = notices.find((notice) => notice.code === 'VISIT_JOURNAL_DAMAGED_TAIL');
      const aside = /kept aside as (\S+)\.$/.exec(damaged?.message ?? '')?.[1];
      expect(damaged?.message).toContain('Its 10 whole entries are kept');
      expect((await readFile(aside!, 'utf8')).length).toBeGreaterThan(0);
    } finally {
      await services.close();
    }
  });
});
