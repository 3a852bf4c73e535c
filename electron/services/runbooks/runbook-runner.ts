import type { Clock } from '../../shared/clock';
import { t, type MessageKey } from '../../shared/i18n';
import type {
  Runbook,
  RunbookSessionResult,
  RunbookStep,
  RunbookStepResult,
} from '../../shared/terminal/runbook-schemas';
import type { TerminalState } from '../terminal-core';
import { OutputWindow } from './output-window';

/** A terminal session as a runbook drives it: its output, its state, and the keys it is sent. */
export interface RunbookTerminal {
  readonly id: string;
  readonly title: string;
  readonly state: TerminalState;
  /** Sends text as typed; throws when the session cannot take it. */
  write(data: string): void;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'state', listener: (state: TerminalState, reason?: string) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'state', listener: (state: TerminalState, reason?: string) => void): unknown;
}

/** How a run is timed, stopped and followed. */
export interface RunbookRunOptions {
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** Aborting it cancels the wait under way; the steps after it are not run. */
  signal?: AbortSignal;
  /** Called with the result so far when a step starts waiting and when it ends. */
  onProgress?(result: RunbookSessionResult): void;
  /** Called as each step ends, before the next one is sent (the session log's notes). */
  onStepEnd?(index: number, step: RunbookStepResult): void;
}

/** What ends a step's wait. */
type WaitEnd = Pick<RunbookStepResult, 'status' | 'seenIn' | 'message'>;

/**
 * Runs a runbook on one session: each step sends its line (Enter added) and waits for its text or pattern within
 * its time limit (OutputWindow: what came back after the line, bounded). The run stops at the first step that does
 * not see what it waits for, that cannot send, or that is cancelled; the steps after it are `not-run`. Never
 * rejects: every way a step ends is a status in the result.
 */
export async function runRunbook(
  terminal: RunbookTerminal,
  runbook: Runbook,
  options: RunbookRunOptions,
): Promise<RunbookSessionResult> {
  const { clock, signal } = options;
  const result: RunbookSessionResult = {
    terminalId: terminal.id,
    title: terminal.title,
    outcome: 'running',
    steps: runbook.steps.map(() => ({ status: 'not-run' })),
    startedAt: clock.now(),
  };
  const window = new OutputWindow();
  let onOutput: (() => void) | undefined;
  let ended: string | undefined = terminal.state === 'open' ? undefined : describeState(terminal.state);
  const onData = (chunk: Uint8Array) => {
    window.push(chunk);
    onOutput?.();
  };
  const onState = (state: TerminalState, reason?: string) => {
    if (state === 'open') {
      ended = undefined;
      return;
    }
    ended = describeState(state, reason);
    onOutput?.();
  };
  terminal.on('data', onData);
  terminal.on('state', onState);
  const report = () => options.onProgress?.(structuredClone(result));
  try {
    for (const [index, step] of runbook.steps.entries()) {
      const startedAt = clock.now();
      // Compiled once per step; the schema checked it (checkRunbookPattern) before the runbook was saved.
      const pattern = step.wait?.kind === 'pattern' ? new RegExp(step.wait.value) : undefined;
      const end = await runStep(step, {
        send: () => {
          window.reset(step.send);
          terminal.write(`${step.send}\r`);
        },
        wait: (settle) => {
          onOutput = () => {
            const seenIn = step.wait ? window.find(step.wait, pattern) : undefined;
            if (seenIn !== undefined) settle({ status: 'seen', seenIn });
            else if (ended) settle({ status: 'failed', message: ended });
          };
          result.steps[index] = { status: 'waiting' };
          result.current = { index, waitEndsAt: startedAt + step.timeLimitSeconds * 1000 };
          report();
          onOutput();
        },
        ended: () => ended,
        clock,
        signal,
      });
      onOutput = undefined;
      delete result.current;
      result.steps[index] = { ...end, elapsedMs: clock.now() - startedAt };
      options.onStepEnd?.(index, result.steps[index]!);
      if (end.status !== 'seen' && end.status !== 'sent') {
        result.outcome = end.status === 'cancelled' ? 'cancelled' : 'failed';
        break;
      }
      report();
    }
    if (result.outcome === 'running') result.outcome = 'ok';
  } finally {
    terminal.off('data', onData);
    terminal.off('state', onState);
  }
  result.finishedAt = clock.now();
  return result;
}

async function runStep(
  step: RunbookStep,
  io: {
    send(): void;
    wait(settle: (end: WaitEnd) => void): void;
    ended(): string | undefined;
    clock: RunbookRunOptions['clock'];
    signal: AbortSignal | undefined;
  },
): Promise<WaitEnd> {
  if (io.signal?.aborted) return { status: 'cancelled' };
  const ended = io.ended();
  if (ended) return { status: 'failed', message: ended };
  try {
    io.send();
  } catch (error) {
    return { status: 'failed', message: t('terminals:runbookLineNotSent', { reason: describeError(error) }) };
  }
  if (!step.wait) return { status: 'sent' };
  const limitMs = step.timeLimitSeconds * 1000;
  return new Promise<WaitEnd>((resolve) => {
    let isSettled = false;
    const onAbort = () => settle({ status: 'cancelled' });
    const timer = io.clock.setTimeout(
      () =>
        settle({
          status: 'not-seen',
          message: t('terminals:runbookNotSeen', { seconds: step.timeLimitSeconds }),
        }),
      limitMs,
    );
    function settle(end: WaitEnd): void {
      if (isSettled) return;
      isSettled = true;
      io.clock.clearTimeout(timer);
      io.signal?.removeEventListener('abort', onAbort);
      resolve(end);
    }
    io.signal?.addEventListener('abort', onAbort, { once: true });
    io.wait(settle);
  });
}

/** Why a session cannot go on with a run, by its state: [without a reason, with one]. */
const SESSION_ENDS: Record<TerminalState, [MessageKey, MessageKey]> = {
  closed: ['terminals:runbookSessionClosed', 'terminals:runbookSessionClosedReason'],
  failed: ['terminals:runbookSessionFailed', 'terminals:runbookSessionFailedReason'],
  connecting: ['terminals:runbookSessionConnecting', 'terminals:runbookSessionConnectingReason'],
  reconnecting: ['terminals:runbookSessionReconnecting', 'terminals:runbookSessionReconnectingReason'],
  open: ['terminals:runbookSessionOpen', 'terminals:runbookSessionOpenReason'],
};

function describeState(state: TerminalState, reason?: string): string {
  const [plain, withReason] = SESSION_ENDS[state];
  return reason ? t(withReason, { reason }) : t(plain);
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
