import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultRunbooks } from '../../../electron/services/runbooks/default-runbooks';
import { RunbookRuns } from '../../../electron/services/runbooks/runbook-runs';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import { createRunbookJournal, Visits } from '../../../electron/services/visit';
import { SYSTEM_CLOCK } from '../../../electron/shared/clock';
import type { Runbook, RunbookSessionResult } from '../../../electron/shared/terminal/runbook-schemas';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { readTerminal } from './terminal-reader';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

// A runbook on two gateways' serial consoles at once, each a simulated console on a socat pty, through the real
// SerialPorts, TerminalManager and visit journal: the packet forwarder runs on one and is stopped on the other.

const ROOT_PASSWORD = 'Label-Pass-42';

/** The shipped status runbook, its first step given 2 s instead of 10 so the failing gateway fails sooner. */
function statusRunbook(): Runbook {
  const shipped = structuredClone(
    defaultRunbooks().find((runbook) => runbook.id === 'shipped-packet-forwarder-status')!,
  );
  shipped.steps[0]!.timeLimitSeconds = 2;
  return shipped;
}

describe('a runbook on two serial consoles', () => {
  let directory: string;
  let consoles: AttachedSerialConsole[];
  let serialPorts: SerialPorts;
  let manager: TerminalManager;
  let visits: Visits;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'runbook-run-'));
    visits = new Visits({ dataDir: directory });
    await visits.load();
    consoles = await Promise.all(
      (['north', 'south'] as const).map((side) =>
        attachSerialConsole({
          gateway: {
            gatewayId: `kona-${side}`,
            hostname: `kona-${side}`,
            bspVersion: '7.1.2',
            rootPassword: ROOT_PASSWORD,
          },
          shellContext: { isPacketForwarderRunning: side === 'north' },
          linkPath: join(directory, `console-${side}`),
        }),
      ),
    );
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
    manager = new TerminalManager({
      events: { emit: () => undefined },
      ...serialOnlyTerminals(serialPorts),
    });
  });

  afterEach(async () => {
    await manager.closeAll();
    await serialPorts.closeAll();
    await Promise.all(consoles.map((attached) => attached.close()));
    await visits.shutdown();
    await rm(directory, { recursive: true, force: true });
  });

  /** Opens a console and logs in as root, as the technician would before running a runbook. */
  async function openLoggedIn(index: number): Promise<string> {
    const gateway = index === 0 ? 'kona-north' : 'kona-south';
    const info = await manager.openSerial({ path: consoles[index]!.linkPath, gateway });
    const terminal = readTerminal(manager.runbookTarget(info.id).session);
    manager.write(info.id, '\r');
    await terminal.waitForText(`${gateway} login: `);
    let from = terminal.byteCount;
    manager.write(info.id, 'root\r');
    await terminal.waitForText('Password: ', from);
    from = terminal.byteCount;
    manager.write(info.id, `${ROOT_PASSWORD}\r`);
    await terminal.waitForText(`root@${gateway}:~# `, from);
    return info.id;
  }

  it('passes on the gateway whose forwarder runs, stops at the failing step on the other, and records both', async () => {
    const [north, south] = [await openLoggedIn(0), await openLoggedIn(1)];
    const progress: RunbookSessionResult[] = [];
    const runs = new RunbookRuns({
      target: (id) => manager.runbookTarget(id),
      journal: createRunbookJournal({
        recorder: visits,
        resolve: async (hint) => ({ typed: hint.typed ?? '' }),
      }),
      clock: SYSTEM_CLOCK,
      onProgress: (_runId, result) => progress.push(result),
    });

    const run = await runs.run('run-1', statusRunbook(), [north, south]);

    const [onNorth, onSouth] = run.sessions;
    expect(onNorth?.outcome).toBe('ok');
    expect(onNorth?.steps.map((step) => step.status)).toEqual(['seen', 'seen', 'seen']);
    expect(onNorth?.steps[1]?.seenIn).toMatch(/ \/usr\/bin\/pkt_fwd -c /);
    expect(onSouth?.outcome).toBe('failed');
    expect(onSouth?.steps.map((step) => step.status)).toEqual(['not-seen', 'not-run', 'not-run']);
    expect(progress.some((result) => result.terminalId === south && result.current?.index === 0)).toBe(true);

    const open = visits.current();
    const recorded = visits
      .entries(open!.id)
      .map((line) => line.entry as VisitEntry)
      .filter((entry) => entry.kind === 'runbook');
    expect(
      recorded.map((entry) => [entry.gateway?.typed, entry.outcome, entry.steps.map((step) => step.status)]),
    ).toEqual([
      ['kona-north', 'ok', ['seen', 'seen', 'seen']],
      ['kona-south', 'failed', ['not-seen', 'not-run', 'not-run']],
    ]);

    const southLog = manager.runbookTarget(south).session.logPath!;
    await manager.closeAll();
    const logText = await readFile(southLog, 'utf8');
    expect(logText).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] \[Field Kit\] Runbook "Show LoRa packet forwarder status" step 1 of 3, sent "\/etc\/init\.d\/pkt_fwd status": did not see pattern "\^running\$" within 2 s\. The run stops here\.\r$/m,
    );
    expect(logText).toContain('inactive');
    expect(logText).not.toContain('ps | grep pkt_fwd');
  });
});
