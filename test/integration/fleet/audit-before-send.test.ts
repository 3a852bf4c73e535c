import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayCommands, isCommandName } from '../../../electron/shared/api';
import { AuditLog, SENT_WITHOUT_OUTCOME } from '../../../electron/services/audit';
import { startSimulator, type RunningSimulator } from '../../../simulator';

const CHILD = join(import.meta.dirname, '../../helpers/fleet-apply-child.ts');
/** Changes the simulator carries out before the apply is killed (the fleet works on 16 gateways at once). */
const CHANGES_BEFORE_KILL = 8;

describe('audit before send', () => {
  let simulator: RunningSimulator | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await simulator?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves a "sent" entry for every gateway changed when the app is killed mid-apply', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-audit-kill-'));
    const changed = new Set<string>();
    let onEnough: () => void = () => undefined;
    const enough = new Promise<void>((resolve) => (onEnough = resolve));
    simulator = await startSimulator({
      gateways: 40,
      offlineFraction: 0,
      // Every change is carried out, then its answer held until the client goes away: the apply is mid-way.
      beforeCommandAnswer: ({ gatewayId, command, signal }) => {
        if (!isCommandName(command) || gatewayCommands[command].risk === 'read') return;
        changed.add(gatewayId);
        if (changed.size >= CHANGES_BEFORE_KILL) onEnough();
        return new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      },
    });
    const ids = simulator.fixture.gateways.map((gateway) => gateway.id);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, simulator.url, dataDir, JSON.stringify(ids)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    await Promise.race([
      enough,
      exited.then(() => Promise.reject(new Error('the apply ended before it was killed'))),
    ]);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const lines = (await readFile(join(dataDir, 'audit', 'demo.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { gatewayId?: string; outcome: string });
    const sentTo = new Set(lines.filter((line) => line.outcome === 'sent').map((line) => line.gatewayId));
    expect(changed.size).toBeGreaterThanOrEqual(CHANGES_BEFORE_KILL);
    for (const gatewayId of changed) expect(sentTo).toContain(gatewayId);

    // Read back after the restart, each of them says it is unknown and to re-read the gateway.
    const entries = await new AuditLog({ dataDir }).read({ profileId: 'demo' });
    for (const gatewayId of changed)
      expect(entries.find((entry) => entry.gatewayId === gatewayId)).toMatchObject({
        kind: 'fleet',
        outcome: 'unknown',
        error: SENT_WITHOUT_OUTCOME,
      });
  });
});
