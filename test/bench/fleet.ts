// Benchmark suite `fleet` (issue 5): a firewall change on 1,000 gateways against the simulator in its own process.
//  * fleet-1000-vs-ideal: total time ÷ (commands per gateway × 50 ms × 1,000 / 16), latency 50 ms, concurrency 16.
//  * fleet-failures-accounted: with --fail-rate 0.05, gateways the job reports not done (failed or unknown) ÷
//    gateways that did not get the change, judged on the server's own state read after the job (independently
//    of the job's bookkeeping; since issue 20 a row reads back after a lost answer, so the last status on the
//    wire no longer says whether the change landed). Retries are limited to one here so that some failures
//    survive them; with the default four attempts almost none would. Any gateway missing from (or repeated in)
//    the result table makes the figure 0.
//  * fleet-wrong-claims (issue 20): with --fail-rate 0.1 --drop-rate 0.05 --drop-after-rate 0.05 (writes carried
//    out and their answer lost), rows claiming applied (done, already set) or not applied (failed, skipped,
//    cancelled) when the server's state says the opposite. "unknown" claims neither. Target 0.
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ApiClient, ApiError, collectPages, type Fetch } from '../../electron/services/api';
import { FleetJob, type FleetChange, type FleetRowStatus } from '../../electron/services/fleet';
import { Session } from '../../electron/services/session';
import { spawnSimulator } from '../helpers/simulator-process';
import type { BenchFigure } from './report';

const GATEWAYS = 1_000;
const LATENCY_MS = 50;
const CONCURRENCY = 16;
const FAIL_RATE = 0.05;
/** The faults of fleet-wrong-claims (issue 20). */
const TRUTH_FLAGS = [
  '--fail-rate',
  '0.1',
  '--drop-rate',
  '0.05',
  '--drop-after-rate',
  '0.05',
  '--seed',
  '20',
];
/** Attempts at reading one gateway's state through the faults before the figure gives up. */
const STATE_READ_ATTEMPTS = 50;
/** Row statuses that claim the change holds, and those that claim it does not. */
const CLAIMS_APPLIED = new Set<FleetRowStatus>(['done', 'unchanged']);
const CLAIMS_NOT_APPLIED = new Set<FleetRowStatus>(['failed', 'skipped', 'cancelled']);
const WARM_UP_CALLS = 160;
const PROVIDER = { username: 'provider@fieldkit.demo', password: 'demo-provider' };
const CHANGE: FleetChange = {
  kind: 'firewall',
  patch: { doSPrevention: { perMinLimit: 30, burstLimit: 90 } },
};
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
      const gateways = await collectPages(
        (page) =>
          session.call('listProviderGateways', {
            params: { providerId },
            query: { page, limit: 1_000, sortField: 'CREATED_TIME', sortDirection: 'ASC' },
          }),
        { endpoint: 'listProviderGateways', pageSize: 1_000 },
      );
      return gateways.map((gateway) => gateway.id.id);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 503) || attempt >= 50) throw error;
    }
  }
}

/** True when the gateway's firewall, as the server holds it, has CHANGE (read through the faults, bounded). */
async function holdsChange(session: Session, gatewayId: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      const firewall = (await session.command(gatewayId, 'getFirewallConfiguration', {})) as {
        doSPrevention: { perMinLimit: number; burstLimit: number };
      };
      const wanted = CHANGE.kind === 'firewall' ? CHANGE.patch.doSPrevention : undefined;
      return (
        firewall.doSPrevention.perMinLimit === wanted?.perMinLimit &&
        firewall.doSPrevention.burstLimit === wanted?.burstLimit
      );
    } catch (error) {
      if (attempt >= STATE_READ_ATTEMPTS) throw error;
    }
  }
}

/** Which gateways hold CHANGE after the job, read CONCURRENCY at a time. */
async function statesAfter(session: Session, ids: string[]): Promise<Map<string, boolean>> {
  const states = new Map<string, boolean>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let index = next++; index < ids.length; index = next++)
        states.set(ids[index]!, await holdsChange(session, ids[index]!));
    }),
  );
  return states;
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
    const session = await loggedIn(url, globalThis.fetch);
    const providerId = session.info().providerId!;
    const ids = await listGatewayIds(session, providerId);
    await warmUp(session, ids);
    const job = new FleetJob(
      CHANGE,
      ids.map((gatewayId) => ({ gatewayId })),
      {
        commander: session,
        profileId: 'bench',
        user: PROVIDER.username,
        concurrency: CONCURRENCY,
        confirmation: { gatewayCount: ids.length },
      },
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
    const session = await loggedIn(url, globalThis.fetch);
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
        confirmation: { gatewayCount: ids.length },
      },
    );
    const result = await job.run();
    const rowIds = result.rows.map((row) => row.gatewayId);
    const complete =
      rowIds.length === ids.length &&
      new Set(rowIds).size === ids.length &&
      ids.every((id) => rowIds.includes(id));
    const reported = new Set(
      result.rows
        .filter((row) => row.status === 'failed' || row.status === 'unknown')
        .map((row) => row.gatewayId),
    );
    const states = await statesAfter(session, ids);
    const actual = new Set(ids.filter((id) => !states.get(id)));
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
      note: `${reported.size} reported failed or unknown, ${actual.size} without the change on the server (after 1 retry), same gateways: ${agree ? 'yes' : 'NO'}; table ${complete ? 'complete' : 'INCOMPLETE'} (${rowIds.length}/${ids.length}); ${result.message}`,
    };
  });
}

async function measureWrongClaims(): Promise<BenchFigure> {
  return withSimulator(TRUTH_FLAGS, async (url) => {
    const session = await loggedIn(url, globalThis.fetch);
    const ids = await listGatewayIds(session, session.info().providerId!);
    const result = await new FleetJob(
      CHANGE,
      ids.map((gatewayId) => ({ gatewayId })),
      {
        commander: session,
        profileId: 'bench',
        user: PROVIDER.username,
        concurrency: CONCURRENCY,
        confirmation: { gatewayCount: ids.length },
      },
    ).run();
    const states = await statesAfter(session, ids);
    const wrong = result.rows.filter((row) =>
      states.get(row.gatewayId) ? CLAIMS_NOT_APPLIED.has(row.status) : CLAIMS_APPLIED.has(row.status),
    );
    const complete = result.rows.length === ids.length;
    return {
      name: 'fleet-wrong-claims',
      value: complete ? wrong.length : ids.length,
      unit: 'rows',
      target: '= 0',
      note: `${ids.length} gateways under ${TRUTH_FLAGS.slice(0, 6).join(' ')}; ${wrong.length} row(s) claim the opposite of the server's state${wrong.length > 0 ? ` (e.g. ${wrong[0]!.status}: ${wrong[0]!.reason ?? ''})` : ''}; table ${complete ? 'complete' : 'INCOMPLETE'}; ${result.message}`,
    };
  });
}

/** Runs the fleet benchmark: each figure against its own simulator process. */
export async function runFleetBench(): Promise<BenchFigure[]> {
  return [await measureIdealRatio(), await measureFailuresAccounted(), await measureWrongClaims()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runFleetBench();
  for (const figure of figures)
    console.log(
      `${figure.name}: ${figure.value.toFixed(3)} ${figure.unit} (${figure.target}) — ${figure.note}`,
    );
}
