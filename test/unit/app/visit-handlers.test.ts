import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldKitServices } from '../../../electron/app';
import { format } from '../../../electron/shared/format';
import { verifyBundle } from '../../../electron/services/visit';
import { readFile } from 'node:fs/promises';
import { ManualClock } from '../../helpers/manual-clock';
import { FACTORY_TIME } from '../../helpers/factories';
import { startFieldModeApp } from '../../helpers/field-mode-app';

// The visit channels as the page calls them, in field mode (nobody signed in, no server), across a restart.

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7, 7]);

let folder: string;
const running: FieldKitServices[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-visit-handlers-'));
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
  const changes: unknown[] = [];
  app.services.events.on('visit:changed', (payload) => changes.push(payload));
  return { ...app, changes };
}

describe('visit channels', () => {
  it('keeps Site and Notes typed with no visit open in an implicit visit, found again after a restart', async () => {
    const first = await startApp();
    const updated = await first.invoke('visit:update', { site: 'Harbour warehouse roof' });
    expect(updated.ok).toBe(true);
    await first.invoke('visit:update', { notes: 'Antenna cable checked' });
    expect(first.changes.at(-1)).toMatchObject({
      site: 'Harbour warehouse roof',
      notes: 'Antenna cable checked',
    });
    await first.services.close();

    const second = await startApp();
    const notices = (await second.invoke('app:notices')).value as {
      notices: Array<{ code: string; message: string }>;
    };
    expect(notices.notices.find((notice) => notice.code === 'VISIT_OPEN')?.message).toMatch(
      /^The visit at Harbour warehouse roof, started .*, is still open and goes on with everything in it: the notes typed\. End it under Site report when you leave\.$/,
    );
    const current = await second.invoke('visit:current');
    expect(current).toMatchObject({
      ok: true,
      value: { site: 'Harbour warehouse roof', notes: 'Antenna cable checked', implicit: true, isOpen: true },
    });
  });

  it('attaches a photo with nobody signed in and shows it back', async () => {
    const { invoke } = await startApp();
    const added = await invoke('visit:photo-add', {
      caption: 'Mast',
      base64: Buffer.from(PNG).toString('base64'),
    });
    expect(added).toMatchObject({
      ok: true,
      value: { caption: 'Mast', mimeType: 'image/png', bytes: PNG.length },
    });
    const current = (await invoke('visit:current')).value as {
      id: string;
      photos: Array<{ photoId: string }>;
    };
    const shown = await invoke('visit:photo', { visitId: current.id, photoId: current.photos[0]!.photoId });
    expect(shown).toEqual({
      ok: true,
      value: { mimeType: 'image/png', base64: Buffer.from(PNG).toString('base64') },
    });
  });

  it('says in words why a second visit cannot be opened', async () => {
    const { invoke } = await startApp();
    await invoke('visit:open', { site: 'North mast' });
    expect(await invoke('visit:open', { site: 'South mast' })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: `Close the visit at North mast (started ${format.dateTime(Date.parse('2026-01-15T12:00:00.000Z'))}) before starting another.`,
      },
    });
  });

  it('closes the open visit and lists it with the next one', async () => {
    const clock = new ManualClock(FACTORY_TIME);
    const { invoke } = await startApp(clock);
    await invoke('visit:open', { site: 'North mast' });
    await invoke('visit:note', { text: 'Mast repainted' });
    clock.advance(3 * 3_600_000);
    expect(await invoke('visit:close', { departedAt: FACTORY_TIME + 7_200_000 })).toMatchObject({
      ok: true,
      value: { isOpen: false, departedAt: FACTORY_TIME + 7_200_000, entryCount: 3 },
    });
    expect(await invoke('visit:current')).toEqual({ ok: true, value: null });
    const listed = (await invoke('visit:list')).value as { visits: Array<{ site: string }> };
    expect(listed.visits.map((visit) => visit.site)).toEqual(['North mast']);
  });

  it('refuses a departure before the arrival or in the future, and keeps the visit open', async () => {
    const clock = new ManualClock(FACTORY_TIME);
    const { invoke } = await startApp(clock);
    await invoke('visit:open', { site: 'North mast', arrivedAt: FACTORY_TIME - 3_600_000 });
    clock.advance(600_000);
    expect(await invoke('visit:close', { departedAt: FACTORY_TIME - 7_200_000 })).toMatchObject({
      ok: false,
      error: {
        message: `The departure cannot be before the arrival (${format.dateTime(FACTORY_TIME - 3_600_000)}).`,
      },
    });
    expect(await invoke('visit:close', { departedAt: FACTORY_TIME + 1_200_000 })).toMatchObject({
      ok: false,
      error: { message: 'The departure cannot be in the future: enter the time you left, or now.' },
    });
    expect(await invoke('visit:current')).toMatchObject({ ok: true, value: { site: 'North mast' } });
    expect(await invoke('visit:close', { departedAt: FACTORY_TIME })).toMatchObject({
      ok: true,
      value: { isOpen: false, departedAt: FACTORY_TIME },
    });
  });

  it('exports the open visit with a bundle beside the report: its photo, journal and head, verifying', async () => {
    const { invoke } = await startApp();
    await invoke('visit:update', { site: 'Harbour warehouse roof', arrivedAt: FACTORY_TIME });
    await invoke('visit:photo-add', { caption: 'Mast', base64: Buffer.from(PNG).toString('base64') });
    const first = await invoke('report:export', { format: 'html' });
    const second = await invoke('report:export', { format: 'html' });
    const { htmlPath, bundlePath } = first.value as { htmlPath: string; bundlePath: string };
    expect(bundlePath).toBe(htmlPath.replace(/\.html$/, ''));
    expect((second.value as { bundlePath: string }).bundlePath).toBe(`${bundlePath}-2`);
    const verdict = await verifyBundle(bundlePath);
    expect(verdict).toMatchObject({ isIntact: true, problems: [], entries: 3 });
    const html = await readFile(htmlPath, 'utf8');
    expect(html).toContain(`<code>${verdict.head}</code>`);
    expect(html).toContain('alt="Mast"');
  });
});
