import type { DomainHandlers, ErrorLog } from './context';
import type { runbooksChannels } from '../../shared/ipc/domains/runbooks';
import { IpcError } from '../../shared/ipc/result';
import { t } from '../../shared/i18n';
import type { EventHub } from '../../shared/ipc/event-hub';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import {
  RunbookBusyError,
  RunbookFileError,
  RunbookNotFoundError,
  RunbookRuns,
  RunbookStore,
} from '../../services/runbooks';
import { mapTerminalError, type TerminalManager } from '../../services/terminals';
import type { RunbookJournal } from '../../services/visit';
import type { CallCancellation } from '../call-cancellation';

/** What the runbooks domain uses. */
export interface RunbooksDependencies {
  store: RunbookStore;
  /** The runs, once the terminals are attached (until then running answers that terminals are not available). */
  runs(): RunbookRuns | undefined;
  /**
   * Whose runbooks these are: the signed-in profile, else the one selected. Runbooks made with no profile at all
   * (a first serial console before any profile) are kept under `_none`.
   */
  profileId(): string | undefined;
  log: ErrorLog;
}

/** Handlers of the runbooks channels (electron/shared/ipc/domains/runbooks.ts). */
export function createRunbooksHandlers({
  store,
  runs,
  profileId,
  log,
}: RunbooksDependencies): DomainHandlers<typeof runbooksChannels> {
  const owner = () => profileId() ?? '_none';
  const answer = async <T>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (error instanceof RunbookFileError) throw new IpcError('INVALID_INPUT', error.message);
      if (error instanceof RunbookNotFoundError) throw new IpcError('NOT_FOUND', error.message);
      if (error instanceof RunbookBusyError) throw new IpcError('INVALID_INPUT', error.message);
      const mapped = mapTerminalError(error);
      if (mapped.code === 'INTERNAL') log.error('runbook call failed', error);
      throw mapped;
    }
  };
  return {
    'runbooks:list': () => answer(() => store.list(owner())),
    'runbooks:save': ({ runbook }) => answer(() => store.save(owner(), runbook)),
    'runbooks:delete': ({ id }) => answer(() => store.delete(owner(), id).then(() => null)),
    'runbooks:export': () => answer(() => store.export(owner())),
    'runbooks:import': ({ text }) => answer(() => store.import(owner(), text)),
    'runbooks:run': ({ runId, runbookId, terminalIds }) =>
      answer(async () => {
        const running = runs();
        if (!running) throw new IpcError('INTERNAL', t('terminals:terminalsUnavailable'));
        return running.run(runId, await store.get(owner(), runbookId), terminalIds);
      }),
  };
}

/**
 * The runbooks domain as FieldKitServices registers it: the store in `<dataDir>/runbooks/`, runs over the terminal
 * manager's sessions (progress pushed as `runbook:progress`, each run cancellable by its id through `call:cancel`).
 */
export function createRunbooksDomain(options: {
  dataDir: string;
  clock: Pick<Clock, 'now'>;
  events: Pick<EventHub, 'emit'>;
  cancellation: Pick<CallCancellation, 'addFinder'>;
  terminals(): TerminalManager | undefined;
  journal: RunbookJournal;
  profileId(): string | undefined;
  log: ErrorLog;
}): DomainHandlers<typeof runbooksChannels> {
  let runs: RunbookRuns | undefined;
  const currentRuns = () => {
    const terminals = options.terminals();
    if (!terminals) return undefined;
    runs ??= new RunbookRuns({
      target: (id) => terminals.runbookTarget(id),
      journal: options.journal,
      // Timers are real; the time read is the app's (a test's manual clock moves it).
      clock: { ...SYSTEM_CLOCK, now: () => options.clock.now() },
      onProgress: (runId, result) => options.events.emit('runbook:progress', { runId, result }),
      log: options.log,
    });
    return runs;
  };
  options.cancellation.addFinder((callId) => runs?.findCancel(callId));
  return createRunbooksHandlers({
    store: new RunbookStore({ dataDir: options.dataDir, clock: options.clock }),
    runs: currentRuns,
    profileId: options.profileId,
    log: options.log,
  });
}
