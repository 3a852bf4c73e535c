import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../electron/shared/visit/canonical-json';
import { format } from '../../../../electron/shared/format';
import { GENESIS_HASH } from '../../../../electron/shared/visit/journal-entry';
import { PhotoRejectedError } from '../../../../electron/services/visit';
import { Visits, type VisitNotice } from '../../../../electron/services/visit';
import { ManualClock } from '../../../helpers/manual-clock';
import { FACTORY_TIME, makeVisitEntry } from '../../../helpers/factories';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

let dataDir: string;
let clock: ManualClock;
const opened: Visits[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-visits-'));
  clock = new ManualClock(FACTORY_TIME);
});

afterEach(async () => {
  for (const visits of opened.splice(0)) await visits.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

/** A store over the test's data folder, loaded as at start-up, with the notices the load gave. */
async function start(): Promise<{ visits: Visits; notices: VisitNotice[] }> {
  const visits = new Visits({ dataDir, clock });
  opened.push(visits);
  return { visits, notices: await visits.load() };
}

async function journalPathOf(visits: Visits): Promise<string> {
  return visits.pathsOf(visits.current()!.id).journal;
}

describe('Visits', () => {
  it('finds the open visit again after a restart, with its fields, entries and photos', async () => {
    const first = (await start()).visits;
    await first.open({ site: 'Harbour warehouse roof', customer: 'Acme Water', technician: 'Dana' });
    clock.advance(60_000);
    await first.update({ notes: 'Antenna cable checked' });
    await first.append(makeVisitEntry(3));
    await first.attachPhoto({ bytes: PNG, caption: 'Mast' });
    await first.shutdown();

    const { visits: second, notices } = await start();
    const current = second.current();
    expect(notices).toEqual([]);
    expect(current).toMatchObject({
      site: 'Harbour warehouse roof',
      customer: 'Acme Water',
      technician: 'Dana',
      notes: 'Antenna cable checked',
      arrivedAt: FACTORY_TIME,
      isOpen: true,
      implicit: false,
      entryCount: 4,
    });
    expect(current!.photos.map((photo) => photo.caption)).toEqual(['Mast']);
    expect(second.entries(current!.id).map((line) => line.entry.kind)).toEqual([
      'visit-opened',
      'fields-edited',
      'measurement',
      'photo-attached',
    ]);
  });

  it('keeps the journal and photos 0600 in 0700 folders', async () => {
    const { visits } = await start();
    await visits.open({ site: 'Roof' });
    await visits.attachPhoto({ bytes: PNG, caption: '' });
    const { folder } = visits.pathsOf(visits.current()!.id);
    expect((await stat(join(dataDir, 'visits'))).mode & 0o777).toBe(0o700);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(join(folder, 'photos'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(folder, 'journal.jsonl'))).mode & 0o777).toBe(0o600);
    for (const name of await readdir(join(folder, 'photos')))
      expect((await stat(join(folder, 'photos', name))).mode & 0o777).toBe(0o600);
  });

  it('chains each entry to the one before by the SHA-256 of its canonical JSON', async () => {
    const { visits } = await start();
    await visits.open({ site: 'Roof' });
    for (let index = 0; index < 3; index += 1) await visits.append(makeVisitEntry(index));
    const lines = (await readFile(await journalPathOf(visits), 'utf8')).trimEnd().split('\n');
    let previous = GENESIS_HASH;
    lines.forEach((text, index) => {
      const { hash, ...content } = JSON.parse(text) as Record<string, unknown>;
      expect(content.seq).toBe(index);
      expect(content.prev).toBe(previous);
      expect(hash).toBe(createHash('sha256').update(canonicalJson(content)).digest('hex'));
      previous = hash as string;
    });
    expect(visits.current()!.headHash).toBe(previous);
  });

  it('stores a value as JSON writes it, so an entry holding a Date still verifies at the next start', async () => {
    const first = (await start()).visits;
    await first.append({
      kind: 'measurement',
      measurement: 'diagnostics',
      values: { readAt: new Date(FACTORY_TIME), missing: undefined },
    });
    await first.shutdown();
    const { visits, notices } = await start();
    expect(notices).toEqual([]);
    const [, measurement] = visits.entries(visits.current()!.id);
    expect(measurement!.entry).toEqual({
      kind: 'measurement',
      measurement: 'diagnostics',
      values: { readAt: '2026-01-15T12:00:00.000Z' },
    });
  });

  it('refuses to open a second visit while one is open, and keeps both once the first is closed', async () => {
    const { visits } = await start();
    await visits.open({ site: 'North mast' });
    await expect(visits.open({ site: 'South mast' })).rejects.toThrow(
      `Close the visit at North mast (started ${format.dateTime(Date.parse('2026-01-15T12:00:00.000Z'))}) before starting another.`,
    );
    clock.advance(3_600_000);
    const closed = await visits.close();
    expect(closed).toMatchObject({ isOpen: false, departedAt: FACTORY_TIME + 3_600_000 });
    await visits.open({ site: 'South mast' });
    expect(visits.list().map((visit) => [visit.site, visit.isOpen])).toEqual([
      ['South mast', true],
      ['North mast', false],
    ]);
  });

  it('opens an implicit visit, to be named later, when something is recorded with none open', async () => {
    const { visits } = await start();
    await visits.append(makeVisitEntry(0));
    expect(visits.current()).toMatchObject({ implicit: true, isOpen: true, arrivedAt: FACTORY_TIME });
    expect(visits.current()!.site).toBeUndefined();
    await visits.update({ site: 'Pump station 4' });
    expect(visits.current()).toMatchObject({ site: 'Pump station 4', entryCount: 3 });
  });

  it('saves fields as typed, an empty field included', async () => {
    const { visits } = await start();
    await visits.open({ site: 'Roof' });
    await visits.update({ site: '', notes: '  two spaces kept  ' });
    expect(visits.current()).toMatchObject({ site: '', notes: '  two spaces kept  ' });
  });

  it('refuses an entry that does not fit its kind, and writes nothing', async () => {
    const { visits } = await start();
    await visits.open({ site: 'Roof' });
    await expect(visits.append({ kind: 'note', text: '' })).rejects.toThrow(
      'Not recorded: the note entry is not valid (text: Too small: expected string to have >=1 characters).',
    );
    expect(visits.current()!.entryCount).toBe(1);
  });

  it('hashes an attached photo and refuses what is not JPEG or PNG', async () => {
    const { visits } = await start();
    const photo = await visits.attachPhoto({ bytes: PNG, caption: 'Mast' });
    expect(photo.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
    const read = await visits.readPhoto(visits.current()!.id, photo.photoId);
    expect(read?.bytes.equals(Buffer.from(PNG))).toBe(true);
    await expect(visits.attachPhoto({ bytes: Buffer.from('not a photo'), caption: '' })).rejects.toThrow(
      PhotoRejectedError,
    );
    await visits.removePhoto(photo.photoId);
    expect(visits.current()!.photos).toEqual([]);
  });

  it('reads a journal cut mid-line up to its last whole entry and keeps the damaged tail aside', async () => {
    const first = (await start()).visits;
    await first.open({ site: 'Roof' });
    for (let index = 0; index < 4; index += 1) await first.append(makeVisitEntry(index));
    const path = await journalPathOf(first);
    await first.shutdown();
    const whole = await readFile(path);
    const cut = whole.length - 20;
    await truncate(path, cut);

    clock.advance(1_000);
    const { visits, notices } = await start();
    const aside = `${path}.damaged-${FACTORY_TIME + 1_000}`;
    expect(visits.current()!.entryCount).toBe(4);
    expect(notices).toEqual([
      {
        code: 'VISIT_JOURNAL_DAMAGED_TAIL',
        message: `The journal of the visit at Roof ended in a line cut short (Field Kit stopped while writing it). Its 4 whole entries are kept; the damaged ${cut - whole.lastIndexOf(0x0a, whole.length - 2) - 1} bytes were kept aside as ${aside}.`,
      },
    ]);
    expect(
      (await readFile(aside)).equals(whole.subarray(whole.lastIndexOf(0x0a, whole.length - 2) + 1, cut)),
    ).toBe(true);
    // The chain goes on from the last whole entry, and still verifies at the next start.
    await visits.append(makeVisitEntry(9));
    await visits.shutdown();
    const again = await start();
    expect(again.notices).toEqual([]);
    expect(again.visits.current()!.entryCount).toBe(5);
  });

  it('opens a journal whose chain does not verify read-only, with a notice, and lets a new visit start', async () => {
    const first = (await start()).visits;
    await first.open({ site: 'Roof' });
    await first.append(makeVisitEntry(0));
    const path = await journalPathOf(first);
    const visitId = first.current()!.id;
    await first.shutdown();
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('Checked the mast', 'Replaced the mast'));

    const { visits, notices } = await start();
    expect(notices).toEqual([
      {
        code: 'VISIT_JOURNAL_BROKEN',
        message: `The journal of the visit at Roof does not verify (entry 1 (note) was changed: its content does not match its hash), so it is open read-only: nothing more is recorded in it. File: ${path}`,
      },
    ]);
    expect(visits.get(visitId)).toMatchObject({ isOpen: true, entryCount: 1 });
    expect(visits.get(visitId)!.readOnlyReason).toContain('does not verify');
    expect(visits.current()).toBeNull();
    await visits.open({ site: 'Roof, again' });
    expect(visits.current()!.site).toBe('Roof, again');
    expect(await readFile(path, 'utf8')).toBe(text.replace('Checked the mast', 'Replaced the mast'));
  });

  it('names a line added after a damaged line as a broken chain, not as a damaged tail', async () => {
    const first = (await start()).visits;
    await first.open({ site: 'Roof' });
    await first.append(makeVisitEntry(0));
    const path = await journalPathOf(first);
    const lines = (await readFile(path, 'utf8')).split('\n');
    await first.shutdown();
    await writeFile(path, `${lines[0]}\n{"torn":\n${lines[1]}\n`);
    const { notices } = await start();
    expect(notices.map((notice) => notice.code)).toEqual(['VISIT_JOURNAL_BROKEN']);
  });

  it('records into a new implicit visit when the open one is read-only, leaving its journal as it was', async () => {
    const first = (await start()).visits;
    await first.open({ site: 'Roof' });
    const path = await journalPathOf(first);
    await first.shutdown();
    const firstLine = (await readFile(path, 'utf8')).trimEnd();
    await appendFile(path, `${firstLine}\n`);
    const { visits } = await start();
    const [broken] = visits.list();
    expect(broken!.readOnlyReason).toContain('an entry was added after entry 0: it repeats number 0');
    await visits.append(makeVisitEntry(0));
    expect(visits.current()).toMatchObject({ implicit: true, entryCount: 2 });
    expect(visits.current()!.id).not.toBe(broken!.id);
    expect(await readFile(path, 'utf8')).toBe(`${firstLine}\n${firstLine}\n`);
  });
});
