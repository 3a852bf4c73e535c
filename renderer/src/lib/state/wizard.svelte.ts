import { format } from '../../../../electron/shared/format';
import { t, type MessageKey } from '../i18n';
import type { IpcClient } from '../ipc';
import type { ChannelInput, ChannelOutput, Events, IpcErrorShape, Result } from '../wire-types';
import { readProblems } from '../../../../electron/shared/ipc/error-details';
import type { WizardEditOf, WizardStateOf } from '../../../../electron/shared/ipc/domains/wizard-shapes';
import {
  isUnsuccessfulTask,
  type GatewayTaskAnswer,
} from '../../../../electron/shared/ipc/domains/gateway-task-answers';
import { appClock } from '../clock';
import { untrack } from 'svelte';
import { currentLanguage, type DisplayLanguage } from '../../../../electron/shared/i18n';

/** A diff wizard's name, as `wizard:start` takes it. */
export type WizardName = ChannelInput<'wizard:start'>['wizard'];
export type { WizardEditOf, WizardStateOf };
/** The review of an edit: diff, warnings, guards, problems. */
export type WizardReview = ChannelOutput<'wizard:review'>;
/** How a wizard run ended. */
export type WizardResult = ChannelOutput<'wizard:apply'>;
/** A gateway task with its arguments. */
export type GatewayTaskInput = ChannelInput<'gateway-task:run'>['task'];
type RunEvent = Events['wizard:event'];

/** Where the wizard frame stands; each phase is one screen said in words. */
export type WizardPhase =
  'starting' | 'reading' | 'editing' | 'reviewing' | 'applying' | 'finished' | 'failed';

/** The words of each phase, as the frame shows them (keys: `t` writes them where shown). */
export const PHASE_WORDS: Record<WizardPhase, MessageKey> = {
  starting: 'wizards:phaseStarting',
  reading: 'wizards:phaseReading',
  editing: 'wizards:phaseEditing',
  reviewing: 'wizards:phaseReviewing',
  applying: 'wizards:phaseApplying',
  finished: 'wizards:phaseFinished',
  failed: 'wizards:phaseFailed',
};

/** What the UI shows while the gateway is silent: the message and when the wait gives up. */
export interface WaitingView {
  message: string;
  deadlineAt: number;
}

/** The text of an IPC error for a technician: its message, and the problems it lists. */
export function describeIpcError(error: IpcErrorShape): string {
  const problems = readProblems(error.details);
  if (problems.length > 0 && !problems.every((problem) => error.message.includes(problem)))
    return `${error.message} ${problems.join('; ')}`;
  return error.message;
}

/**
 * "about 2 min 5 sec left (gives up at 14:02:10)" from now to a deadline, in the app's locale (format);
 * "giving up now" once it has passed.
 */
export function describeTimeLeft(deadlineAt: number, now: number): string {
  const left = Math.max(0, Math.round((deadlineAt - now) / 1000)) * 1000;
  if (left === 0) return t('wizards:givingUpNow');
  return t('wizards:timeLeft', {
    duration: format.duration(left),
    time: format.time(deadlineAt, { seconds: true }),
  });
}

/** Keeps the progress, waiting and check events of one run as runes. */
class RunProgress {
  stepMessage = $state('');
  progress = $state<{ message: string; fraction?: number; deadlineAt?: number } | null>(null);
  waiting = $state<WaitingView | null>(null);
  checks = $state<Array<{ name: string; ok: boolean; detail: string }>>([]);
  warnings = $state<string[]>([]);

  /** Takes one event of the run. */
  follow(event: RunEvent): void {
    switch (event.type) {
      case 'step':
        this.stepMessage = event.message;
        this.waiting = null;
        break;
      case 'progress':
        this.progress = { message: event.message, fraction: event.fraction, deadlineAt: event.deadlineAt };
        this.waiting = null;
        break;
      case 'waiting':
        // The wait is the one current line: the progress line before it is over.
        this.waiting = { message: event.notice.message, deadlineAt: event.notice.deadlineAt };
        this.progress = null;
        break;
      case 'check':
        this.checks = [...this.checks, event.check];
        break;
      case 'warning':
        this.warnings = [...this.warnings, event.message];
        break;
      case 'result':
        this.waiting = null;
        break;
    }
  }

  /** Forgets everything (a new apply). */
  reset(): void {
    this.stepMessage = '';
    this.progress = null;
    this.waiting = null;
    this.checks = [];
    this.warnings = [];
  }
}

/**
 * One wizard run as runes: start → read (state and the starting edit) → review an edit → apply with the typed
 * confirmations its guards need → result. Events of the run (steps, progress, waits, checks) arrive as they
 * happen; `cancel()` stops it (an apply under way puts the previous settings back). Errors are kept in words.
 */
export class WizardState<Name extends WizardName = WizardName> {
  phase = $state<WizardPhase>('starting');
  runId = $state<string | null>(null);
  current = $state<WizardStateOf<Name> | null>(null);
  startingEdit = $state<WizardEditOf<Name> | null>(null);
  review = $state<WizardReview | null>(null);
  result = $state<WizardResult | null>(null);
  error = $state<string | null>(null);
  /** The edit last sent to review: what Apply sends. */
  reviewedEdit: unknown = null;
  /** The language main wrote the review in (its labels, warnings and problems). */
  reviewLanguage: DisplayLanguage | null = null;
  /**
   * What the technician typed on the wizard's form, kept by the form as it changes: a run kept while another view
   * shows (wizard-keeper.ts) gives it back to the form when its page opens again.
   */
  formDraft: unknown = null;
  readonly run = new RunProgress();
  readonly #client: IpcClient;
  #off: (() => void) | null = null;

  constructor(
    client: IpcClient,
    readonly wizard: Name,
    readonly gatewayId: string,
  ) {
    this.#client = client;
    this.#off = client.on('wizard:event', (event) => {
      if (event.runId === this.runId) this.run.follow(event);
    });
  }

  /** Starts a run and reads the gateway's current settings. */
  async start(): Promise<void> {
    this.phase = 'reading';
    this.error = null;
    this.review = null;
    this.result = null;
    this.run.reset();
    const started = await this.#client.invoke('wizard:start', {
      wizard: this.wizard,
      gatewayId: this.gatewayId,
    });
    if (!started.ok) return this.#fail(started.error);
    this.runId = started.value.runId;
    const read = await this.#client.readWizard(this.wizard, started.value.runId);
    if (!read.ok) return this.#fail(read.error);
    this.current = read.value.state;
    this.startingEdit = read.value.edit;
    this.phase = 'editing';
  }

  /** True when this run is of wizard `name`: narrows its state and edit to that wizard's. */
  isOf<Other extends WizardName>(name: Other): this is WizardState<Other> {
    const own: WizardName = this.wizard;
    return own === name;
  }

  /** Asks main for the diff, warnings and guards of an edit; stays in editing when the edit is refused. */
  async reviewEdit(edit: unknown): Promise<void> {
    if (!this.runId) return;
    this.error = null;
    const language = untrack(() => currentLanguage());
    const answer = await this.#client.invoke('wizard:review', { runId: this.runId, edit });
    if (!answer.ok) {
      this.error = describeIpcError(answer.error);
      return;
    }
    this.reviewedEdit = edit;
    this.reviewLanguage = language;
    this.review = answer.value;
    this.phase = 'reviewing';
  }

  /** Back from the review to the form, keeping the edit. */
  backToEditing(): void {
    this.review = null;
    this.error = null;
    this.phase = 'editing';
  }

  /** Applies the reviewed edit with the confirmations typed for its guards. */
  async apply(edit: unknown, confirmations: Record<string, string>): Promise<void> {
    if (!this.runId) return;
    this.error = null;
    this.run.reset();
    this.phase = 'applying';
    const answer = await this.#client.invoke('wizard:apply', { runId: this.runId, edit, confirmations });
    if (!answer.ok) {
      this.error = describeIpcError(answer.error);
      this.phase = answer.error.code === 'INVALID_INPUT' ? 'reviewing' : 'failed';
      return;
    }
    this.result = answer.value;
    this.phase = 'finished';
  }

  /** Stops the run at its next step. */
  async cancel(): Promise<void> {
    if (this.runId) await this.#client.invoke('call:cancel', { callId: this.runId });
  }

  /** Stops listening to events. */
  dispose(): void {
    this.#off?.();
    this.#off = null;
  }

  #fail(error: IpcErrorShape): void {
    this.error = describeIpcError(error);
    this.phase = 'failed';
  }
}

let taskCounter = 0;

/**
 * Runs gateway tasks (backups, software, reboot, diagnostics) one at a time as runes: busy, progress with its
 * fraction, "waiting for the gateway" with the deadline, the value or the error in words; cancellable.
 */
export class TaskRunner {
  isBusy = $state(false);
  task = $state<string | null>(null);
  error = $state<string | null>(null);
  readonly run = new RunProgress();
  #runId: string | null = null;
  readonly #client: IpcClient;
  #off: (() => void) | null;

  constructor(
    client: IpcClient,
    readonly gatewayId: string,
  ) {
    this.#client = client;
    this.#off = client.on('gateway-task:event', (event) => {
      if (event.runId === this.#runId) this.run.follow(event);
    });
  }

  /**
   * Runs one task and resolves with its value, or null with `error` set. A task that restarts the gateway
   * (upgrade, install, reboot, restore) needs `confirmation.acknowledged`: ask the technician first.
   */
  async execute<Task extends GatewayTaskInput>(
    task: Task,
    confirmation?: ChannelInput<'gateway-task:run'>['confirmation'],
  ): Promise<GatewayTaskAnswer<Task['task']> | null> {
    const answer = await this.read(task, confirmation);
    if (!answer.ok) {
      this.error = describeIpcError(answer.error);
      return null;
    }
    if (isUnsuccessfulTask(answer.value)) this.error = answer.value.message;
    return answer.value;
  }

  /**
   * Runs one task like `execute` (busy, progress, Cancel) but answers with the Result and leaves `error` alone:
   * for a read whose failure a `LoadState` shows (the diagnostics overview).
   */
  async read<Task extends GatewayTaskInput>(
    task: Task,
    confirmation?: ChannelInput<'gateway-task:run'>['confirmation'],
  ): Promise<Result<GatewayTaskAnswer<Task['task']>>> {
    taskCounter += 1;
    const runId = `task-${appClock.now().toString(36)}-${taskCounter}-${Math.random().toString(36).slice(2, 8)}`;
    this.#runId = runId;
    this.isBusy = true;
    this.task = task.task;
    this.error = null;
    this.run.reset();
    try {
      const answer = await this.#client.runTask({
        gatewayId: this.gatewayId,
        runId,
        task,
        ...(confirmation ? { confirmation } : {}),
      });
      return answer.ok ? { ok: true, value: answer.value.value } : answer;
    } finally {
      if (this.#runId === runId) this.isBusy = false;
    }
  }

  /** Cancels the task under way (the gateway may still finish what it started). */
  async cancel(): Promise<void> {
    if (this.#runId) await this.#client.invoke('call:cancel', { callId: this.#runId });
  }

  /** Stops listening to events. */
  dispose(): void {
    this.#off?.();
    this.#off = null;
  }
}
