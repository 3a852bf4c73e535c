import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAcceptanceHandlers } from '../../../electron/app/domains/acceptance';
import { CallCancellation } from '../../../electron/app/call-cancellation';
import { CommandService } from '../../../electron/services/commands';
import type { Session } from '../../../electron/services/session';
import { Visits } from '../../../electron/services/visit';
import type { AcceptanceProgress } from '../../../electron/shared/ipc/domains/acceptance';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import type { RunningSimulator } from '../../../simulator';
import { makeSessionSummary } from '../../helpers/factories';
import { ManualClock } from '../../helpers/manual-clock';
import { healthyGateway, startSimulatorSession } from '../commissioning/simulator-session';
import { acceptanceItemWords } from '../../../electron/shared/visit/acceptance-words';

// The check against the simulator on loopback, through the real CommandService and visit journal; the
// observation window runs on a ManualClock, so the test moves time instead of waiting a minute.

let simulator: RunningSimulator;
let session: Session;
let dataDir: string;
/** The app's and the simulator's one clock: the window's minute passes for both when the test advances it. */
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  ({ simulator, session } = await startSimulatorSession({ gateways: 24, clock }));
}, 60_000);

afterAll(async () => {
  await simulator?.close();
});

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-acceptance-'));
  return () => rm(dataDir, { recursive: true, force: true });
});

/** The acceptance domain over a real session and journal; counts the gateway commands still on the wire. */
async function rig() {
  const visits = new Visits({ dataDir, clock });
  await visits.load();
  const cancellation = new CallCancellation();
  let inFlight = 0;
  const commands = new CommandService({
    transport: {
      command: async (gatewayId, name, body, options) => {
        inFlight++;
        try {
          return await session.command(gatewayId, name, body, options);
        } finally {
          inFlight--;
        }
      },
    },
    clock,
  });
  const progress: AcceptanceProgress[] = [];
  let settle: (event: AcceptanceProgress) => void = () => undefined;
  const ended = new Promise<AcceptanceProgress>((resolve) => (settle = resolve));
  const handlers = createAcceptanceHandlers({
    sessions: { summary: () => makeSessionSummary(), requireSession: () => session },
    cancellation,
    commands,
    visits,
    clock,
    events: {
      emit: (name, payload) => {
        if (name !== 'acceptance:progress') return;
        const event = payload as AcceptanceProgress;
        progress.push(event);
        if (['done', 'cancelled', 'failed'].includes(event.phase)) settle(event);
      },
    },
    log: { error: () => undefined },
  });
  return { visits, cancellation, progress, ended, handlers, inFlight: () => inFlight };
}

/** Resolves once the check is watching the LoRa counters (the clock's one timer is the window). */
async function windowStarted(progress: AcceptanceProgress[]): Promise<void> {
  await expect
    .poll(() => progress.some((event) => event.phase === 'observing'), { timeout: 20_000 })
    .toBe(true);
  expect(clock.timers).toHaveLength(1);
}

describe('the acceptance check', () => {
  it('judges a healthy gateway go on every item once the window has passed, and journals the card', async () => {
    const gateway = healthyGateway(simulator, 2);
    simulator.world.fleet.setScenario(gateway.id, ['healthy']);
    const { visits, progress, ended, handlers } = await rig();
    await handlers['acceptance:start'](
      { targets: [{ gatewayId: gateway.id, name: gateway.name }] },
      { channel: 'acceptance:start' },
    );
    await windowStarted(progress);
    clock.advance(60_000);
    const end = await ended;
    expect(end.phase).toBe('done');
    const card = end.cards![0]!;
    expect(card.items.map((item) => [item.id, item.verdict])).toEqual([
      ['uplink', 'go'],
      ['cellular', 'go'],
      ['lora', 'go'],
      ['position', 'go'],
      ['software', 'go'],
      ['backup', 'go'],
      ['alarms', 'go'],
    ]);
    expect(card.verdict).toBe('go');
    const journaled = visits.entries(visits.current()!.id).map(({ entry }) => entry as VisitEntry);
    expect(journaled.filter((entry) => entry.kind === 'acceptance')).toEqual([
      { kind: 'acceptance', gateway: { gatewayId: gateway.id, name: gateway.name }, card },
    ]);
  }, 60_000);

  it('stops when the window is cancelled: nothing left running, and the card says not finished', async () => {
    const gateway = healthyGateway(simulator, 3);
    const { visits, cancellation, progress, ended, handlers, inFlight } = await rig();
    const { checkId } = await handlers['acceptance:start'](
      { targets: [{ gatewayId: gateway.id }] },
      { channel: 'acceptance:start' },
    );
    await windowStarted(progress);
    expect(cancellation.cancel(checkId)).toBe(true);
    const end = await ended;
    expect(end.phase).toBe('cancelled');
    const card = end.cards![0]!;
    expect(card.verdict).toBe('not-finished');
    const lora = card.items.find((item) => item.id === 'lora')!;
    expect(lora.verdict).toBe('not-finished');
    expect(acceptanceItemWords(lora).findings).toContain('The 60 s observation window was not finished.');
    // Nothing left: no timer on the clock, no command on the wire, and a later cancel finds nothing.
    expect(clock.timers).toHaveLength(0);
    expect(inFlight()).toBe(0);
    expect(cancellation.cancel(checkId)).toBe(false);
    const journaled = visits.entries(visits.current()!.id).map(({ entry }) => entry as VisitEntry);
    expect(journaled.find((entry) => entry.kind === 'acceptance')).toMatchObject({
      card: { verdict: 'not-finished' },
    });
  }, 60_000);
});
