// Benchmark suite `fleet` (issue 5): a firewall change on 1,000 gateways against the simulator in its own process.
//  * fleet-1000-vs-ideal: total time ÷ (commands per gateway × 50 ms × 1,000 / 16), latency 50 ms, concurrency 16.
//  * fleet-failures-accounted: with --fail-rate 0.05, gateways the job reports failed ÷ gateways that failed,
//    where "failed" means failed after retries: the last command the server answered for that gateway was an
//    error (seen on the wire, independently of the job's own bookkeeping). Retries are limited to one here so
//    that some failures survive them; with the default four attempts almost none would. Any gateway missing
//    from (or repeated in) the result table makes the figure 0.
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ApiClient, ApiError, collectPages, type Fetch } from '../../electron/services/api';
import { FleetJob, type FleetChange } from '../../electron/services/fleet';
import { Session } from '../../electron/services/session';
import { spawnSimulator } from '../helpers/simulator-process';
import type { BenchFigure } from './report';

const GATEWAYS = 1_000;
const LATENCY_MS = 50;
const CONCURRENCY = 16;
const FAIL_RATE = 0.05;
const WARM_UP_CALLS = 160;
const PROVIDER = { username: 'provider@fieldkit.demo', password: 'demo-provider' };
const CHANGE: FleetChange = {
  kind: 'firewall',
  patch: { doSPrevention: { perMinLimit: 30, burstLimit: 90 } },
};
const COMMAND_PATH = /\/api\/gateway\/([^/]+)\/command\/([^/?]+)/;

/** A fetch that records the last HTTP status the server gave for each gateway's commands. */
function wireRecorder() {
  const lastStatus = new Map<string, number>();
  const fetch: Fetch = async (url, init) => {
    const gatewayId = COMMAND_PATH.exec(url)?.[1];
    try {
      const response = await globalThis.fetch(url, init);
      if (gatewayId) lastStatus.set(decodeURIComponent(gatewayId), response.status);
      return response;
    } catch (error) {
      if (gatewayId) lastStatus.set(decodeURIComponent(gatewayId), 0);
      throw error;
    }
  };
  return { fetch, lastStatus };
}

async function loggedIn(url: string, fetch: Fetch): Promise<Session> {
  const session = new Session({ client: new ApiClient({ baseUrl: url, fetch, timeoutMs: 30_000 }) });
  for (let attempt = 1; ; attempt++) {
    try {
      await session.login(PROVIDER.username, PROVIDER.password);
      return session;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 503) || attempt >= 50) throw error;
    }
  }
}

async function listGatewayIds(session: Session, providerId: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const gateways = await collectPages((page) =>
        session.call('listProviderGateways', {
          params: { providerId },
          query: { page, limit: 1_000, sortField: 'CREATED_TIME', sortDirection: 'ASC' },
        }),
      );
      return gateways.map((gateway) => gateway.id.id);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 503) || attempt >= 50) throw error;
    }
  }
}

/** Reads on a few gateways before timing: JIT, HTTP connections and the simulator's gateway state warm up. */
async function warmUp(session: Session, ids: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let index = next++; index < WARM_UP_CALLS; index = next++)
        await session.command(ids[index % ids.length]!, 'getBspStatus', {});
    }),
  );
}

/** The same number of commands as bare fetch calls at the same concurrency: what the machine allows at best. */
async function measureRawFloor(url: string, token: string, ids: string[], calls: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let index = next++; index < calls; index = next++) {
        const response = await fetch(
          `${url}/api/gateway/${ids[index % ids.length]}/command/getFirewallConfiguration`,
          {
            method: 'POST',
            headers: { 'X-Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: '{}',
          },
        );
        await response.text();
      }
    }),
  );
  return performance.now() - started;
}

async function withSimulator<Result>(
  flags: string[],
  body: (url: string) => Promise<Result>,
): Promise<Result> {
  const simulator = await spawnSimulator([
    '--gateways',
    String(GATEWAYS),
    '--offline-fraction',
    '0',
    '--latency-ms',
    String(LATENCY_MS),
    ...flags,
  ]);
  try {
    return await body(simulator.url);
  } finally {
    await simulator.stop();
  }
}

async function measureIdealRatio(): Promise<BenchFigure> {
  return withSimulator([], async (url) => {
    const recorder = wireRecorder();
    const session = await loggedIn(url, recorder.fetch);
    const providerId = session.info().providerId!;
    const ids = await listGatewayIds(session, providerId);
    await warmUp(session, ids);
    const job = new FleetJob(
      CHANGE,
      ids.map((gatewayId) => ({ gatewayId })),
      { commander: session, profileId: 'bench', user: PROVIDER.username, concurrency: CONCURRENCY },
    );
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const result = await job.run();
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const clientCpuMs = (cpu.user + cpu.system) / 1000;
    const callsPerGateway = result.commandsSent / ids.length;
    const idealMs = (callsPerGateway * LATENCY_MS * ids.length) / CONCURRENCY;
    const rawMs = await measureRawFloor(url, session.accessToken!, ids, result.commandsSent);
    return {
      name: 'fleet-1000-vs-ideal',
      value: elapsedMs / idealMs,
      unit: 'ratio',
      target: '<= 1.2',
      note: `${ids.length} gateways, ${callsPerGateway.toFixed(2)} commands each, ${(elapsedMs / 1000).toFixed(2)} s vs ideal ${(idealMs / 1000).toFixed(2)} s (client CPU ${(clientCpuMs / 1000).toFixed(2)} s; the same number of bare fetch calls at the same concurrency took ${(rawMs / 1000).toFixed(2)} s = ${(rawMs / idealMs).toFixed(2)} × ideal, the floor on this machine; load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores); ${result.message}`,
    };
  });
}

async function measureFailuresAccounted(): Promise<BenchFigure> {
  return withSimulator(['--fail-rate', String(FAIL_RATE), '--seed', '11'], async (url) => {
    const recorder = wireRecorder();
    const session = await loggedIn(url, recorder.fetch);
    const ids = await listGatewayIds(session, session.info().providerId!);
    const job = new FleetJob(
      CHANGE,
      ids.map((gatewayId) => ({ gatewayId })),
      {
        commander: session,
        profileId: 'bench',
        user: PROVIDER.username,
        concurrency: CONCURRENCY,
        maxAttempts: 2,
      },
    );
    const result = await job.run();
    const rowIds = result.rows.map((row) => row.gatewayId);
    const complete =
      rowIds.length === ids.length &&
      new Set(rowIds).size === ids.length &&
      ids.every((id) => rowIds.includes(id));
    const reported = new Set(
      result.rows.filter((row) => row.status === 'failed').map((row) => row.gatewayId),
    );
    const actual = new Set(
      ids.filter((id) => (recorder.lastStatus.get(id) ?? 0) >= 400 || recorder.lastStatus.get(id) === 0),
    );
    const agree = [...reported].every((id) => actual.has(id)) && [...actual].every((id) => reported.has(id));
    const value = !complete
      ? 0
      : actual.size === 0
        ? reported.size === 0
          ? 1
          : 0
        : reported.size / actual.size;
    return {
      name: 'fleet-failures-accounted',
      value,
      unit: 'ratio',
      target: '= 1',
      note: `${reported.size} reported failed, ${actual.size} failed on the wire (after 1 retry), same gateways: ${agree ? 'yes' : 'NO'}; table ${complete ? 'complete' : 'INCOMPLETE'} (${rowIds.length}/${ids.length}); ${result.message}`,
    };
  });
}

/** Runs the fleet benchmark: both figures, each against its own simulator process. */
export async function runFleetBench(): Promise<BenchFigure[]> {
  return [await measureIdealRatio(), await measureFailuresAccounted()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runFleetBench();
  for (const figure of figures)
    console.log(
      `${figure.name}: ${figure.value.toFixed(3)} ${figure.unit} (${figure.target}) — ${figure.note}`,
    );
}
