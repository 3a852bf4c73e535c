import { randomUUID } from 'node:crypto';
import {
  gatewayCommands,
  type CommandName,
  type CommandRequest,
  type CommandResponse,
} from '../../shared/api';
import { CALL_TIME_LIMITS_MS } from '../../shared/api/timeouts';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';
import type { AuditEntry, AuditEntryInput, AuditSink } from '../audit';
import { CancelledError, describeError, isCancellation } from '../commissioning/gateway-errors';
import { assessCommand, requireConfirmed, type RiskConfirmation } from './risk-guards';

/** Per-call options of a gateway command: the caller's cancellation and a time limit that reach `fetch`. */
export interface CommandCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * What sends a gateway command on the wire (the signed-in session, or a test's gateway). Only CommandService
 * calls it: everything else sends through the service, which guards, audits and bounds the call.
 */
export interface GatewayCommander {
  command<Name extends CommandName>(
    gatewayId: string,
    name: Name,
    request?: CommandRequest<Name>,
    options?: CommandCallOptions,
  ): Promise<CommandResponse<Name>>;
}

/** Who sends, recorded with each entry: the profile, the user, and the run the command belongs to. */
export interface CommandCaller {
  profileId: string;
  user: string;
  runId?: string;
  /** The kind of the entry (default `command`). */
  kind?: AuditEntry['kind'];
}

/** One gateway command as the service sends it. */
export interface CommandCall<Name extends CommandName> extends CommandCallOptions {
  gatewayId: string;
  /** The gateway's name when the caller knows it: the visit journal names the gateway by id and name. */
  gatewayName?: string;
  name: Name;
  body?: CommandRequest<Name>;
  /**
   * Whom to record it for; absent: not recorded (a probe the app makes while it waits for a gateway). A change
   * is recorded `sent`, flushed to disk, before it leaves, then its outcome.
   */
  caller?: CommandCaller;
  /** A read the app makes by itself to follow a task (AuditEntry `automatic`); never true for a change. */
  isAutomatic?: boolean;
  /**
   * Present for a command typed by hand: refused (ConfirmationRequiredError, nothing sent) unless `confirmation`
   * covers its risk (assessCommand). The engines assess their changes themselves.
   */
  guard?: { confirmation?: RiskConfirmation };
  /** Records the answer with the outcome (the console's commands; the engines keep their own record of it). */
  recordsAnswer?: boolean;
  /** How a failure reads in the record (default describeError): the words the caller shows for it. */
  describeFailure?: (error: unknown) => string;
  /** Told when an outcome could not be recorded (the command's own answer still counts). */
  onRecordError?: (error: unknown) => void;
}

/** A change announced to the records before it leaves; `finish` records its outcome under the same id. */
export interface SentRecord {
  readonly sendId: string;
  finish(outcome: Omit<RecordedEntry, 'profileId' | 'sendId'>): Promise<void>;
}

/** An entry as the service records it: an audit entry of a profile, with the gateway's name when known. */
export type RecordedEntry = AuditEntryInput & { profileId: string; gatewayName?: string };

/** The second recorder (the visit journal): takes what the audit log takes; resolves once it is on the disk. */
export interface CommandJournal {
  append(entry: RecordedEntry): Promise<unknown>;
}

/** The audit log or the visit journal could not record a change before it left: nothing was sent. */
export class RecordUnavailableError extends Error {
  override readonly name = 'RecordUnavailableError';
  constructor(
    cause: unknown,
    readonly record: 'audit log' | 'visit journal' = 'audit log',
  ) {
    super(
      t(record === 'audit log' ? 'errors:auditLogNotWritten' : 'errors:visitJournalNotWritten', {
        reason: describeError(cause),
      }),
      { cause },
    );
  }
}

/** Where the service records: the audit log, and beside it an optional second recorder (the visit journal). */
export interface CommandServiceOptions {
  transport: GatewayCommander;
  audit?: AuditSink;
  /**
   * A second recorder fed the same entries as the audit log (the visit journal, VisitCommandJournal). A change is
   * on its disk too before it leaves: when it refuses, nothing is sent (RecordUnavailableError).
   */
  journal?: CommandJournal;
  clock?: Pick<Clock, 'now'>;
}

/**
 * The one way a gateway command leaves the app. Each call gets the caller's AbortSignal and a time limit (the
 * caller's, or CALL_TIME_LIMITS_MS.command), handed to the transport and down to `fetch`, so cancelling aborts
 * the request on the wire. A change is recorded `sent` and flushed to the disk before it is sent — if that
 * cannot be done, nothing is sent — and its outcome after; a read is recorded after its answer. A command typed
 * by hand is refused before anything is sent unless its confirmation covers its risk.
 */
export class CommandService {
  private readonly clock: Pick<Clock, 'now'>;

  constructor(private readonly options: CommandServiceOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** Sends one command and resolves with its validated answer (see the class for what is recorded). */
  async send<Name extends CommandName>(call: CommandCall<Name>): Promise<CommandResponse<Name>> {
    const { gatewayId, name, body, caller, signal } = call;
    const risk = gatewayCommands[name].risk;
    if (call.guard) requireConfirmed(assessCommand(name, body), call.guard.confirmation);
    if (signal?.aborted) throw new CancelledError();
    const timeoutMs = call.timeoutMs ?? CALL_TIME_LIMITS_MS.command;
    const startedAt = this.clock.now();
    const entry = {
      kind: caller?.kind ?? 'command',
      name,
      risk,
      request: body,
      gatewayId,
      ...(call.gatewayName === undefined ? {} : { gatewayName: call.gatewayName }),
      ...(caller?.runId === undefined ? {} : { runId: caller.runId }),
      ...(call.isAutomatic === true && risk === 'read' ? { automatic: true } : {}),
    } as const;
    const sent =
      caller && risk !== 'read' ? await this.recordSent(caller, { ...entry, at: startedAt }) : undefined;
    const finish = async (outcome: Partial<RecordedEntry> & Pick<RecordedEntry, 'outcome'>) => {
      if (!caller) return;
      const written = {
        ...entry,
        ...outcome,
        user: caller.user,
        at: startedAt,
        durationMs: this.elapsed(startedAt),
      };
      try {
        if (sent) await sent.finish(written);
        else await this.record({ ...written, profileId: caller.profileId });
      } catch (error) {
        call.onRecordError?.(error);
      }
    };
    try {
      const answer = await this.options.transport.command(gatewayId, name, body, { signal, timeoutMs });
      await finish({ outcome: 'ok', ...(call.recordsAnswer === true ? { response: answer } : {}) });
      return answer;
    } catch (error) {
      const cancelled = isCancellation(error) || signal?.aborted === true;
      await finish({
        outcome: cancelled ? 'cancelled' : 'failed',
        error: (call.describeFailure ?? describeError)(error),
      });
      throw error;
    }
  }

  /**
   * Records a change as `sent` in the visit journal, then in the audit log, and resolves once both are on the disk;
   * rejects with RecordUnavailableError when either cannot take it, and the caller must then not send (a journal
   * that took it is told it failed: nothing left). `finish` records the outcome.
   */
  async recordSent(
    caller: Pick<CommandCaller, 'profileId' | 'user'>,
    entry: Omit<RecordedEntry, 'outcome' | 'user' | 'durationMs' | 'profileId'> & { at: number },
  ): Promise<SentRecord> {
    const sendId = randomUUID();
    const base = { ...entry, profileId: caller.profileId, user: caller.user, sendId };
    const { gatewayName: _gatewayName, ...audited } = base;
    try {
      await this.options.journal?.append({ ...base, outcome: 'sent', durationMs: 0 });
    } catch (error) {
      throw new RecordUnavailableError(error, 'visit journal');
    }
    if (this.options.audit) {
      try {
        await this.options.audit.append({ ...audited, outcome: 'sent', durationMs: 0 });
      } catch (error) {
        const refused = new RecordUnavailableError(error);
        await this.options.journal
          ?.append({ ...base, outcome: 'failed', durationMs: 0, error: refused.message })
          .catch(() => undefined);
        throw refused;
      }
    }
    return {
      sendId,
      finish: (outcome) => this.record({ ...outcome, profileId: caller.profileId, sendId }),
    };
  }

  /** A commander over this service: each command sent with `caller` (absent: unrecorded) and its options. */
  commander(caller?: CommandCaller, how: { isAutomatic?: boolean } = {}): GatewayCommander {
    return {
      command: (gatewayId, name, body, options = {}) =>
        this.send({ gatewayId, name, body, caller, ...options, ...how }),
    };
  }

  /**
   * Records one entry that is not a change about to leave (an outcome, a wizard step, a fleet row): in the audit
   * log and the visit journal, both tried; rejects with the first failure once both have been tried.
   */
  async record(entry: RecordedEntry): Promise<void> {
    const { gatewayName: _gatewayName, ...audited } = entry;
    const [audit, journal] = await Promise.allSettled([
      this.options.audit?.append(audited),
      this.options.journal?.append(entry),
    ]);
    if (audit.status === 'rejected') throw audit.reason;
    if (journal.status === 'rejected') throw journal.reason;
  }

  private elapsed(startedAt: number): number {
    return Math.max(0, this.clock.now() - startedAt);
  }
}
