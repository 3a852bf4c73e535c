import type { MessageKey } from '../i18n';
import type { IpcClient } from '../ipc';
import type { ChannelInput, ChannelOutput, Events, Result } from '../wire-types';
import { describeIpcError } from './wizard.svelte';

/** A change a fleet job applies to each gateway. */
export type FleetChange = ChannelInput<'fleet:start'>['change'];
/** One row of the result table. */
export type FleetRow = ChannelOutput<'fleet:start'>['rows'][number];
/** Rows by status. */
export type FleetCounts = Events['fleet:row']['counts'];
/** What main says before a fleet write: the gateway count, the question, the disruptions and the lockouts. */
export type FleetPreview = ChannelOutput<'fleet:preview'>;
/** Where a fleet write goes: chosen gateways or a whole group. */
export type FleetTargets = Pick<ChannelInput<'fleet:start'>, 'targets' | 'gatewayGroupId'>;

/** The words of each row status, as the result table shows them (keys: `t` writes them where shown). */
export const ROW_STATUS_WORDS: Record<FleetRow['status'], MessageKey> = {
  pending: 'fleet:statusPending',
  running: 'fleet:statusRunning',
  done: 'fleet:statusDone',
  unchanged: 'fleet:statusUnchanged',
  failed: 'fleet:statusFailed',
  unknown: 'fleet:statusUnknown',
  skipped: 'fleet:statusSkipped',
  cancelled: 'fleet:statusCancelled',
};

/** Rows counted by status. */
export function countRows(rows: readonly FleetRow[]): FleetCounts {
  const counts: FleetCounts = {
    pending: 0,
    running: 0,
    done: 0,
    unchanged: 0,
    failed: 0,
    unknown: 0,
    skipped: 0,
    cancelled: 0,
  };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}

/**
 * One fleet job at a time as runes: first the preview main gives (count, question, risks) to confirm, then the
 * table (one row per chosen gateway, updated as rows change, never dropping one), counts, the final sentence;
 * cancel, and re-run the failed and unknown (a new job over those rows, previewed and confirmed again).
 */
export class FleetState {
  jobId = $state<string | null>(null);
  description = $state('');
  rows = $state<FleetRow[]>([]);
  counts = $state<FleetCounts>(countRows([]));
  isRunning = $state(false);
  message = $state<string | null>(null);
  error = $state<string | null>(null);
  /** The change of the last job started (a retry previews it again for its own gateways). */
  change = $state<FleetChange | null>(null);
  readonly #client: IpcClient;
  readonly #offs: Array<() => void>;
  /** Row positions by gateway id, so an update finds its row without scanning 1,000 rows. */
  #positions: Record<string, number> = {};
  #early: Array<Events['fleet:finished']> = [];

  constructor(client: IpcClient) {
    this.#client = client;
    this.#offs = [
      client.on('fleet:row', (event) => {
        if (event.jobId !== this.jobId) return;
        const position = this.#positions[event.row.gatewayId];
        if (position === undefined) return;
        this.rows[position] = event.row;
        this.counts = event.counts;
      }),
      client.on('fleet:finished', (event) => {
        // A small job can finish before its start answer arrives: keep the end until the job is known.
        if (event.jobId !== this.jobId) {
          this.#early = [...this.#early.slice(-7), event];
          return;
        }
        this.#finish(event);
      }),
    ];
  }

  /**
   * Asks main what a write would do, to how many gateways and how many at once (`concurrency`; none: main's
   * default for the change); null with `error` set when it cannot say.
   */
  async preview(
    change: FleetChange,
    targets: FleetTargets,
    concurrency?: number,
  ): Promise<FleetPreview | null> {
    this.error = null;
    const answer = await this.#client.invoke('fleet:preview', {
      change,
      ...targets,
      ...(concurrency === undefined ? {} : { concurrency }),
    });
    if (!answer.ok) {
      this.error = describeIpcError(answer.error);
      return null;
    }
    return answer.value;
  }

  /** Starts a job over chosen gateways or a whole group, with the confirmation of its preview. */
  async start(input: ChannelInput<'fleet:start'>): Promise<void> {
    this.error = null;
    this.message = null;
    const answer = await this.#client.invoke('fleet:start', input);
    if (answer.ok) this.change = input.change;
    this.#take(answer);
  }

  /** The gateways a retry goes to: the failed, unknown and cancelled rows (and, if asked, the skipped). */
  retryTargets(includeSkipped = false): Array<{ gatewayId: string; name?: string }> {
    const wanted: Array<FleetRow['status']> = ['failed', 'unknown', 'cancelled'];
    if (includeSkipped) wanted.push('skipped');
    return this.rows
      .filter((row) => wanted.includes(row.status))
      .map((row) => ({ gatewayId: row.gatewayId, ...(row.name ? { name: row.name } : {}) }));
  }

  /** Starts a new job over retryTargets() of the last one, with the confirmation of its own preview. */
  async retryFailed(
    includeSkipped: boolean,
    confirmation: ChannelInput<'fleet:retry-failed'>['confirmation'],
  ): Promise<void> {
    if (!this.jobId) return;
    this.error = null;
    this.message = null;
    const answer = await this.#client.invoke('fleet:retry-failed', {
      jobId: this.jobId,
      includeSkipped,
      confirmation,
    });
    this.#take(answer);
  }

  /** Stops starting gateways; those under way finish their attempt, the rest end `cancelled`. */
  async cancel(): Promise<void> {
    if (this.jobId) await this.#client.invoke('call:cancel', { callId: this.jobId });
  }

  /** Stops listening to events. */
  dispose(): void {
    for (const off of this.#offs) off();
  }

  #take(answer: Result<ChannelOutput<'fleet:start' | 'fleet:retry-failed'>>): void {
    if (!answer.ok) {
      this.error = describeIpcError(answer.error);
      return;
    }
    const started = answer.value;
    this.jobId = started.jobId;
    this.description = started.description;
    this.#setRows(started.rows);
    this.counts = countRows(started.rows);
    this.isRunning = true;
    const early = this.#early.find((event) => event.jobId === started.jobId);
    if (early) this.#finish(early);
  }

  #finish(event: Events['fleet:finished']): void {
    this.#setRows(event.rows);
    this.counts = event.counts;
    this.message = event.message;
    this.isRunning = false;
  }

  #setRows(rows: FleetRow[]): void {
    this.rows = rows;
    this.#positions = Object.fromEntries(rows.map((row, index) => [row.gatewayId, index]));
  }
}
