import type { IpcClient } from '../../lib/ipc';
import type { Runbook, RunbookSessionResult } from '../../../../electron/shared/terminal/runbook-schemas';
import { t } from '../../lib/i18n';

/** A runbook as the editor changes it: a new one has no id yet. */
export type RunbookDraft = Omit<Runbook, 'id'> & { id?: string };

/**
 * The Runbooks drawer's state: the profile's runbooks, the one picked, the sessions to run it on, and the run under
 * way or last finished with each session's steps (from `runbook:progress`, then the run's answer). One run at a
 * time from this page.
 */
export class RunbooksState {
  runbooks = $state<Runbook[]>([]);
  /** Why the saved runbooks could not be read (the shipped ones are shown), from main. */
  problem = $state<string | null>(null);
  selectedId = $state<string | null>(null);
  /** The sessions ticked to run on, by id. */
  chosen = $state<Record<string, boolean>>({});
  /** The run under way (its id, for Cancel), null when none. */
  runId = $state<string | null>(null);
  /** The runbook of the run shown, and each session's result (live while it runs). */
  shown = $state<{ runbook: Runbook; sessions: Record<string, RunbookSessionResult> } | null>(null);
  /** What the last action said (imported, exported, a refusal), for the drawer's status line. */
  message = $state<string | null>(null);
  isCancelling = $state(false);
  readonly #client: IpcClient;
  readonly #stop: () => void;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stop = client.on('runbook:progress', ({ runId, result }) => {
      if (runId === this.runId && this.shown) this.shown.sessions[result.terminalId] = result;
    });
  }

  /** The runbook picked, if it is still kept. */
  get selected(): Runbook | undefined {
    return this.runbooks.find((runbook) => runbook.id === this.selectedId);
  }

  /** Reads the profile's runbooks; keeps the pick when it is still there. */
  async load(): Promise<void> {
    const answer = await this.#client.invoke('runbooks:list');
    if (!answer.ok) {
      this.message = t('terminals:runbooksNotRead', { reason: answer.error.message });
      return;
    }
    this.runbooks = answer.value.runbooks;
    this.problem = answer.value.problem ?? null;
    if (!this.selected) this.selectedId = this.runbooks[0]?.id ?? null;
  }

  /** Saves a runbook from the editor; answers the refusal in words, or undefined once saved. */
  async save(draft: RunbookDraft): Promise<string | undefined> {
    const answer = await this.#client.invoke('runbooks:save', { runbook: draft });
    if (!answer.ok) return answer.error.message;
    await this.load();
    this.selectedId = answer.value.id;
    return undefined;
  }

  async delete(id: string): Promise<string | undefined> {
    const answer = await this.#client.invoke('runbooks:delete', { id });
    if (!answer.ok) return answer.error.message;
    await this.load();
    return undefined;
  }

  /** Adds the runbooks of a file the technician picked; says what it did or why not. */
  async import(file: File): Promise<void> {
    const answer = await this.#client.invoke('runbooks:import', { text: await file.text() });
    if (!answer.ok) {
      this.message = t('terminals:runbooksNotImported', { reason: answer.error.message });
      return;
    }
    const { added, unchanged } = answer.value;
    this.message =
      unchanged > 0
        ? t('terminals:runbooksImportedSome', { file: file.name, count: added, unchanged })
        : t('terminals:runbooksImported', { file: file.name, count: added });
    await this.load();
  }

  /** The profile's runbooks as a file the browser downloads. */
  async export(): Promise<void> {
    const answer = await this.#client.invoke('runbooks:export');
    if (!answer.ok) {
      this.message = t('terminals:runbooksNotExported', { reason: answer.error.message });
      return;
    }
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([answer.value.text], { type: 'application/json' }));
    link.download = answer.value.fileName;
    link.click();
    URL.revokeObjectURL(link.href);
    this.message = t('terminals:runbooksExported', {
      count: this.runbooks.length,
      file: answer.value.fileName,
    });
  }

  /** Runs the picked runbook on the sessions ticked; the results stay shown until the next run. */
  async run(terminalIds: string[]): Promise<void> {
    const runbook = this.selected;
    if (!runbook || terminalIds.length === 0 || this.runId) return;
    const runId = crypto.randomUUID();
    this.runId = runId;
    this.isCancelling = false;
    this.message = null;
    this.shown = { runbook, sessions: {} };
    const answer = await this.#client.invoke('runbooks:run', { runId, runbookId: runbook.id, terminalIds });
    this.runId = null;
    if (!answer.ok) {
      this.message = t('terminals:runbooksDidNotRun', { reason: answer.error.message });
      return;
    }
    this.shown = {
      runbook: answer.value.runbook,
      sessions: Object.fromEntries(answer.value.sessions.map((result) => [result.terminalId, result])),
    };
    if (answer.value.notRecorded) this.message = answer.value.notRecorded;
  }

  /** Stops the run: the wait under way ends as cancelled, later steps are not sent. */
  async cancel(): Promise<void> {
    if (!this.runId) return;
    this.isCancelling = true;
    await this.#client.invoke('call:cancel', { callId: this.runId });
  }

  dispose(): void {
    this.#stop();
  }
}
