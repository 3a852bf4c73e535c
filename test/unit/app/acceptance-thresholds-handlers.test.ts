import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldKitServices } from '../../../electron/app';
import {
  DEFAULT_ACCEPTANCE_TABLE,
  readThresholdOverride,
  THRESHOLD_OVERRIDES_FILE,
} from '../../../electron/services/acceptance';
import type { TriageResult } from '../../../electron/shared/terminal/triage-schemas';
import { startFieldModeApp, type RouterAnswer } from '../../helpers/field-mode-app';

// The thresholds channels as the Settings screen calls them, with nobody signed in: the table is on this computer.

let folder: string;
let services: FieldKitServices;
let invoke: (channel: string, input?: unknown) => Promise<RouterAnswer>;
let profileId: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-thresholds-handlers-'));
  const app = await startFieldModeApp({ dataDir: folder });
  services = app.services;
  invoke = app.invoke;
  profileId = (await services.profiles.save({ name: 'Roof site', baseUrl: 'https://oam.lab.example' })).id;
});

afterEach(async () => {
  await services.close();
  await rm(folder, { recursive: true, force: true });
});

const overridesPath = () => join(folder, THRESHOLD_OVERRIDES_FILE);

describe('acceptance thresholds channels', () => {
  it('reads the defaults and no override for a profile that changed nothing', async () => {
    const answer = await invoke('acceptance:thresholds-read', { profileId });
    expect(answer).toEqual({
      ok: true,
      value: { profileId, profileName: 'Roof site', defaults: DEFAULT_ACCEPTANCE_TABLE, override: {} },
    });
  });

  it('saves a profile’s fields into a private file and reads them back, the next check’s table', async () => {
    const override = {
      observationSeconds: 15,
      rsrqDb: { go: -5, warn: -12 },
      gpsRequiredModels: ['KONA Mega'],
    };
    const saved = await invoke('acceptance:thresholds-save', { profileId, override });
    expect(saved.ok).toBe(true);
    expect((saved.value as { override: unknown }).override).toEqual(override);
    expect(
      ((await invoke('acceptance:thresholds-read', { profileId })).value as { override: unknown }).override,
    ).toEqual(override);
    expect(await readThresholdOverride(folder, profileId)).toEqual(override);
    expect((await stat(overridesPath())).mode & 0o777).toBe(0o600);
  });

  it('keeps every other profile’s entry of the file when one profile saves', async () => {
    await writeFile(overridesPath(), JSON.stringify({ other: { defaultAntennas: 8 } }));
    await invoke('acceptance:thresholds-save', { profileId, override: { pingPackets: 10 } });
    expect(JSON.parse(await readFile(overridesPath(), 'utf8'))).toEqual({
      other: { defaultAntennas: 8 },
      [profileId]: { pingPackets: 10 },
    });
  });

  it.each([
    ['a window longer than an hour', { observationSeconds: 3_601 }, 'override.observationSeconds'],
    ['a band whose go is below its warn', { rsrqDb: { go: -20, warn: -15 } }, 'override.rsrqDb.go'],
    [
      'a loss limit whose go is above its warn',
      { pingLossPercent: { go: 30, warn: 10 } },
      'override.pingLossPercent.go',
    ],
    ['a field the table does not have', { rsrpDb: { go: -90, warn: -100 } }, 'override'],
  ])('refuses %s, naming the field, and writes nothing', async (_case, override, path) => {
    await invoke('acceptance:thresholds-save', { profileId, override: { pingPackets: 6 } });
    const before = await readFile(overridesPath(), 'utf8');
    const answer = await invoke('acceptance:thresholds-save', { profileId, override });
    expect(answer.ok).toBe(false);
    expect(answer.error?.code).toBe('INVALID_INPUT');
    expect((answer.error?.details as Array<{ path: string }>).map((issue) => issue.path)).toContain(path);
    expect(await readFile(overridesPath(), 'utf8')).toBe(before);
  });

  it('takes one field back to its default and leaves the others, then all of them', async () => {
    await invoke('acceptance:thresholds-save', {
      profileId,
      override: { observationSeconds: 15, clockSkewSeconds: 30 },
    });
    const one = await invoke('acceptance:thresholds-clear', { profileId, fields: ['observationSeconds'] });
    expect((one.value as { override: unknown }).override).toEqual({ clockSkewSeconds: 30 });
    const all = await invoke('acceptance:thresholds-clear', { profileId });
    expect((all.value as { override: unknown }).override).toEqual({});
    expect(JSON.parse(await readFile(overridesPath(), 'utf8'))).toEqual({});
  });

  it('refuses a profile that does not exist', async () => {
    const answer = await invoke('acceptance:thresholds-save', {
      profileId: 'gone',
      override: { pingPackets: 6 },
    });
    expect(answer.error?.code).toBe('NOT_FOUND');
  });

  it('leaves a file it cannot read as it is, and says which field is wrong', async () => {
    const broken = JSON.stringify({ other: { observationSeconds: -5 } });
    await writeFile(overridesPath(), broken);
    const answer = await invoke('acceptance:thresholds-save', { profileId, override: { pingPackets: 6 } });
    expect(answer.error?.code).toBe('INVALID_INPUT');
    expect(answer.error?.message).toContain('other.observationSeconds');
    expect(await readFile(overridesPath(), 'utf8')).toBe(broken);
  });

  it('gives the offline card of field mode the thresholds of the profile chosen on the sign-in page', async () => {
    await services.profiles.select(profileId);
    await services.visits.open({ site: 'Roof' });
    const triage: TriageResult = {
      terminalId: 'serial-1',
      title: 'Gateway console',
      startedAt: 1_000,
      finishedAt: 2_000,
      outcome: 'complete',
      commands: [],
      health: {
        interfaces: [],
        defaultRoutes: [],
        dns: [],
        findings: [],
        network: { status: 'ok', detail: 'fine' },
        wan: { status: 'ok', detail: 'fine' },
        modem: { status: 'ok', detail: 'fine' },
        packetForwarder: { status: 'ok', detail: 'The packet forwarder runs.' },
        versions: [],
        logErrors: [],
      },
    };
    await services.visits.append({ kind: 'triage', gateway: { gatewayId: 'gw-1' }, result: triage });
    const before = await invoke('acceptance:offline', { gatewayId: 'gw-1' });
    expect((before.value as { thresholdsProfile?: string }).thresholdsProfile).toBeUndefined();

    await invoke('acceptance:thresholds-save', { profileId, override: { clockSkewSeconds: 30 } });
    const after = await invoke('acceptance:offline', { gatewayId: 'gw-1' });
    expect((after.value as { thresholdsProfile?: string }).thresholdsProfile).toBe('Roof site');
  });
});
