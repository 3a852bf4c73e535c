import type { TriageResult } from '../../shared/terminal/triage-schemas';
import { assessHealth } from '../../shared/terminal/triage-health';
import { toTransferName, type FileTransferProtocol } from '../serial/ymodem';
import { runSerialTriage, TriageLoginError } from '../serial/serial-triage';
import type { GatewayHint } from '../visit';
import { TriageBusyError, TriagePasswordError } from './terminal-limits';
import type { SerialTerminal, TerminalManagerDependencies } from './terminal-types';
import { t } from '../../shared/i18n';
import type { Clock } from '../../shared/clock';

/** What the work on a serial console takes from the manager's dependencies, and how to keep a password. */
export interface SerialConsoleWorkDependencies extends Pick<
  TerminalManagerDependencies,
  'events' | 'rootPassword' | 'triage' | 'log' | 'journal'
> {
  /** Keeps a root password that worked (never rejects). */
  remember(gatewayId: string, password: string): Promise<void>;
  /** Milliseconds on a monotonic clock (triage pacing, a transfer's duration). */
  now: () => number;
  /** Epoch milliseconds, for when a triage started and finished. */
  wallClock: () => number;
  /** The timers of a triage's waits. */
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

/**
 * The long jobs on a serial console: the read-only diagnostics (serial triage) and sending a file. One of each
 * at a time per console; each can be cancelled by the console's id.
 */
export class SerialConsoleWork {
  /** The consoles diagnostics run on, each with what cancels its run. */
  readonly #triaging = new Map<string, AbortController>();
  /** Files being sent, by console: cancelling aborts the transfer. */
  readonly #sendingFiles = new Map<string, AbortController>();

  constructor(private readonly dependencies: SerialConsoleWorkDependencies) {}

  /**
   * Runs the read-only diagnostics on a serial console (runSerialTriage) and records the health panel in the
   * visit journal. At a login prompt it uses `password`, else the gateway's stored root password; it rejects with
   * a TriagePasswordError when it has none or the gateway refuses it. A password typed here that works is kept
   * in the keychain when `rememberPassword` is set and the console names its gateway.
   */
  async collectDiagnostics(
    id: string,
    session: SerialTerminal,
    input: { password?: string; rememberPassword?: boolean },
    gateway: GatewayHint | undefined,
  ): Promise<TriageResult> {
    const { dependencies } = this;
    if (this.#triaging.has(id)) throw new TriageBusyError(t('terminals:triageBusy'));
    const controller = new AbortController();
    this.#triaging.set(id, controller);
    try {
      const gatewayId = session.options.gateway;
      let password = input.password;
      if (!password && gatewayId) {
        try {
          password = await dependencies.rootPassword?.(gatewayId);
        } catch (error) {
          dependencies.log?.error(`reading the root password of ${gatewayId}`, error);
        }
      }
      const startedAt = dependencies.wallClock();
      let outcome;
      try {
        outcome = await runSerialTriage(session, {
          ...dependencies.triage,
          ...(password ? { password } : {}),
          now: dependencies.now,
          wallClock: dependencies.wallClock,
          clock: dependencies.clock,
          signal: controller.signal,
          onProgress: (progress) =>
            dependencies.events.emit('serial:triage-progress', {
              id,
              ...progress,
              ...(controller.signal.aborted ? { isCancelling: true } : {}),
            }),
        });
      } catch (error) {
        if (error instanceof TriageLoginError) throw new TriagePasswordError(error.message);
        throw error;
      }
      if (outcome.usedPassword && input.password && input.rememberPassword && gatewayId)
        await dependencies.remember(gatewayId, input.password);
      const result: TriageResult = {
        terminalId: id,
        title: session.title,
        ...(gatewayId ? { gatewayId } : {}),
        startedAt,
        finishedAt: dependencies.wallClock(),
        outcome: outcome.outcome,
        ...(outcome.problem ? { problem: outcome.problem } : {}),
        commands: outcome.commands,
        health: assessHealth(outcome.readings),
        ...(outcome.consoleLeft ? { consoleLeft: outcome.consoleLeft } : {}),
      };
      await dependencies.journal?.triaged(result, gateway ?? { typed: gatewayId });
      return result;
    } finally {
      this.#triaging.delete(id);
    }
  }

  /**
   * Asks the diagnostics running on a console to stop after the command under way; `collectDiagnostics` then
   * resolves with what was read. Nothing to do when none runs there.
   */
  cancelDiagnostics(id: string): void {
    this.#triaging.get(id)?.abort();
  }

  /**
   * Sends a file to a receiver waiting on a serial console (SerialSession.sendFile) under its name without spaces
   * or folders, pushing `serial:send-file-progress` after each block; resolves with its size and how long it took.
   */
  async sendFile(
    id: string,
    session: SerialTerminal,
    file: { protocol: FileTransferProtocol; name: string; data: Uint8Array },
  ): Promise<{ bytes: number; elapsedMs: number }> {
    const { dependencies } = this;
    if (this.#sendingFiles.has(id)) throw new TriageBusyError(t('terminals:consoleFileBusy'));
    const controller = new AbortController();
    this.#sendingFiles.set(id, controller);
    const startedAt = dependencies.now();
    try {
      await session.sendFile(
        { ...file, name: toTransferName(file.name) },
        {
          signal: controller.signal,
          onProgress: (progress) =>
            dependencies.events.emit('serial:send-file-progress', { id, ...progress }),
        },
      );
      return { bytes: file.data.length, elapsedMs: Math.round(dependencies.now() - startedAt) };
    } finally {
      this.#sendingFiles.delete(id);
    }
  }

  /** Cancels the file being sent on a console (the receiver gets CAN CAN); nothing to do when none is. */
  cancelSendFile(id: string): void {
    this.#sendingFiles.get(id)?.abort();
  }
}
