import { randomUUID } from 'node:crypto';
import { EventEmitter, setMaxListeners } from 'node:events';
import type { FleetJobOptions } from './fleet-job-options';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { gatewayCommands } from '../../shared/api';
import { FleetRowStatusSchema } from '../../shared/ipc/domains/fleet';
import { ApiError } from '../api';
import { t } from '../../shared/i18n';
import { recorded, writeRecorded, type RecordedMessage } from '../../shared/i18n/recorded-message';
import { describeErrorRecord, isCancellation, isTransient } from '../commissioning/gateway-errors';
import { CommandService, type SentRecord } from '../commands/command-service';
import { requireConfirmed, type RiskConfirmation } from '../commands/risk-guards';
import { assessFleetChange } from './fleet-risk';
import type { GatewayCommander } from '../commissioning/types';
import {
  applyChange,
  isChangeApplied,
  validateChange,
  type ChangeAttemptNotes,
  type FleetChange,
  type GatewayChangeOutcome,
} from './fleet-changes';
import { followUpgrade, versionsBefore, type RequestedUpgrade } from './fleet-upgrade';
import {
  defaultFleetConcurrency,
  FLEET_MAX_ATTEMPTS,
  FLEET_OFFLINE_ATTEMPTS,
  FLEET_RETRY_DELAY_MS,
  FLEET_RETRY_MAX_DELAY_MS,
} from './fleet-limits';
import {
  describeFleetResult,
  type FleetCounts,
  type FleetResult,
  type FleetRow,
  type FleetRowStatus,
  type FleetTarget,
} from './fleet-table';

/** Listeners one command in flight adds to the job's abort signal, at most (commander, API client, a margin). */
const CANCEL_LISTENERS_PER_COMMAND = 3;

/** Events a UI renders: each row as it changes (with counts), and the result. */
interface FleetJobEvents {
  row: [{ jobId: string; row: FleetRow; counts: FleetCounts }];
  finished: [FleetResult];
}

export type { FleetJobOptions } from './fleet-job-options';

const STATUSES = FleetRowStatusSchema.options;

/**
 * Applies one change to many gateways with bounded concurrency. Each gateway is read, changed where it differs
 * and read back; transient failures (408, 5xx, network) are retried with exponential backoff and jitter; a
 * gateway that never answers before anything is sent ends `skipped` (offline), a refusal ends `failed` with the
 * reason in words. A row whose change went out without a confirmed answer reads the gateway back and says what
 * is true: `done` (verified), `failed` (not applied) or `unknown` (it could not be read). A software upgrade is
 * followed through its install and restart until the gateway answers and its versions read back (followUpgrade);
 * a gateway that does not come back in time ends `unknown`, never `done`. Cancelling stops
 * starting gateways and marks them `cancelled`. Nothing is dropped: the result has exactly one row per input
 * gateway, in input order (duplicates in the input are merged). The constructor throws
 * ConfirmationRequiredError unless `confirmation` names the gateway count and covers the change's risk.
 */
export class FleetJob extends EventEmitter<FleetJobEvents> {
  readonly jobId: string;
  private readonly rows: FleetRow[];
  private readonly clock: Clock;
  private readonly controller = new AbortController();
  /** Every command of the job goes through it; a row's first change is recorded `sent` before it leaves. */
  private readonly commands: CommandService;
  /** The `sent` record of each row whose change went out, finished when the row settles. */
  private readonly sentRecords = new Map<string, SentRecord>();
  private running: Promise<FleetResult> | undefined;
  private commandsSent = 0;
  /** Rows by status, kept as rows change (a 1,000-gateway job updates rows thousands of times). */
  private readonly tally = Object.fromEntries(STATUSES.map((status) => [status, 0])) as FleetCounts;

  constructor(
    readonly change: FleetChange,
    targets: FleetTarget[],
    private readonly options: FleetJobOptions,
  ) {
    super();
    this.jobId = options.jobId ?? randomUUID();
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.commands = new CommandService({
      transport: options.commander,
      audit: options.audit,
      journal: options.journal,
      clock: this.clock,
    });
    const seen = new Set<string>();
    this.rows = [];
    for (const target of targets) {
      if (seen.has(target.gatewayId)) continue;
      seen.add(target.gatewayId);
      this.rows.push({
        gatewayId: target.gatewayId,
        name: target.name,
        status: 'pending',
        attempts: 0,
        durationMs: 0,
      });
      const row = this.rows.at(-1) as FleetRow;
      if (target.status === 'OFFLINE') {
        row.status = 'skipped';
        row.reason = t('fleet:rowOfflineListed');
      }
      this.tally[row.status]++;
    }
    requireConfirmed(assessFleetChange(change, this.rows.length), options.confirmation, this.rows.length);
    options.signal?.addEventListener('abort', () => this.cancel(), { once: true });
  }

  /** The table as it stands (copies). */
  get table(): FleetRow[] {
    return this.rows.map((row) => ({ ...row }));
  }

  /**
   * Stops starting gateways; those under way finish their current attempt, and an upgrade being followed stops
   * being followed (its row ends `unknown`: the gateway finishes what it started).
   */
  cancel(): void {
    this.controller.abort();
  }

  /** Runs the job once (later calls return the same promise). */
  run(): Promise<FleetResult> {
    this.running ??= this.execute();
    return this.running;
  }

  /** The gateways a retry goes to: those failed, unknown or cancelled (and, if asked, those skipped as offline). */
  retryTargets(options: { includeSkipped?: boolean } = {}): FleetTarget[] {
    const wanted = new Set<FleetRowStatus>([
      'failed',
      'unknown',
      'cancelled',
      ...(options.includeSkipped ? (['skipped'] as const) : []),
    ]);
    return this.rows
      .filter((row) => wanted.has(row.status))
      .map((row) => ({ gatewayId: row.gatewayId, name: row.name }));
  }

  /**
   * A new job over retryTargets(); it needs its own confirmation, for its own gateway count. It works on the
   * default number of gateways at once for its own count (defaultFleetConcurrency), as its preview says.
   */
  retryFailed(options: { includeSkipped?: boolean; confirmation?: RiskConfirmation } = {}): FleetJob {
    return new FleetJob(this.change, this.retryTargets(options), {
      ...this.options,
      jobId: undefined,
      signal: undefined,
      concurrency: undefined,
      confirmation: options.confirmation,
    });
  }

  private async execute(): Promise<FleetResult> {
    const startedAt = this.clock.now();
    const problems = validateChange(this.change);
    if (problems.length > 0) {
      for (const row of this.rows)
        this.update(row, {
          status: 'failed',
          ...say(recorded('fleet:rowInvalid', { problems: problems.join('; ') })),
        });
      return this.finish(startedAt);
    }
    let next = 0;
    const worker = async () => {
      for (;;) {
        const row = this.rows[next++];
        if (!row) return;
        if (row.status !== 'pending') continue;
        if (this.controller.signal.aborted) {
          this.update(row, { status: 'cancelled', ...say(recorded('fleet:rowCancelledBefore')) });
          continue;
        }
        await this.processRow(row);
      }
    };
    const reachable = this.rows.filter((row) => row.status === 'pending').length;
    const concurrency = Math.max(
      1,
      Math.min(
        this.options.concurrency ?? defaultFleetConcurrency(this.change, reachable),
        this.rows.length || 1,
      ),
    );
    // Each command in flight listens for the job's cancellation (the commander and the API client, once each):
    // that many listeners per worker is the design, not a leak for Node to warn about.
    setMaxListeners(Math.max(10, CANCEL_LISTENERS_PER_COMMAND * concurrency), this.controller.signal);
    await Promise.all(Array.from({ length: concurrency }, worker));
    return this.finish(startedAt);
  }

  private async processRow(row: FleetRow): Promise<void> {
    const startedAt = this.clock.now();
    this.update(row, { status: 'running' });
    const maxAttempts = this.options.maxAttempts ?? FLEET_MAX_ATTEMPTS;
    const offlineAttempts = this.options.offlineAttempts ?? FLEET_OFFLINE_ATTEMPTS;
    const signal = this.controller.signal;
    // A change sent by an attempt whose answer was lost makes the next attempt find "already set": still ours.
    let sentChange = false;
    const notes: ChangeAttemptNotes = {};
    const commander: GatewayCommander = {
      command: async (gatewayId, name, request, callOptions) => {
        if (gatewayCommands[name].risk !== 'read') {
          // Recorded (and on the disk) before the change leaves: a crash from here on reads back as unknown.
          if (!this.sentRecords.has(row.gatewayId))
            this.sentRecords.set(row.gatewayId, await this.announce(row, startedAt));
          sentChange = true;
        }
        this.commandsSent++;
        return this.commands.send({ gatewayId, name, body: request, ...callOptions });
      },
    };
    let delayMs = this.options.retryDelayMs ?? FLEET_RETRY_DELAY_MS;
    let lastError: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      row.attempts = attempt;
      try {
        const outcome: GatewayChangeOutcome = await applyChange(commander, row.gatewayId, this.change, {
          signal,
          timeoutMs: this.options.commandTimeoutMs,
          notes,
        });
        if (outcome.upgrade) {
          await this.settleUpgrade(row, startedAt, commander, outcome.upgrade, outcome.detail);
          return;
        }
        const changedEarlier = !outcome.changed && sentChange;
        await this.settle(row, startedAt, {
          status: outcome.changed || changedEarlier ? 'done' : 'unchanged',
          words: changedEarlier ? recorded('fleet:rowAppliedOnRetry') : outcome.detail,
          ...(changedEarlier ? { after: outcome.after } : { before: outcome.before, after: outcome.after }),
        });
        return;
      } catch (error) {
        lastError = error;
        if ((isCancellation(error) || signal.aborted) && notes.requestedUpgrade) {
          await this.settle(row, startedAt, {
            status: 'unknown',
            words: recorded('fleet:rowUpgradeCancelled'),
            before: versionsBefore(notes.requestedUpgrade),
          });
          return;
        }
        if (isCancellation(error) || signal.aborted) {
          await this.settle(row, startedAt, {
            status: 'cancelled',
            words: recorded('fleet:rowCancelledDuring'),
          });
          return;
        }
        if (!isTransient(error) || attempt >= (isGatewayOffline(error) ? offlineAttempts : maxAttempts))
          break;
        const jitter = 0.5 + (this.options.random ?? Math.random)();
        try {
          await this.clock.sleep(
            Math.min(delayMs * jitter, this.options.retryMaxDelayMs ?? FLEET_RETRY_MAX_DELAY_MS),
            signal,
          );
        } catch {
          await this.settle(row, startedAt, {
            status: 'cancelled',
            words: recorded('fleet:rowCancelledRetry'),
          });
          return;
        }
        delayMs *= 2;
      }
    }
    const attempts = recorded('fleet:attempts', { count: row.attempts });
    // The upgrade went out but its answer was lost: following it is the read-back.
    if (notes.requestedUpgrade)
      await this.settleUpgrade(
        row,
        startedAt,
        commander,
        notes.requestedUpgrade,
        recorded('fleet:rowUpgradeAnswerLost'),
      );
    else if (sentChange) await this.settleAfterReadBack(row, startedAt, { commander, lastError, attempts });
    else if (isGatewayOffline(lastError))
      await this.settle(row, startedAt, {
        status: 'skipped',
        words: recorded('fleet:rowOffline', { attempts }),
      });
    else
      await this.settle(row, startedAt, {
        status: 'failed',
        words: recorded('fleet:rowFailed', { reason: describeErrorRecord(lastError), attempts }),
      });
  }

  /**
   * An upgrade the gateway accepted: the row stays `running` (its reason says what the gateway does now) while
   * followUpgrade waits through the install and restart, then settles as it read the versions back.
   */
  private async settleUpgrade(
    row: FleetRow,
    startedAt: number,
    commander: GatewayCommander,
    requested: RequestedUpgrade,
    detail: RecordedMessage,
  ): Promise<void> {
    this.update(row, say(detail));
    const outcome = await followUpgrade(commander, row.gatewayId, requested, {
      clock: this.clock,
      signal: this.controller.signal,
      commandTimeoutMs: this.options.commandTimeoutMs,
      timeoutMs: this.options.gatewayReturnTimeoutMs,
      pollIntervalMs: this.options.pollIntervalMs,
      onProgress: (words) => this.update(row, { reason: words }),
    });
    await this.settle(row, startedAt, outcome);
  }

  /**
   * A change went out and no attempt saw it confirmed (its answer lost, a 5xx or a timeout after sending, or a
   * read-back that differed): read the gateway again and say what is true — never "failed" for a change that
   * may hold.
   */
  private async settleAfterReadBack(
    row: FleetRow,
    startedAt: number,
    {
      commander,
      lastError,
      attempts,
    }: { commander: GatewayCommander; lastError: unknown; attempts: RecordedMessage },
  ): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? FLEET_MAX_ATTEMPTS;
    const offlineAttempts = this.options.offlineAttempts ?? FLEET_OFFLINE_ATTEMPTS;
    let readError: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        const isApplied = await isChangeApplied(commander, row.gatewayId, this.change, {
          signal: this.controller.signal,
          timeoutMs: this.options.commandTimeoutMs,
        });
        await this.settle(
          row,
          startedAt,
          isApplied
            ? {
                status: 'done',
                words: recorded('fleet:rowAppliedAnswerLost', {
                  reason: describeErrorRecord(lastError),
                  attempts,
                }),
              }
            : {
                status: 'failed',
                words: recorded('fleet:rowNotApplied', { reason: describeErrorRecord(lastError), attempts }),
              },
        );
        return;
      } catch (error) {
        readError = error;
        if (this.controller.signal.aborted || !isTransient(error)) break;
        if (attempt >= (isGatewayOffline(error) ? offlineAttempts : maxAttempts)) break;
        try {
          await this.clock.sleep(this.options.retryDelayMs ?? FLEET_RETRY_DELAY_MS, this.controller.signal);
        } catch {
          break;
        }
      }
    }
    await this.settle(row, startedAt, {
      status: 'unknown',
      words: recorded('fleet:rowUnconfirmed', {
        reason: describeErrorRecord(lastError),
        readError: describeErrorRecord(readError),
      }),
    });
  }

  /** The row's audit entry as far as it is known before its change is sent. */
  private rowEntry(row: FleetRow, startedAt: number) {
    return {
      user: this.options.user,
      gatewayId: row.gatewayId,
      ...(row.name === undefined ? {} : { gatewayName: row.name }),
      kind: 'fleet',
      name: this.change.kind,
      risk:
        this.change.kind === 'softwareUpgrade' || this.change.kind === 'firewall' ? 'disruptive' : 'change',
      request: this.change,
      runId: this.jobId,
      at: startedAt,
    } as const;
  }

  /** Records that the row's change goes out; rejects (nothing may be sent) when the audit log cannot take it. */
  private announce(row: FleetRow, startedAt: number): Promise<SentRecord> {
    return this.commands.recordSent(
      { profileId: this.options.profileId, user: this.options.user },
      this.rowEntry(row, startedAt),
    );
  }

  private async settle(
    row: FleetRow,
    startedAt: number,
    settled: Omit<Partial<FleetRow>, 'reason'> & { words: RecordedMessage },
  ): Promise<void> {
    const { words, ...changes } = settled;
    this.update(row, { ...changes, ...say(words), durationMs: this.clock.now() - startedAt });
    const sent = this.sentRecords.get(row.gatewayId);
    this.sentRecords.delete(row.gatewayId);
    if (!this.options.audit && !this.options.journal) return;
    try {
      const entry = {
        ...this.rowEntry(row, startedAt),
        outcome:
          row.status === 'done' || row.status === 'unchanged'
            ? 'ok'
            : row.status === 'cancelled' || row.status === 'unknown'
              ? row.status
              : 'failed',
        durationMs: row.durationMs,
        // `words`: the reason as data, so the report can write it in its own language.
        ...(row.status === 'done' || row.status === 'unchanged'
          ? { response: { message: row.reason, words } }
          : { error: row.reason, response: { words } }),
        ...(row.before === undefined ? {} : { before: row.before }),
        ...(row.after === undefined ? {} : { after: row.after }),
      } as const;
      if (sent) await sent.finish(entry);
      else await this.commands.record({ ...entry, profileId: this.options.profileId });
    } catch {
      // The table still has the row; a failing audit log must not turn a done gateway into a failed one.
    }
  }

  private update(row: FleetRow, changes: Partial<FleetRow>): void {
    this.tally[row.status]--;
    Object.assign(row, changes);
    this.tally[row.status]++;
    this.emit('row', { jobId: this.jobId, row: { ...row }, counts: this.counts() });
  }

  private counts(): FleetCounts {
    return { ...this.tally };
  }

  private finish(startedAt: number): FleetResult {
    const counts = this.counts();
    const result: FleetResult = {
      jobId: this.jobId,
      change: this.change,
      rows: this.table,
      counts,
      message: describeFleetResult(this.change, this.rows.length, counts),
      durationMs: this.clock.now() - startedAt,
      commandsSent: this.commandsSent,
    };
    this.emit('finished', result);
    return result;
  }
}

/** A row's reason in the current language (its data goes to the audit record with the row's end). */
function say(words: RecordedMessage): Pick<FleetRow, 'reason'> {
  return { reason: writeRecorded(words) };
}

/** The server answered that the gateway did not (408): the gateway is offline, not the server or the network. */
function isGatewayOffline(error: unknown): boolean {
  return error instanceof ApiError && error.status === 408;
}
