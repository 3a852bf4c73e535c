import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RunbookRuns, type RunbookTarget } from '../../../../electron/services/runbooks/runbook-runs';
import type { TerminalState } from '../../../../electron/services/terminal-core';
import type { RunbookJournal } from '../../../../electron/services/visit';
import type { Runbook } from '../../../../electron/shared/terminal/runbook-schemas';
import { ManualClock } from '../../../helpers/manual-clock';

/** A console that answers `uptime` at once, and whose log notes the test reads. */
class AnsweringTerminal extends EventEmitter {
  readonly state: TerminalState = 'open';
  readonly notes: string[] = [];
  constructor(
    readonly id: string,
    readonly title: string,
  ) {
    super();
  }
  write(data: string): void {
    if (data === 'uptime\r')
      queueMicrotask(() => this.print('uptime\r\n 10:00:00 up 3 days, load average: 0.08\r\n# '));
  }
  print(text: string): void {
    this.emit('data', new TextEncoder().encode(text));
  }
  appendLogNote(text: string): void {
    this.notes.push(text);
  }
}

const RUNBOOK: Runbook = {
  id: 'runbook-1',
  name: 'Load',
  steps: [
    { send: 'uptime', wait: { kind: 'text', value: 'load average' }, timeLimitSeconds: 5 },
    { send: 'cat /proc/loadavg', wait: { kind: 'pattern', value: '^[0-9.]+ ' }, timeLimitSeconds: 5 },
  ],
};

function setUp(journal?: RunbookJournal) {
  const clock = new ManualClock(1_000);
  const terminals = new Map(
    ['north', 'south'].map((name) => [name, new AnsweringTerminal(name, `kona-${name}`)] as const),
  );
  const recorded: string[] = [];
  const runs = new RunbookRuns({
    target: (id): RunbookTarget => {
      const session = terminals.get(id);
      if (!session) throw new Error('This terminal is no longer open. Open a new one.');
      return { session, gateway: { typed: session.title } };
    },
    journal: journal ?? {
      ran: async ({ result }) => void recorded.push(`${result.title}: ${result.outcome}`),
    },
    clock,
    onProgress: () => undefined,
  });
  return { clock, terminals, runs, recorded };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RunbookRuns', () => {
  it('runs on every session at once and notes each step in its log', async () => {
    const { clock, terminals, runs, recorded } = setUp();
    const running = runs.run('run-1', RUNBOOK, ['north', 'south']);
    await settle();
    terminals.get('north')!.print('cat /proc/loadavg\r\n0.08 0.12 0.10 1/90 1433\r\n# ');
    clock.advance(5_000);
    const run = await running;
    expect(run.sessions.map((session) => session.outcome)).toEqual(['ok', 'failed']);
    expect(recorded).toEqual(['kona-north: ok', 'kona-south: failed']);
    expect(terminals.get('south')!.notes).toEqual([
      'Runbook "Load" started (2 steps, run run-1).',
      'Runbook "Load" step 1 of 2, sent "uptime": saw text "load average" after 0.0 s in " 10:00:00 up 3 days, load average: 0.08".',
      'Runbook "Load" step 2 of 2, sent "cat /proc/loadavg": did not see pattern "^[0-9.]+ " within 5 s. The run stops here.',
      'Runbook "Load" ended: failed.',
    ]);
  });

  it('cancels a run by its id, and the id then finds nothing to cancel', async () => {
    const { runs } = setUp();
    const running = runs.run('run-2', RUNBOOK, ['north']);
    await settle();
    runs.findCancel('run-2')?.();
    const run = await running;
    expect(run.sessions[0]?.steps.map((step) => step.status)).toEqual(['seen', 'cancelled']);
    expect(runs.findCancel('run-2')).toBeUndefined();
  });

  it('refuses a session that is not open before sending anything', async () => {
    const { runs, terminals } = setUp();
    await expect(runs.run('run-3', RUNBOOK, ['north', 'gone'])).rejects.toThrow(
      'This terminal is no longer open.',
    );
    expect(terminals.get('north')!.notes).toEqual([]);
  });

  it('answers the run with why the visit journal could not record it', async () => {
    const { runs, clock } = setUp({
      ran: () => Promise.reject(new Error('The disk is full.')),
    });
    const running = runs.run('run-4', RUNBOOK, ['north']);
    await settle();
    clock.advance(5_000);
    expect((await running).notRecorded).toBe(
      'The visit journal could not record this run: The disk is full.',
    );
  });
});
