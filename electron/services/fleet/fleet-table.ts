import type { FleetRowStatusView, FleetRowView, FleetTargetInput } from '../../shared/ipc/domains/fleet';
import { t } from '../../shared/i18n';
import { describeChange, type FleetChange } from './fleet-changes';

/**
 * A gateway to change: its id, and what the list said about it when known (an OFFLINE gateway is skipped without
 * sending anything).
 */
export type FleetTarget = FleetTargetInput;

/**
 * Where a gateway stands in the job. `done`: applied and verified by reading back (an upgrade: the gateway
 * answered again after its restart and its package versions moved); `unchanged`: it already had the change; `failed`: not applied (nothing went out, the gateway refused, or reading back shows the old value);
 * `unknown`: a change went out but neither its answer nor a read-back came, so it may or may not hold;
 * `skipped`: offline before any change was sent; `cancelled`: stopped by the technician.
 */
export type FleetRowStatus = FleetRowStatusView;

/**
 * One row of the result table; every input gateway has exactly one. `reason` says in words why it failed, was
 * skipped or cancelled, or what was done.
 */
export type FleetRow = FleetRowView;

/** Counts by status, for a progress bar. */
export type FleetCounts = Record<FleetRowStatus, number>;

/** The job's end: the whole table, the counts, and a sentence. */
export interface FleetResult {
  jobId: string;
  change: FleetChange;
  rows: FleetRow[];
  counts: FleetCounts;
  message: string;
  durationMs: number;
  /** Commands sent, retries included (for the benchmark and for the technician's data bill). */
  commandsSent: number;
}

/** The job's end in one sentence: the change, how many gateways, and the count of each outcome. */
export function describeFleetResult(change: FleetChange, gatewayCount: number, counts: FleetCounts): string {
  const parts = [
    t('fleet:countChanged', { count: counts.done }),
    t('fleet:countAlreadySet', { count: counts.unchanged }),
    t('fleet:countFailed', { count: counts.failed }),
    ...(counts.unknown > 0 ? [t('fleet:countUnknown', { count: counts.unknown })] : []),
    t('fleet:countSkipped', { count: counts.skipped }),
    ...(counts.cancelled > 0 ? [t('fleet:countCancelled', { count: counts.cancelled })] : []),
  ];
  // The change's words open the sentence: its first letter in upper case (as in every language we write).
  const sentence = t('fleet:resultSummary', {
    count: gatewayCount,
    change: describeChange(change),
    counts: parts.join(', '),
  });
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
