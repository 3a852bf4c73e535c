// The site acceptance check ("Check before leaving"), against the simulator with 50 ms latency on every answer,
// through the app's acceptance domain (CommandService, the signed-in session, the visit journal), the LoRa
// observation window left out (it is a fixed wait):
// * `acceptance-1gw-ms`: one gateway checked, from the start to its card journaled; the median of 5 runs.
// * `acceptance-20gw-vs-1gw`: twenty gateways of a visit checked together, over one gateway; medians of 3 and 5.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallCancellation } from '../../electron/app/call-cancellation';
import { createAcceptanceHandlers } from '../../electron/app/domains/acceptance';
import { ApiClient } from '../../electron/services/api';
import { CommandService } from '../../electron/services/commands';
import { Session } from '../../electron/services/session';
import { Visits } from '../../electron/services/visit';
import { SYSTEM_CLOCK } from '../../electron/shared/clock';
import type { AcceptanceProgress } from '../../electron/shared/ipc/domains/acceptance';
import { spawnSimulator } from '../helpers/simulator-process';
import { makeSessionSummary } from '../helpers/factories';
import type { BenchFigure } from './report';

const LATENCY_MS = 50;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs the acceptance benchmark and answers its two figures. */
export async function runAcceptanceBench(): Promise<BenchFigure[]> {
  // The simulator in its own process, as the app meets a server: its work does not hold up the app's.
  const simulator = await spawnSimulator([
    '--latency-ms',
    String(LATENCY_MS),
    '--offline-fraction',
    '0',
    '--gateways',
    '40',
  ]);
  const folder = await mkdtemp(join(tmpdir(), 'fieldkit-bench-acceptance-'));
  try {
    const session = new Session({ client: new ApiClient({ baseUrl: simulator.url, timeoutMs: 30_000 }) });
    await session.login('provider@fieldkit.demo', 'demo-provider');
    const visits = new Visits({ dataDir: folder });
    await visits.load();
    let onEnd: (event: AcceptanceProgress) => void = () => undefined;
    const handlers = createAcceptanceHandlers({
      sessions: { summary: () => makeSessionSummary(), requireSession: () => session },
      cancellation: new CallCancellation(),
      commands: new CommandService({
        transport: {
          command: (gatewayId, name, body, options) => session.command(gatewayId, name, body, options),
        },
      }),
      visits,
      clock: SYSTEM_CLOCK,
      events: {
        emit: (name, payload) => {
          const event = payload as AcceptanceProgress;
          if (name === 'acceptance:progress' && ['done', 'cancelled', 'failed'].includes(event.phase))
            onEnd(event);
        },
      },
      log: { error: (message, error) => console.error(message, error) },
    });
    const providerId = session.info().providerId ?? '';
    const gateways = (
      await session.call('listProviderGateways', {
        params: { providerId },
        query: { page: 0, limit: 20, sortField: 'NAME', sortDirection: 'ASC' },
      })
    ).data.map((gateway) => ({ id: gateway.id.id, name: gateway.name }));
    /** The app's own CPU time of each run (the simulator's is the rest of the elapsed time, in its process). */
    let clientCpuMs: number[] = [];
    const check = async (count: number): Promise<number> => {
      const ended = new Promise<AcceptanceProgress>((resolve) => (onEnd = resolve));
      const started = performance.now();
      const cpu = process.cpuUsage();
      await handlers['acceptance:start'](
        {
          targets: gateways.slice(0, count).map((gateway) => ({ gatewayId: gateway.id, name: gateway.name })),
          observationSeconds: 0,
        },
        { channel: 'acceptance:start' },
      );
      const end = await ended;
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpu);
      clientCpuMs.push((used.user + used.system) / 1000);
      if (end.phase !== 'done' || end.cards?.length !== count)
        throw new Error(`the check ended ${end.phase}: ${end.message ?? ''}`);
      return elapsed;
    };
    await check(1); // warm-up: connections, JIT
    const one: number[] = [];
    for (let run = 0; run < 5; run++) one.push(await check(1));
    const oneCpuMs = median(clientCpuMs);
    clientCpuMs = [];
    const twenty: number[] = [];
    for (let run = 0; run < 3; run++) twenty.push(await check(20));
    const oneMs = median(one);
    const twentyMs = median(twenty);
    const twentyCpuMs = median(clientCpuMs);
    return [
      {
        name: 'acceptance-1gw-ms',
        value: Math.round(oneMs),
        unit: 'ms',
        target: '<= 4000',
        note: `one gateway, ${LATENCY_MS} ms latency, no observation window; runs ${one.map(Math.round).join(', ')} ms; the app's CPU ${Math.round(oneCpuMs)} ms`,
      },
      {
        name: 'acceptance-20gw-vs-1gw',
        value: Math.round((twentyMs / oneMs) * 100) / 100,
        unit: 'ratio',
        target: '<= 1.5',
        note: `twenty gateways (${20 * 21} requests) together ${Math.round(twentyMs)} ms (runs ${twenty.map(Math.round).join(', ')}; the app's CPU ${Math.round(twentyCpuMs)} ms) over one ${Math.round(oneMs)} ms`,
      },
    ];
  } finally {
    await simulator.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
