import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldKitServices } from '../../../electron/app';
import { listBundleFiles, sha256Hex } from '../../../electron/services/visit';
import { FACTORY_TIME } from '../../helpers/factories';
import { startFieldModeApp, type RouterAnswer } from '../../helpers/field-mode-app';
import { ManualClock } from '../../helpers/manual-clock';

// The customer's acknowledgement and "Verify a report" as the report view calls them, in field mode (nobody signed
// in, no server).

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7, 7]);

let folder: string;
const running: FieldKitServices[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-visit-acknowledge-'));
});

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  await rm(folder, { recursive: true, force: true });
});

async function startApp(clock = new ManualClock(FACTORY_TIME)) {
  const app = await startFieldModeApp({
    dataDir: folder,
    commissioning: { reportsDir: join(folder, 'reports') },
    clock,
  });
  running.push(app.services);
  return { ...app, clock };
}

/** A bundle as the report view sends it: the manifest and journal bytes, every file's path and SHA-256. */
async function chosen(bundle: string) {
  const files = [];
  for (const path of await listBundleFiles(bundle))
    files.push({ path, sha256: sha256Hex(await readFile(join(bundle, path))) });
  const base64 = async (name: string) => (await readFile(join(bundle, name))).toString('base64');
  return { manifest: await base64('manifest.json'), journal: await base64('journal.jsonl'), files };
}

/** Exports the visit with a photo and answers its bundle folder. */
async function exportBundle(invoke: (channel: string, input?: unknown) => Promise<RouterAnswer>) {
  await invoke('visit:update', { site: 'Harbour warehouse roof', arrivedAt: FACTORY_TIME });
  await invoke('visit:photo-add', { caption: 'Mast', base64: Buffer.from(PNG).toString('base64') });
  const exported = await invoke('report:export', { format: 'html' });
  return (exported.value as { bundlePath: string }).bundlePath;
}

describe("the customer's acknowledgement", () => {
  it('is refused until the customer acknowledged, in words', async () => {
    const { invoke } = await startApp();
    const answer = await invoke('visit:acknowledge', {
      customerRepresentative: 'Dana Okafor',
      technicianName: 'Sam Field',
      acknowledged: false,
    });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        details: [{ path: 'acknowledged', message: 'Tick that the customer acknowledged the work' }],
      },
    });
    expect(await invoke('visit:current')).toEqual({ ok: true, value: null });
  });

  it('is recorded with its words and time, and found again after a restart', async () => {
    const { invoke, clock, services } = await startApp();
    await invoke('visit:open', { site: 'North mast' });
    clock.time = FACTORY_TIME + 3_600_000;
    const answer = await invoke('visit:acknowledge', {
      customerRepresentative: ' Dana Okafor ',
      technicianName: 'Sam Field',
      text: 'Mast repainted; all links up.',
      acknowledged: true,
    });
    const acknowledgement = {
      customerRepresentative: 'Dana Okafor',
      technicianName: 'Sam Field',
      text: 'Mast repainted; all links up.',
      at: FACTORY_TIME + 3_600_000,
    };
    expect(answer).toMatchObject({ ok: true, value: { acknowledgement } });
    await services.close();

    const restarted = await startApp();
    expect(await restarted.invoke('visit:current')).toMatchObject({ ok: true, value: { acknowledgement } });
  });
});

describe('Verify a report', () => {
  it('finds an untouched bundle intact, with its head, entries, photos and logs', async () => {
    const { invoke } = await startApp();
    const bundle = await exportBundle(invoke);
    const manifest = JSON.parse(await readFile(join(bundle, 'manifest.json'), 'utf8')) as {
      journal: { head: string; entries: number };
    };
    expect(await invoke('visit:verify-bundle', await chosen(bundle))).toEqual({
      ok: true,
      value: {
        isIntact: true,
        problems: [],
        entries: manifest.journal.entries,
        head: manifest.journal.head,
        files: { reports: 1, photos: 1, logs: 0 },
      },
    });
  });

  it('names the photo that was changed', async () => {
    const { invoke } = await startApp();
    const bundle = await exportBundle(invoke);
    const sent = await chosen(bundle);
    const photo = sent.files.find((file) => file.path.startsWith('photos/'))!;
    photo.sha256 = sha256Hex('another photo');
    const answer = (await invoke('visit:verify-bundle', sent)).value as { problems: string[] };
    expect(answer.problems[0]).toBe(
      `photo ${photo.path.slice('photos/'.length)} was changed: its SHA-256 is not the one recorded`,
    );
  });

  it('names the journal entry that was changed', async () => {
    const { invoke } = await startApp();
    const bundle = await exportBundle(invoke);
    const path = join(bundle, 'journal.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[1] = lines[1]!.replace('Harbour warehouse roof', 'Harbour warehouse');
    await writeFile(path, lines.join('\n'));
    const answer = (await invoke('visit:verify-bundle', await chosen(bundle))).value as {
      isIntact: boolean;
      problems: string[];
    };
    expect(answer.isIntact).toBe(false);
    expect(answer.problems[0]).toBe(
      'journal: entry 1 (fields-edited) was changed: its content does not match its hash (line 2)',
    );
  });

  it('says a folder without a manifest is not a bundle', async () => {
    const { invoke } = await startApp();
    expect(
      await invoke('visit:verify-bundle', { files: [{ path: 'holiday.jpg', sha256: sha256Hex('x') }] }),
    ).toEqual({
      ok: true,
      value: { isIntact: false, problems: ['manifest.json is missing: this is not a bundle'] },
    });
  });
});
