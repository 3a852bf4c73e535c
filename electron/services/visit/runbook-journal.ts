import type { Runbook, RunbookSessionResult } from '../../shared/terminal/runbook-schemas';
import type { GatewayIdentity } from '../../shared/visit/journal-entry';
import type { GatewayHint } from './gateway-identity';
import type { VisitRecorder } from './visits';

/** Records a runbook's run on one session in the open visit (RunbookRuns' `journal`). */
export interface RunbookJournal {
  /** Resolves once the entry is on the disk; rejects when it cannot be recorded. */
  ran(run: {
    runId: string;
    runbook: Runbook;
    result: RunbookSessionResult;
    gateway: GatewayHint;
  }): Promise<void>;
}

/** The RunbookJournal over the visits: a `runbook` entry per session, its gateway resolved as it is recorded. */
export function createRunbookJournal(dependencies: {
  recorder: VisitRecorder;
  resolve(hint: GatewayHint): Promise<GatewayIdentity | undefined>;
}): RunbookJournal {
  const { recorder, resolve } = dependencies;
  return {
    async ran({ runId, runbook, result, gateway }) {
      const identity = await resolve(gateway);
      await recorder.append({
        kind: 'runbook',
        runId,
        runbook: runbook.name,
        sessionId: result.terminalId,
        ...(identity ? { gateway: identity } : {}),
        outcome: result.outcome === 'running' ? 'cancelled' : result.outcome,
        steps: runbook.steps.map((step, index) => {
          const { status, elapsedMs, message } = result.steps[index] ?? { status: 'not-run' };
          return {
            send: step.send,
            ...(step.wait ? { waitFor: `${step.wait.kind}: ${step.wait.value}` } : {}),
            status,
            ...(elapsedMs !== undefined ? { elapsedMs } : {}),
            ...(message ? { message } : {}),
          };
        }),
      });
    },
  };
}
