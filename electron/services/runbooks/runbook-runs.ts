import type { Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';
import type {
  Runbook,
  RunbookRunResult,
  RunbookSessionResult,
  RunbookStep,
  RunbookStepResult,
} from '../../shared/terminal/runbook-schemas';
import type { GatewayHint, RunbookJournal } from '../visit';
import { runRunbook, type RunbookTerminal } from './runbook-runner';

/** A session a run drives, as the terminal manager hands it over (TerminalManager.runbookTarget). */
export interface RunbookTarget {
  session: RunbookTerminal & { appendLogNote(text: string, at: number): void };
  gateway: GatewayHint;
}

/** What runs need: the open sessions, the visit journal, a clock, and where progress goes. */
export interface RunbookRunsDependencies {
  /** The open session with this id; throws (TerminalNotFoundError) when there is none. */
  target(terminalId: string): RunbookTarget;
  journal?: RunbookJournal | undefined;
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  onProgress(runId: string, result: RunbookSessionResult): void;
  log?: { error(message: string, error?: unknown): void };
}

/** A run with this id is under way already. */
export class RunbookBusyError extends Error {
  override readonly name = 'RunbookBusyError';
}

/** `text "BSP version"` or `pattern "^running$"`. */
function describeWait(step: RunbookStep): string {
  return step.wait ? `${step.wait.kind} "${step.wait.value}"` : 'nothing';
}

/** A step's end as the session log says it. */
function describeStep(runbook: Runbook, index: number, result: RunbookStepResult): string {
  const step = runbook.steps[index]!;
  const head = `Runbook "${runbook.name}" step ${index + 1} of ${runbook.steps.length}, sent "${step.send}"`;
  const seconds = ((result.elapsedMs ?? 0) / 1000).toFixed(1);
  switch (result.status) {
    case 'seen':
      return `${head}: saw ${describeWait(step)} after ${seconds} s in "${result.seenIn ?? ''}".`;
    case 'sent':
      return `${head}: waits for nothing.`;
    case 'not-seen':
      return `${head}: did not see ${describeWait(step)} within ${step.timeLimitSeconds} s. The run stops here.`;
    case 'cancelled':
      return `${head}: cancelled while waiting for ${describeWait(step)}.`;
    default:
      return `${head}: ${result.message ?? 'failed'}`;
  }
}

/**
 * Runs runbooks on one or several sessions at once (each with runRunbook), each cancellable by its run id. Every
 * session's log gets a note as the run starts, as each step ends and as it ends; the open visit's journal gets a
 * `runbook` entry per session before the run is reported done (when it cannot, the result says so).
 */
export class RunbookRuns {
  readonly #running = new Map<string, AbortController>();
  readonly #dependencies: RunbookRunsDependencies;

  constructor(dependencies: RunbookRunsDependencies) {
    this.#dependencies = dependencies;
  }

  /**
   * Runs `runbook` on every session named (once each), all at once; resolves when each has stopped. Rejects
   * before anything is sent when a session is not open (closed meanwhile) or `runId` is running already.
   */
  async run(runId: string, runbook: Runbook, terminalIds: readonly string[]): Promise<RunbookRunResult> {
    if (this.#running.has(runId)) throw new RunbookBusyError(t('terminals:runbookRunBusy'));
    const { clock, journal } = this.#dependencies;
    const targets = [...new Set(terminalIds)].map((id) => this.#dependencies.target(id));
    const controller = new AbortController();
    this.#running.set(runId, controller);
    try {
      const results = await Promise.all(
        targets.map(({ session }) => {
          const note = (text: string) => session.appendLogNote(text, clock.now());
          note(`Runbook "${runbook.name}" started (${runbook.steps.length} steps, run ${runId}).`);
          return runRunbook(session, runbook, {
            clock,
            signal: controller.signal,
            onProgress: (result) => this.#dependencies.onProgress(runId, result),
            onStepEnd: (index, step) => note(describeStep(runbook, index, step)),
          }).then((result) => {
            note(`Runbook "${runbook.name}" ended: ${result.outcome}.`);
            this.#dependencies.onProgress(runId, result);
            return result;
          });
        }),
      );
      let notRecorded: string | undefined;
      for (const [index, result] of results.entries()) {
        try {
          await journal?.ran({ runId, runbook, result, gateway: targets[index]!.gateway });
        } catch (error) {
          this.#dependencies.log?.error(`recording runbook run ${runId}`, error);
          notRecorded = t('terminals:runbookNotRecorded', {
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }
      return { runId, runbook, sessions: results, ...(notRecorded ? { notRecorded } : {}) };
    } finally {
      this.#running.delete(runId);
    }
  }

  /** What cancels the run with this id (for `call:cancel`), or undefined when none is under way. */
  findCancel(runId: string): (() => void) | undefined {
    const controller = this.#running.get(runId);
    return controller ? () => controller.abort() : undefined;
  }
}
