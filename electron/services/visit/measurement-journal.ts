import type { RfSampleView } from '../../shared/ipc/domains/tasks';
import type { VisitEntry } from '../../shared/visit/journal-entry';
import { redactSecrets } from '../audit/redaction';
import type { VisitRecorder } from './visits';

type MeasurementKind = Extract<VisitEntry, { kind: 'measurement' }>['measurement'];

/**
 * The gateway tasks whose answers are measurements of the site, and under which name the journal keeps them: the
 * Diagnostics panel's reads (interfaces, antennas, GPS and BSP status; radio packet counters; a spectral scan's
 * results) and a ping. Other reads — backups, software versions, a wizard's reads, a command typed in the console —
 * stay `command-sent` / `command-outcome` entries only (the console's keep their answer there).
 */
export const MEASURED_TASKS: Readonly<Record<string, MeasurementKind>> = {
  readDiagnostics: 'diagnostics',
  readRadioStatistics: 'diagnostics',
  spectralScan: 'diagnostics',
  ping: 'ping',
};

/** A gateway task as `gateway-task:run` takes it: its name and its parameters. */
export interface MeasuredTask {
  task: string;
  [parameter: string]: unknown;
}

/**
 * Records measurements in the open visit's journal as they are taken (docs/site-report.md): each RF meter reading,
 * and the answer of each gateway task MEASURED_TASKS names. Each method resolves once the entry is on the disk and
 * rejects when the journal refuses it (JournalWriteError: a full disk), and the caller then shows nothing: a
 * measurement the journal lacks is not reported as taken.
 */
export class MeasurementJournal {
  constructor(private readonly recorder: VisitRecorder) {}

  /** Appends one RF meter reading (signal strength, SINR, RSRQ, Ec/Io and when it was read), under its meter. */
  async recordRfSample(gatewayId: string, meterId: string, sample: RfSampleView): Promise<void> {
    await this.recorder.append({
      kind: 'measurement',
      gateway: { gatewayId },
      measurement: 'rf',
      values: { meterId, ...sample },
    });
  }

  /**
   * Appends the answer of a gateway task that is a measurement, with the task's parameters (a ping's destination and
   * packet count); a task MEASURED_TASKS does not name records nothing here.
   */
  async recordTask(gatewayId: string, task: MeasuredTask, answer: unknown): Promise<void> {
    const measurement = MEASURED_TASKS[task.task];
    if (measurement === undefined) return;
    const { task: read, ...parameters } = task;
    await this.recorder.append({
      kind: 'measurement',
      gateway: { gatewayId },
      measurement,
      // Redacted like the audit log's: a diagnostics answer is not meant to hold a secret, and must not carry one.
      values: redactSecrets({ read, ...parameters, answer }),
    });
  }

  /**
   * A listener for an RF meter's `sample` event that records each reading, then calls `show` with it; a reading the
   * journal refuses is not shown: `refuse` is told why, in words, and the meter goes on reading.
   */
  showingRecordedRf<Sample extends { sample: RfSampleView }>(
    ids: { gatewayId: string; meterId: string },
    show: (reading: Sample) => void,
    refuse: (message: string) => void,
  ): (reading: Sample) => void {
    return (reading) => {
      this.recordRfSample(ids.gatewayId, ids.meterId, reading.sample).then(
        () => show(reading),
        (error: unknown) =>
          refuse(`This RF reading is not shown: ${error instanceof Error ? error.message : String(error)}`),
      );
    };
  }
}
