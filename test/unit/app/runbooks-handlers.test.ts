import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldKitServices } from '../../../electron/app';
import { ManualClock } from '../../helpers/manual-clock';
import { FACTORY_TIME } from '../../helpers/factories';
import { startFieldModeApp } from '../../helpers/field-mode-app';

// The runbooks channels as the page calls them, in field mode (nobody signed in, no profile, no server).

let folder: string;
let services: FieldKitServices | undefined;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-runbooks-handlers-'));
});

afterEach(async () => {
  await services?.close();
  await rm(folder, { recursive: true, force: true });
});

async function startApp() {
  const app = await startFieldModeApp({ dataDir: folder, clock: new ManualClock(FACTORY_TIME) });
  services = app.services;
  return app.invoke;
}

describe('runbooks channels', () => {
  it('lists the shipped runbooks and keeps a new one, with no profile at all', async () => {
    const invoke = await startApp();
    const saved = await invoke('runbooks:save', {
      runbook: {
        name: 'Uptime',
        steps: [{ send: 'uptime', wait: { kind: 'text', value: 'load' }, timeLimitSeconds: 5 }],
      },
    });
    expect(saved.ok).toBe(true);
    const listed = await invoke('runbooks:list');
    expect(
      (listed.value as { runbooks: Array<{ name: string }> }).runbooks.map((runbook) => runbook.name),
    ).toEqual(['Collect logs', 'Show LoRa packet forwarder status', 'Check the backhaul', 'Uptime']);
  });

  it('refuses a pattern that could hang, naming the step, before saving anything', async () => {
    const invoke = await startApp();
    const answer = await invoke('runbooks:save', {
      runbook: {
        name: 'Bad',
        steps: [{ send: 'x', wait: { kind: 'pattern', value: '(a+)+$' }, timeLimitSeconds: 5 }],
      },
    });
    expect(answer.error?.code).toBe('INVALID_INPUT');
    expect(JSON.stringify(answer.error)).toContain('A repeated group may not itself repeat');
  });

  it('answers an import of a file that is not a runbook file in words', async () => {
    const invoke = await startApp();
    const answer = await invoke('runbooks:import', { text: '<html>' });
    expect(answer.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'This file is not a runbook file: it is not JSON.',
    });
  });

  it('says a run needs the terminals when they are not attached', async () => {
    const invoke = await startApp();
    const answer = await invoke('runbooks:run', {
      runId: 'run-1',
      runbookId: 'shipped-collect-logs',
      terminalIds: ['terminal-1'],
    });
    expect(answer.error?.message).toBe('Terminals are not available in this build.');
  });
});
