import { EventEmitter } from 'node:events';
import {
  gatewayCommands,
  type CommandName,
  type CommandRequest,
  type CommandResponse,
} from '../../shared/api';
import { CALL_TIME_LIMITS_MS } from '../../shared/api/timeouts';
import { commandTitle } from '../../shared/api/command-titles';
import { ConnectionInterruptedError, NetworkError } from '../api';
import type { AuditEntryInput, AuditSink } from '../audit';
import { CommandService, type CommandJournal } from '../commands/command-service';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';
import {
  CancelledError,
  describeError,
  formatDuration,
  isCancellation,
  isTransient,
  isUnresponsive,
} from './gateway-errors';
import { GATEWAY_RETURN_TIMEOUT_MS, waitForGateway, type WaitingNotice } from './gateway-wait';
import type { Check, GatewayCommander, WizardContext, WizardEnvironment, WizardStep } from './types';

/** Time limit of one gateway command by default (the server's own 408 usually comes first). */
export const COMMAND_TIMEOUT_MS = CALL_TIME_LIMITS_MS.command;
/** Most times a read is asked again after transient failures. */
const READ_ATTEMPTS = 20;

/** What a UI renders as a run goes: the step, progress in words, waits, checks, warnings and the result. */
export type GatewayRunEvent<Result = unknown> = { runId: string; at: number } & (
  | { type: 'step'; step: WizardStep; message: string }
  | { type: 'progress'; message: string; fraction?: number; deadlineAt?: number }
  | { type: 'waiting'; notice: WaitingNotice }
  | { type: 'check'; check: Check }
  | { type: 'warning'; message: string }
  | { type: 'result'; result: Result }
);

type DistributiveOmit<Type, Key extends PropertyKey> = Type extends unknown ? Omit<Type, Key> : never;
/** An event before the run id and time are stamped on it. */
export type GatewayRunEventInput<Result = unknown> = DistributiveOmit<
  GatewayRunEvent<Result>,
  'runId' | 'at'
>;

/** Who runs what, where to audit, how to reach the gateway, and the time limits. */
export interface GatewayRunOptions {
  commander: GatewayCommander;
  profileId: string;
  user: string;
  audit?: AuditSink;
  /**
   * The visit journal beside the audit log, fed the same entries (commands, steps, the result): a change it cannot
   * record is not sent.
   */
  journal?: CommandJournal;
  /** The gateway's name when known, so the journal names it by id and name. */
  gatewayName?: string;
  clock?: Clock;
  environment?: WizardEnvironment;
  signal?: AbortSignal;
  commandTimeoutMs?: number;
  verifyTimeoutMs?: number;
  gatewayReturnTimeoutMs?: number;
  waitInitialDelayMs?: number;
  waitMaxDelayMs?: number;
  /** Pause between reads while something is polled (verification, install progress, scans). */
  pollIntervalMs?: number;
  runId?: string;
}

/**
 * One gateway as the engines drive it: every command audited (redacted) under one run id, reads that wait
 * through a silent gateway and ask again, changes that are never repeated blindly, and events in words.
 */
export class AuditedGateway<Result = unknown> extends EventEmitter<{ event: [GatewayRunEvent<Result>] }> {
  readonly clock: Clock;
  /** Every command of the run goes through it: time limit, audit (a change `sent` before it leaves). */
  readonly commands: CommandService;
  private currentStep: WizardStep = 'idle';

  constructor(
    readonly gatewayId: string,
    readonly runId: string,
    readonly options: GatewayRunOptions,
  ) {
    super();
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.commands = new CommandService({
      transport: options.commander,
      audit: options.audit,
      journal: options.journal,
      clock: this.clock,
    });
  }

  /** The step last announced. */
  get step(): WizardStep {
    return this.currentStep;
  }

  /** Announces a step. */
  setStep(step: WizardStep, message: string): void {
    this.currentStep = step;
    this.emitEvent({ type: 'step', step, message });
  }

  /** Tells the UI what is happening; `deadlineAt`: when the job it follows gives up (the UI counts down to it). */
  progress(message: string, fraction?: number, deadlineAt?: number): void {
    this.emitEvent({
      type: 'progress',
      message,
      ...(fraction === undefined ? {} : { fraction }),
      ...(deadlineAt === undefined ? {} : { deadlineAt }),
    });
  }

  /**
   * Says what the run waits for, as the one current line, and when the wait gives up (`deadlineAt`): the UI counts
   * down the time left rather than showing a count that goes stale.
   */
  wait(message: string, deadlineAt: number, attempt = 1, startedAt = this.clock.now()): void {
    this.emitEvent({
      type: 'waiting',
      notice: { attempt, waitedMs: this.clock.now() - startedAt, deadlineAt, message },
    });
  }

  /** Emits an event stamped with the run id and the time. */
  emitEvent(event: GatewayRunEventInput<Result>): void {
    this.emit('event', { ...event, runId: this.runId, at: this.clock.now() } as GatewayRunEvent<Result>);
  }

  /**
   * Runs one command, audited. A read that meets a silent gateway waits for it (backoff, to the return deadline)
   * and asks again; a server hiccup (5xx) on a read is retried a few times; a change is never repeated here.
   * `isAutomatic`: a read the app makes by itself to follow a task, audited as such (AuditEntry `automatic`).
   */
  async command<Name extends CommandName>(
    signal: AbortSignal,
    name: Name,
    request?: CommandRequest<Name>,
    how: { isAutomatic?: boolean } = {},
  ): Promise<CommandResponse<Name>> {
    const definition = gatewayCommands[name];
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commands.send({
          gatewayId: this.gatewayId,
          ...(this.options.gatewayName === undefined ? {} : { gatewayName: this.options.gatewayName }),
          name,
          body: request,
          signal,
          timeoutMs: this.options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
          caller: { profileId: this.options.profileId, user: this.options.user, runId: this.runId },
          isAutomatic: how.isAutomatic === true,
          onRecordError: (error) => this.warnAuditFailed(error),
        });
      } catch (error) {
        if (isCancellation(error) || signal.aborted) throw new CancelledError();
        if (definition.risk !== 'read' || !isTransient(error) || attempt >= READ_ATTEMPTS) throw error;
        if (isUnresponsive(error))
          await this.waitForReturn(
            signal,
            t('wizards:reasonNotAnswered', { command: commandTitle(name) }),
            error,
          );
        else await this.clock.sleep(Math.min(1_000 * attempt, 10_000), signal);
      }
    }
  }

  /**
   * Waits (step `waiting`, events each probe) until the gateway answers; throws GatewayUnreachableError. When the
   * `cause` is that the server itself could not be reached, the step says so: the gateway may be fine, and the
   * technician should look at this laptop's connection rather than at the gateway.
   */
  async waitForReturn(signal: AbortSignal, reason: string, cause?: unknown): Promise<number> {
    const previous = this.currentStep;
    this.setStep(
      'waiting',
      cause instanceof ConnectionInterruptedError && cause.mayChange
        ? t('wizards:waitDroppedConnection', { reason })
        : cause instanceof NetworkError
          ? t('wizards:waitServerUnreachable', { reason })
          : t('wizards:waitGatewaySilent', { reason }),
    );
    const { waitedMs } = await waitForGateway(this.commands.commander(), this.gatewayId, {
      clock: this.clock,
      signal,
      reason,
      timeoutMs: this.options.gatewayReturnTimeoutMs ?? GATEWAY_RETURN_TIMEOUT_MS,
      initialDelayMs: this.options.waitInitialDelayMs,
      maxDelayMs: this.options.waitMaxDelayMs,
      probeTimeoutMs: this.options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      onWaiting: (notice) => this.emitEvent({ type: 'waiting', notice }),
    });
    this.setStep(previous, t('wizards:gatewayBack', { duration: formatDuration(waitedMs) }));
    return waitedMs;
  }

  /** The step functions' view: audited commands bound to `signal`, progress, polling within a deadline. */
  context(signal: AbortSignal, pollDeadlineAt = Infinity): WizardContext {
    return {
      gatewayId: this.gatewayId,
      signal,
      clock: this.clock,
      command: (name, request) => this.command(signal, name, request),
      progress: (message, fraction) => this.progress(message, fraction),
      poll: async (read, isDone, options) => {
        const startedAt = this.clock.now();
        const deadlineAt = Math.min(pollDeadlineAt, startedAt + options.timeoutMs);
        let value: Awaited<ReturnType<typeof read>> | undefined;
        for (let attempt = 1; attempt <= 100_000; attempt++) {
          if (signal.aborted) throw new CancelledError();
          value = await read();
          if (isDone(value)) return { value, isDone: true };
          if (options.describe) {
            // A poll with a deadline is a wait: its line says what it waits for and the UI counts down to the end.
            const message = options.describe(value);
            if (!options.isProgress && Number.isFinite(deadlineAt))
              this.wait(message, deadlineAt, attempt, startedAt);
            else this.progress(message);
          }
          const remainingMs = deadlineAt - this.clock.now();
          if (remainingMs <= 0) break;
          try {
            await this.clock.sleep(
              Math.min(options.intervalMs, this.options.pollIntervalMs ?? Infinity, remainingMs),
              signal,
            );
          } catch {
            throw new CancelledError();
          }
        }
        return { value, isDone: false };
      },
    };
  }

  /**
   * Records an entry of this run (a step, a task's or the run's end) in the audit log and the visit journal; a
   * failing record is reported as a warning, never fatal.
   */
  async audit(
    entry: Omit<AuditEntryInput, 'kind' | 'user' | 'durationMs' | 'gatewayId'> & {
      kind?: AuditEntryInput['kind'];
      startedAt: number;
    },
  ): Promise<void> {
    if (!this.options.audit && !this.options.journal) return;
    const { startedAt, ...rest } = entry;
    try {
      await this.commands.record({
        kind: 'wizard',
        ...rest,
        profileId: this.options.profileId,
        user: this.options.user,
        gatewayId: this.gatewayId,
        ...(this.options.gatewayName === undefined ? {} : { gatewayName: this.options.gatewayName }),
        runId: this.runId,
        at: startedAt,
        durationMs: Math.max(0, this.clock.now() - startedAt),
      });
    } catch (error) {
      this.warnAuditFailed(error);
    }
  }

  private warnAuditFailed(error: unknown): void {
    this.emitEvent({
      type: 'warning',
      message: t('wizards:auditFailed', { reason: describeError(error) }),
    });
  }
}
