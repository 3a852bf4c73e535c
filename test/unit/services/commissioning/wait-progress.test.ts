import { describe, expect, it } from 'vitest';
import {
  AuditedGateway,
  GatewayTasks,
  GatewayUnreachableError,
  RESTART_START_TIMEOUT_MS,
  waitForGateway,
  type GatewayRunEvent,
  type WaitingNotice,
} from '../../../../electron/services/commissioning';
import { ApiError } from '../../../../electron/services/api';
import { commanderAnswering } from '../../../helpers/commander';
import { COMMAND_TIMEOUT_MS } from '../../../../electron/services/commissioning/audited-gateway';
import { ManualClock } from '../../../helpers/manual-clock';
import { createSimulatedGateway } from '../../../helpers/simulated-gateway';

const START = Date.UTC(2026, 10, 25, 9, 0);

/** Moves time a second at a time (letting promises settle in between) until `work` ends; bounded. */
async function runToEnd<T>(manual: ManualClock, work: Promise<T>): Promise<T> {
  let isDone = false;
  const watched = work.finally(() => (isDone = true));
  // Its rejection is the caller's to check, once this returns it.
  watched.catch(() => undefined);
  for (let step = 0; step < 10_000 && !isDone; step++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!isDone) manual.advance(1_000);
  }
  return watched;
}

/** A gateway that answers 408 to its first `silentCalls` probes, each probe taking `probeMs` of the clock. */
function silentCommander(manual: ManualClock, silentCalls: number, probeMs = 0) {
  let calls = 0;
  return commanderAnswering(async () => {
    calls++;
    if (probeMs > 0) await manual.sleep(probeMs);
    if (calls <= silentCalls)
      throw new ApiError(408, 2, 'Gateway did not answer getBspStatus', 'getBspStatus');
    return {};
  });
}

describe('waiting for a gateway', () => {
  it('says once what it waits for and when it gives up, with no count or elapsed time to go stale', async () => {
    const manual = new ManualClock();
    manual.time = START;
    const notices: WaitingNotice[] = [];
    await runToEnd(
      manual,
      waitForGateway(silentCommander(manual, 5, 2_000), 'gw-1', {
        clock: manual,
        reason: 'it is rebooting',
        timeoutMs: 600_000,
        onWaiting: (notice) => notices.push(notice),
      }),
    );
    expect(notices).toEqual([
      {
        attempt: 1,
        waitedMs: 0,
        deadlineAt: START + 600_000,
        message: 'Waiting for the gateway to answer again (it is rebooting)',
      },
    ]);
  });

  it('gives up no later than the deadline it announced', async () => {
    const manual = new ManualClock();
    manual.time = START;
    let deadlineAt = 0;
    const waiting = waitForGateway(silentCommander(manual, Number.MAX_SAFE_INTEGER, 1_000), 'gw-1', {
      clock: manual,
      timeoutMs: 60_000,
      onWaiting: (notice) => (deadlineAt = notice.deadlineAt),
    });
    await expect(runToEnd(manual, waiting)).rejects.toBeInstanceOf(GatewayUnreachableError);
    expect(deadlineAt).toBe(START + 60_000);
    // The last probe may have been under way at the deadline: at most one probe late.
    expect(manual.now()).toBeLessThanOrEqual(deadlineAt + 1_000);
  });
});

describe('a backup restore as the technician follows it', () => {
  it('shows one current line at a time, each with its deadline, and names the backup it restored', async () => {
    const manual = new ManualClock();
    manual.time = START;
    const gateway = createSimulatedGateway({ clock: manual });
    gateway.state.backups.push({
      description: 'before APN change',
      date: '2026-11-25T08:00:00',
      index: 1,
      configuration: structuredClone(gateway.state.configuration),
    });
    const tasks = new GatewayTasks('gw-1', {
      commander: gateway.commander,
      profileId: 'demo',
      user: 'tech@example.com',
      clock: manual,
      gatewayReturnTimeoutMs: 600_000,
    });
    const events: GatewayRunEvent[] = [];
    tasks.on('event', (event) => events.push(event));

    const result = await runToEnd(manual, tasks.restoreBackup(1));

    expect(result.message).toMatch(
      /^Backup "before APN change" restored; the gateway answered again after \d+ sec\.$/,
    );
    const waits = events.flatMap((event) => (event.type === 'waiting' ? [event] : []));
    expect(waits.map((event) => [event.notice.message, event.notice.deadlineAt - event.at])).toEqual([
      [
        'Waiting for the gateway to take the restore of backup "before APN change" (it may go down before it answers)',
        COMMAND_TIMEOUT_MS,
      ],
      [
        'Waiting for the gateway to go down (it restarts with backup "before APN change")',
        RESTART_START_TIMEOUT_MS,
      ],
      ['Waiting for the gateway to answer again (it restarts with backup "before APN change")', 600_000],
    ]);
    const texts = events.flatMap((event) => ('message' in event ? [event.message] : []));
    expect(texts.join('\n')).not.toMatch(/attempt \d|so far/);
  });
});

describe('a verification that polls until the change shows', () => {
  it("says what it waits for on each try, with the verification's deadline, as a wait rather than progress", async () => {
    const manual = new ManualClock();
    manual.time = START;
    const gateway = createSimulatedGateway({ clock: manual });
    const run = new AuditedGateway('gw-1', 'run-1', {
      commander: gateway.commander,
      profileId: 'demo',
      user: 'tech@example.com',
      clock: manual,
    });
    const events: GatewayRunEvent[] = [];
    run.on('event', (event) => events.push(event));
    let reads = 0;

    const { isDone } = await runToEnd(
      manual,
      run.context(new AbortController().signal, START + 90_000).poll(
        async () => ++reads,
        (count) => count >= 4,
        {
          timeoutMs: 120_000,
          intervalMs: 5_000,
          describe: (count) => `Ping 8.8.8.8: ${count - 1} of 4 received, trying again`,
        },
      ),
    );

    expect(isDone).toBe(true);
    expect(events.filter((event) => event.type === 'progress')).toEqual([]);
    expect(
      events.flatMap((event) =>
        event.type === 'waiting' ? [[event.notice.message, event.notice.deadlineAt]] : [],
      ),
    ).toEqual([
      ['Ping 8.8.8.8: 0 of 4 received, trying again', START + 90_000],
      ['Ping 8.8.8.8: 1 of 4 received, trying again', START + 90_000],
      ['Ping 8.8.8.8: 2 of 4 received, trying again', START + 90_000],
    ]);
  });
});

describe('a software upgrade as the technician follows it', () => {
  it('gives each progress line of the install the time it gives up at', async () => {
    const manual = new ManualClock();
    manual.time = START;
    const tasks = new GatewayTasks('gw-1', {
      commander: createSimulatedGateway({ clock: manual }).commander,
      profileId: 'demo',
      user: 'tech@example.com',
      clock: manual,
      gatewayReturnTimeoutMs: 1_800_000,
    });
    const events: GatewayRunEvent[] = [];
    tasks.on('event', (event) => events.push(event));

    const result = await runToEnd(manual, tasks.upgrade());

    expect(result.outcome).toBe('ok');
    const installing = events.flatMap((event) =>
      event.type === 'progress' && event.fraction !== undefined && event.fraction < 1 ? [event] : [],
    );
    expect(installing.length).toBeGreaterThan(0);
    expect(installing.map((event) => event.deadlineAt)).toEqual(installing.map(() => START + 1_800_000));
  });
});
