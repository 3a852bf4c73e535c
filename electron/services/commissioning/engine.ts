import { randomUUID } from 'node:crypto';
import { AuditedGateway, type GatewayRunEvent, type GatewayRunOptions } from './audited-gateway';
import {
  CancelledError,
  describeErrorRecord,
  GatewayUnreachableError,
  isCancellation,
  isUnresponsive,
} from './gateway-errors';
import type { WizardResult as SharedWizardResult } from '../../shared/ipc/domains/wizards';
import { t } from '../../shared/i18n';
import { recorded, writeRecorded, type RecordedMessage } from '../../shared/i18n/recorded-message';
import type { Change, Check, Guard, Review, WizardDefinition, WizardStep } from './types';

/** How long verification may take by default (the modem needs seconds to attach). */
export const VERIFY_TIMEOUT_MS = 90_000;
/** Steps recorded in the audit log as they start (reading and the result are recorded on their own). */
const AUDITED_STEPS = new Set<WizardStep>(['backing-up', 'applying', 'waiting', 'verifying', 'rolling-back']);
/** Longest backup description the gateway takes. */
const BACKUP_DESCRIPTION_MAX = 128;

/** How a wizard run ended. */
export type WizardOutcome = WizardResult['outcome'];

/** The end of a run, said in words, with what changed and what was checked (and how a rollback went). */
export type WizardResult = SharedWizardResult;

/** What a UI renders as a wizard run goes. */
export type WizardEvent = GatewayRunEvent<WizardResult>;

/** What every wizard run needs: who, where to audit, how to reach the gateway, and its time limits. */
export type WizardRunOptions = GatewayRunOptions;

/** Apply was refused because a guard was not confirmed with its exact text. */
export class GuardNotConfirmedError extends Error {
  override readonly name = 'GuardNotConfirmedError';
  constructor(readonly guards: Guard[]) {
    super(
      t('wizards:guardNotConfirmed', {
        guards: guards
          .map((guard) =>
            t('wizards:guardQuoted', { confirmation: guard.confirmationText, warning: guard.warning }),
          )
          .join('; '),
      }),
    );
  }
}

/** Apply was refused because the edit has problems. */
export class EditRejectedError extends Error {
  override readonly name = 'EditRejectedError';
  constructor(readonly problems: string[]) {
    super(t('wizards:editRejected', { problems: problems.join('; ') }));
  }
}

/** The backup description the engine gives its safety backups: `fieldkit-before-<wizard>-<ISO time>`. */
export function safetyBackupName(wizard: string, at: number): string {
  return `fieldkit-before-${wizard}-${new Date(at).toISOString()}`.slice(0, BACKUP_DESCRIPTION_MAX);
}

/**
 * One run of a wizard on one gateway, as a state machine a UI can follow through `event`s: `read()` fetches the
 * current state (step `editing` after it), `review(edit)` computes the diff, warnings and guards (`reviewing`),
 * `apply(edit, confirmations)` backs up (disruptive wizards), applies, waits through a gateway that stops
 * answering, verifies within a time limit, rolls back when verification fails (previous values, else the
 * backup) and ends in `finished` with a result that says what happened. `cancel()` stops at the next step;
 * after apply started, cancelling also puts the previous values back. Every command and step is audited.
 */
export class WizardRun<State, Edit> extends AuditedGateway<WizardResult> {
  private currentState: State | undefined;
  private readonly controller = new AbortController();
  private finished: WizardResult | undefined;

  constructor(
    readonly definition: WizardDefinition<State, Edit>,
    gatewayId: string,
    options: WizardRunOptions,
  ) {
    super(gatewayId, options.runId ?? randomUUID(), options);
    if (options.signal) {
      if (options.signal.aborted) this.controller.abort(new CancelledError());
      else options.signal.addEventListener('abort', () => this.cancel(), { once: true });
    }
  }

  /** Announces a step; the steps of an apply (backup, apply, wait, verify, roll back) also go to the audit log. */
  override setStep(step: WizardStep, message: string): void {
    super.setStep(step, message);
    if (AUDITED_STEPS.has(step))
      void this.audit({
        name: `${this.definition.name}:${step}`,
        outcome: 'ok',
        startedAt: this.clock.now(),
        response: { message },
      });
  }

  /** The state read by `read()`, if any. */
  get state(): State | undefined {
    return this.currentState;
  }

  /** The result once finished. */
  get result(): WizardResult | undefined {
    return this.finished;
  }

  /** Stops the run at the next step (an apply under way rolls back first). */
  cancel(): void {
    this.controller.abort(new CancelledError());
  }

  /** Reads the gateway's current state (waiting through a gateway that does not answer). */
  async read(): Promise<State> {
    this.setStep('reading', t('wizards:stepReading', { title: t(this.definition.title) }));
    const startedAt = this.clock.now();
    try {
      const state = await this.definition.read(this.context(this.controller.signal));
      this.currentState = state;
      await this.audit({ name: `${this.definition.name}:read`, outcome: 'ok', startedAt, after: state });
      this.setStep('editing', t('wizards:stepEditing'));
      return state;
    } catch (error) {
      // As a run's result: the error in words for the log, and as data (`response.words`) for the report.
      const words = describeErrorRecord(error);
      await this.audit({
        name: `${this.definition.name}:read`,
        outcome: isCancellation(error) ? 'cancelled' : 'failed',
        startedAt,
        error: writeRecorded(words),
        response: { words },
      });
      this.setStep('idle', t('wizards:readFailed', { reason: writeRecorded(words) }));
      throw error;
    }
  }

  /** The diff, warnings, guards and problems of an edit against the state read. */
  review(edit: Edit): Review<Edit> {
    const state = this.requireState();
    const environment = this.options.environment ?? {};
    const review: Review<Edit> = {
      edit,
      changes: this.definition.changes(state, edit),
      warnings: this.definition.warnings(state, edit, environment, this.gatewayId),
      guards: this.definition.guards(state, edit, environment, this.gatewayId),
      problems: this.definition.validate(state, edit),
      isDisruptive: this.definition.isDisruptive,
    };
    this.setStep('reviewing', t('wizards:stepReviewing', { count: review.changes.length }));
    return review;
  }

  /**
   * Applies the edit safely and resolves with the result (it does not throw for a failed apply or verification:
   * the result says so). Throws GuardNotConfirmedError / EditRejectedError before anything is sent.
   */
  async apply(edit: Edit, confirmations: Record<string, string> = {}): Promise<WizardResult> {
    const state = this.requireState();
    const review = this.review(edit);
    if (review.problems.length > 0) throw new EditRejectedError(review.problems);
    const unconfirmed = review.guards.filter((guard) => confirmations[guard.id] !== guard.confirmationText);
    if (unconfirmed.length > 0) throw new GuardNotConfirmedError(unconfirmed);
    const startedAt = this.clock.now();
    const base = { runId: this.runId, wizard: this.definition.name, gatewayId: this.gatewayId };
    if (review.changes.length === 0) {
      return this.finish(startedAt, {
        ...base,
        outcome: 'unchanged',
        words: recorded('wizards:resultUnchanged'),
        changes: [],
        checks: [],
      });
    }
    const signal = this.controller.signal;
    let backup: WizardResult['backup'];
    let applyStarted = false;
    try {
      if (this.definition.isDisruptive) backup = await this.createSafetyBackup(signal);
      this.setStep('applying', t('wizards:stepApplying', { count: review.changes.length }));
      applyStarted = true;
      try {
        await this.definition.apply(this.context(signal), state, edit);
      } catch (error) {
        if (!isUnresponsive(error)) throw error;
        await this.waitForReturn(signal, t('wizards:reasonSilentDuringChange'), error);
      }
      this.setStep('verifying', t('wizards:stepVerifying'));
      const checks = await this.verifyWithin(signal, state, edit);
      if (checks.every((check) => check.ok)) {
        return this.finish(startedAt, {
          ...base,
          outcome: 'applied',
          words: recorded('wizards:resultApplied', { details: joinRecords(checks.map(detailRecord)) }),
          changes: review.changes,
          checks,
          backup,
        });
      }
      const failed = checks.filter((check) => !check.ok);
      return await this.rollBack(startedAt, state, edit, {
        ...base,
        changes: review.changes,
        checks,
        backup,
        reason: recorded('wizards:reasonVerificationFailed', {
          checks: joinRecords(
            failed.map((check) =>
              recorded('wizards:checkLine', { name: nameRecord(check), detail: detailRecord(check) }),
            ),
          ),
        }),
      });
    } catch (error) {
      const cancelled = isCancellation(error) || signal.aborted;
      if (error instanceof GatewayUnreachableError && applyStarted) {
        return this.finish(startedAt, {
          ...base,
          outcome: 'failed',
          words: backup
            ? recorded('wizards:resultUnreachableWithBackup', {
                reason: error.record,
                backup: backup.description,
              })
            : recorded('wizards:resultUnreachable', { reason: error.record }),
          changes: review.changes,
          checks: [],
          backup,
        });
      }
      if (!applyStarted) {
        return this.finish(startedAt, {
          ...base,
          outcome: cancelled ? 'cancelled' : 'failed',
          words: cancelled
            ? recorded('wizards:resultCancelledBefore')
            : backup
              ? recorded('wizards:resultNothingChanged', { reason: describeErrorRecord(error) })
              : recorded('wizards:resultNoBackup', { reason: describeErrorRecord(error) }),
          changes: review.changes,
          checks: [],
          backup,
        });
      }
      return await this.rollBack(startedAt, state, edit, {
        ...base,
        changes: review.changes,
        checks: [],
        backup,
        cancelled,
        reason: cancelled
          ? recorded('wizards:reasonCancelledDuring')
          : recorded('wizards:reasonChangeFailed', { reason: describeErrorRecord(error) }),
      });
    }
  }

  private async rollBack(
    startedAt: number,
    state: State,
    edit: Edit,
    details: Omit<WizardResult, 'outcome' | 'message'> & { reason: RecordedMessage; cancelled?: boolean },
  ): Promise<WizardResult> {
    const { reason, cancelled, ...result } = details;
    this.setStep('rolling-back', writeRecorded(recorded('wizards:stepRollingBack', { reason })));
    // Rolling back must not be stopped by the cancel that may have caused it; it is bounded by its own waits.
    const signal = new AbortController().signal;
    const context = this.context(signal);
    const restored = async (): Promise<boolean> => {
      const now = await this.definition.read(context);
      return this.definition.changes(state, this.definition.editOf(now)).length === 0;
    };
    let valuesError: unknown;
    try {
      try {
        await this.definition.rollback(context, state, edit);
      } catch (error) {
        if (!isUnresponsive(error)) throw error;
        await this.waitForReturn(signal, t('wizards:reasonSilentDuringRollback'), error);
      }
      if (await restored()) {
        const described = cancelled
          ? undefined
          : await this.describeRollback(signal, state, edit, result.checks);
        return this.finish(startedAt, {
          ...result,
          outcome: cancelled ? 'cancelled' : 'rolled-back',
          rollback: 'values',
          words: described ?? recorded('wizards:resultRolledBack', { reason }),
        });
      }
      valuesError = recorded('wizards:rollbackStillNew');
    } catch (error) {
      valuesError = error;
    }
    if (result.backup?.index !== undefined) {
      try {
        this.progress(t('wizards:progressRestoringBackup', { backup: result.backup.description }));
        await context.command('restoreBackup', { index: result.backup.index });
        await this.waitForReturn(signal, t('wizards:reasonRestartsAfterRestore'));
        // A gateway may answer for a moment before it restarts: read until the previous values show, within limits.
        const { isDone } = await this.context(
          signal,
          this.clock.now() + (this.options.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS),
        ).poll(restored, (isRestored) => isRestored, {
          timeoutMs: Number.POSITIVE_INFINITY,
          intervalMs: 5_000,
        });
        if (isDone) {
          return this.finish(startedAt, {
            ...result,
            outcome: cancelled ? 'cancelled' : 'rolled-back',
            rollback: 'backup',
            words: recorded('wizards:resultRestoredBackup', {
              reason,
              failure: errorRecord(valuesError),
              backup: result.backup.description,
            }),
          });
        }
      } catch (error) {
        valuesError = recorded('wizards:rollbackBackupFailedToo', {
          failure: errorRecord(valuesError),
          reason: describeErrorRecord(error),
        });
      }
    }
    return this.finish(startedAt, {
      ...result,
      outcome: 'rollback-failed',
      words: result.backup
        ? recorded('wizards:resultRollbackFailedWithBackup', {
            reason,
            failure: errorRecord(valuesError),
            backup: result.backup.description,
          })
        : recorded('wizards:resultRollbackFailed', { reason, failure: errorRecord(valuesError) }),
    });
  }

  /** The wizard's own words for a rollback after failed checks, if it has any; a failure to say keeps the engine's. */
  private async describeRollback(
    signal: AbortSignal,
    state: State,
    edit: Edit,
    checks: Check[],
  ): Promise<RecordedMessage | undefined> {
    if (!this.definition.describeRollback || checks.every((check) => check.ok)) return undefined;
    const verifyTimeoutMs = this.options.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS;
    try {
      return await this.definition.describeRollback(
        this.context(signal, this.clock.now() + verifyTimeoutMs),
        state,
        edit,
        { checks, verifyTimeoutMs },
      );
    } catch {
      return undefined;
    }
  }

  private async createSafetyBackup(signal: AbortSignal): Promise<NonNullable<WizardResult['backup']>> {
    const description = safetyBackupName(this.definition.name, this.clock.now());
    this.setStep('backing-up', t('wizards:stepBackingUp', { backup: description }));
    const context = this.context(signal);
    const answer = await context.command('createBackup', { description });
    const answered = (answer as { index?: unknown } | null)?.index;
    if (typeof answered === 'number') return { description, index: answered };
    const { backups } = await context.command('getBackups', {});
    const found = backups.filter((item) => item.description === description).at(-1);
    return { description, index: found?.index };
  }

  private async verifyWithin(signal: AbortSignal, state: State, edit: Edit): Promise<Check[]> {
    const deadlineAt = this.clock.now() + (this.options.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS);
    const context = this.context(signal, deadlineAt);
    const checks = await this.definition.verify(context, state, edit);
    for (const check of checks) this.emitEvent({ type: 'check', check });
    return checks;
  }

  private async finish(
    startedAt: number,
    details: Omit<WizardResult, 'message'> & { words: RecordedMessage },
  ): Promise<WizardResult> {
    const { words, ...rest } = details;
    // The result carries words in the current language; their data goes to the audit record only.
    const result: WizardResult = {
      ...rest,
      message: writeRecorded(words),
      changes: rest.changes.map(({ path, label, before, after }) => ({ path, label, before, after })),
      checks: rest.checks.map(({ name, ok, detail }) => ({ name, ok, detail })),
    };
    const isOk = result.outcome === 'applied' || result.outcome === 'unchanged';
    await this.audit({
      name: this.definition.name,
      outcome: result.outcome === 'cancelled' ? 'cancelled' : isOk ? 'ok' : 'failed',
      startedAt,
      before: Object.fromEntries(result.changes.map((change) => [change.path, change.before])),
      after: Object.fromEntries(result.changes.map((change) => [change.path, change.after])),
      ...(isOk ? {} : { error: result.message }),
      response: {
        outcome: result.outcome,
        checks: result.checks,
        backup: result.backup,
        rollback: result.rollback,
        // The settings in words, for the site report (before and after are keyed by path).
        labels: Object.fromEntries(result.changes.map((change) => [change.path, change.label])),
        // The same as data, so the report can write them in its own language (docs/wizards.md).
        words,
        labelWords: Object.fromEntries(
          details.changes.map((change: Change) => [
            change.path,
            change.labelWords ?? recorded('wizards:text', { text: change.label }),
          ]),
        ),
        checkWords: details.checks.map((check) => ({ name: nameRecord(check), detail: detailRecord(check) })),
      },
    });
    this.finished = result;
    this.setStep('finished', result.message);
    this.emitEvent({ type: 'result', result });
    return result;
  }

  private requireState(): State {
    if (this.currentState === undefined) throw new Error(t('wizards:readFirst'));
    return this.currentState;
  }
}

/** Starts a run of a wizard on a gateway. */
export function createWizardRun<State, Edit>(
  definition: WizardDefinition<State, Edit>,
  gatewayId: string,
  options: WizardRunOptions,
): WizardRun<State, Edit> {
  return new WizardRun(definition, gatewayId, options);
}

/** A check's name as data: its own record when the wizard gave one, else its words as they are. */
function nameRecord(check: Check): RecordedMessage {
  return check.words?.name ?? recorded('wizards:text', { text: check.name });
}

/** A check's detail as data. */
function detailRecord(check: Check): RecordedMessage {
  return check.words?.detail ?? recorded('wizards:text', { text: check.detail });
}

/** Records joined with "; " into one (each written in the reader's language). */
function joinRecords(records: RecordedMessage[]): RecordedMessage {
  if (records.length === 0) return recorded('wizards:text', { text: '' });
  return records.reduce((joined, next) => recorded('wizards:joined', { first: joined, next }));
}

/** What went wrong as data: a recorded message as it is, an error in one sentence. */
function errorRecord(error: unknown): RecordedMessage {
  return isRecord(error) ? error : describeErrorRecord(error);
}

function isRecord(value: unknown): value is RecordedMessage {
  return typeof value === 'object' && value !== null && 'key' in value && !(value instanceof Error);
}
