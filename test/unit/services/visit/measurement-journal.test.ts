import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MeasurementJournal, Visits } from '../../../../electron/services/visit';
import type { VisitEntry } from '../../../../electron/shared/visit/journal-entry';
import { FACTORY_TIME } from '../../../helpers/factories';
import { ManualClock } from '../../../helpers/manual-clock';

let dataDir: string;
let visits: Visits;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-measurement-journal-'));
  visits = new Visits({ dataDir, clock: new ManualClock(FACTORY_TIME) });
  await visits.open({ site: 'North mast' });
});

afterEach(async () => {
  await visits.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

function entries() {
  return visits.entries(visits.current()!.id).map((line) => line.entry as VisitEntry);
}

describe('MeasurementJournal', () => {
  it('records nothing for a gateway task that is not a measurement', async () => {
    await new MeasurementJournal(visits).recordTask('gw-1', { task: 'readSoftware' }, { versions: {} });
    expect(entries().map((entry) => entry.kind)).toEqual(['visit-opened']);
  });

  it('keeps no secret an answer carries, as the audit log keeps none', async () => {
    await new MeasurementJournal(visits).recordTask(
      'gw-1',
      { task: 'readDiagnostics' },
      { info: { serial: 'SN-1' }, bspStatus: { password: 'hunter22' } },
    );
    expect(entries().at(-1)).toEqual({
      kind: 'measurement',
      gateway: { gatewayId: 'gw-1' },
      measurement: 'diagnostics',
      values: {
        read: 'readDiagnostics',
        answer: { info: { serial: 'SN-1' }, bspStatus: { password: '[redacted]' } },
      },
    });
  });

  it('shows RF readings in the order they were read, each once recorded', async () => {
    const shown: number[] = [];
    const show = new MeasurementJournal(visits).showingRecordedRf(
      { gatewayId: 'gw-1', meterId: 'meter-1' },
      ({ sample }: { sample: { at: number } }) => shown.push(sample.at),
      () => undefined,
    );
    const sample = (at: number) => ({ sample: { at, signalStrength: -70, sinr: 10, rsrq: -9, ecio: -6 } });
    show(sample(1));
    show(sample(2));
    show(sample(3));
    await expect.poll(() => shown).toEqual([1, 2, 3]);
    expect(entries().flatMap((entry) => (entry.kind === 'measurement' ? [entry.values.at] : []))).toEqual([
      1, 2, 3,
    ]);
  });
});
