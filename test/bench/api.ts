// Benchmark suite `api` (issue 2): the typed client's cost over raw fetch, and the simulator's page rate
// against a bare node:http server answering the same precomputed page. Each ratio is measured in one run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { ApiClient } from '../../electron/services/api';
import { spawnSimulator } from '../helpers/simulator-process';
import type { BenchFigure } from './report';

const CONCURRENCY = 16;
const DEVICE_LIST_CALLS = 5_000;
const PAGE_REQUESTS = 4_000;
const ROUNDS = 5;

interface Fixture {
  accounts: Array<{
    username: string;
    password: string;
    role: string;
    customerId?: string | null;
    providerId?: string | null;
  }>;
  providerId: string;
  customers: Array<{ id: string; name: string }>;
}

/** The fixture a simulator started with these flags will serve (its accounts and passwords), from `--print-fixture`. */
export function printFixture(flags: string[]): Fixture {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'simulator/cli.ts', ...flags, '--print-fixture'],
    {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`--print-fixture failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Fixture;
}

async function login(url: string, username: string, password: string): Promise<string> {
  const client = new ApiClient({ baseUrl: url });
  const pair = await client.call('login', { params: {}, body: { username, password } });
  return pair.token;
}

/** Runs `count` calls of `call` with `concurrency` in flight; returns elapsed milliseconds. */
async function timeCalls(
  count: number,
  concurrency: number,
  call: (index: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await call(next++);
    }),
  );
  return performance.now() - started;
}

async function clientVersusRaw(): Promise<BenchFigure[]> {
  const flags = ['--seed', '1'];
  const fixture = printFixture(flags);
  const simulator = await spawnSimulator(flags);
  try {
    const account =
      fixture.accounts.find((candidate) => candidate.role !== 'PROVIDER_USER') ?? fixture.accounts[0]!;
    const customerId = account.customerId ?? fixture.customers[0]!.id;
    const token = await login(simulator.url, account.username, account.password);
    const client = new ApiClient({ baseUrl: simulator.url });
    const url = `${simulator.url}/api/customer/${customerId}/devices`;
    const headers = { 'X-Authorization': `Bearer ${token}`, Accept: 'application/json' };
    const raw = async () => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`raw call failed: ${response.status}`);
      return response.json();
    };
    const typed = () =>
      client.call('listCustomerDevices', { params: { customerId } }, { accessToken: token });
    await timeCalls(200, CONCURRENCY, raw); // warm both paths up
    await timeCalls(200, CONCURRENCY, typed);
    let rawMs = 0;
    let typedMs = 0;
    const perRound = DEVICE_LIST_CALLS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so that drift in machine load falls on both sides.
      if (round % 2 === 0) {
        rawMs += await timeCalls(perRound, CONCURRENCY, raw);
        typedMs += await timeCalls(perRound, CONCURRENCY, typed);
      } else {
        typedMs += await timeCalls(perRound, CONCURRENCY, typed);
        rawMs += await timeCalls(perRound, CONCURRENCY, raw);
      }
    }
    const devices = ((await raw()) as { data: unknown[] }).data.length;
    return [
      {
        name: 'client-vs-raw',
        value: typedMs / rawMs,
        unit: 'ratio',
        target: '<= 1.5',
        note: `${DEVICE_LIST_CALLS} device-list calls (${devices} devices each), concurrency ${CONCURRENCY}: client ${Math.round(typedMs)} ms, raw fetch ${Math.round(rawMs)} ms`,
      },
    ];
  } finally {
    await simulator.stop();
  }
}

/** A bare node:http server in its own process answering every request with the same bytes. */
async function startBareServer(body: string): Promise<{ url: string; stop(): void }> {
  const folder = mkdtempSync(join(tmpdir(), 'fieldkit-bench-'));
  const file = join(folder, 'page.json');
  writeFileSync(file, body);
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const server = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      response.end(body);
    });
    server.keepAliveTimeout = 72000;
    server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('listening ')) resolve(Number(line.slice(10)));
    }),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function simulatorPageRate(): Promise<BenchFigure[]> {
  const flags = ['--seed', '1', '--gateways', '10000', '--devices', '200'];
  const fixture = printFixture(flags);
  const simulator = await spawnSimulator(flags);
  const provider = fixture.accounts.find((account) => account.role === 'PROVIDER_USER')!;
  const token = await login(simulator.url, provider.username, provider.password);
  const headers = { 'X-Authorization': `Bearer ${token}`, Accept: 'application/json' };
  const pageUrl = (page: number) =>
    `${simulator.url}/api/v2/provider/${fixture.providerId}/gateways?limit=100&page=${page}`;
  const firstPage = await (await fetch(pageUrl(0), { headers })).text();
  const bare = await startBareServer(firstPage);
  try {
    const fetchPage = (url: string) => async () => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`page request failed: ${response.status}`);
      await response.arrayBuffer();
    };
    const simulated = (index: number) => fetchPage(pageUrl(index % 100))();
    const precomputed = fetchPage(`${bare.url}/page`);
    await timeCalls(300, CONCURRENCY, simulated);
    await timeCalls(300, CONCURRENCY, precomputed);
    let simulatorMs = 0;
    let bareMs = 0;
    const perRound = PAGE_REQUESTS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        simulatorMs += await timeCalls(perRound, CONCURRENCY, simulated);
        bareMs += await timeCalls(perRound, CONCURRENCY, precomputed);
      } else {
        bareMs += await timeCalls(perRound, CONCURRENCY, precomputed);
        simulatorMs += await timeCalls(perRound, CONCURRENCY, simulated);
      }
    }
    const simulatorRate = PAGE_REQUESTS / (simulatorMs / 1000);
    const bareRate = PAGE_REQUESTS / (bareMs / 1000);
    return [
      {
        name: 'simulator-page-rate',
        value: Math.round(simulatorRate),
        unit: 'req/s',
        note: `pages of 100 from a 10,000-gateway tenant, concurrency ${CONCURRENCY}`,
      },
      {
        name: 'simulator-page-rate-vs-bare',
        value: simulatorRate / bareRate,
        unit: 'ratio',
        target: '>= 0.5',
        note: `bare node:http answering the precomputed page: ${Math.round(bareRate)} req/s`,
      },
    ];
  } finally {
    bare.stop();
    await simulator.stop();
  }
}

/** Runs the `api` suite. */
export async function runApiBench(): Promise<BenchFigure[]> {
  return [...(await clientVersusRaw()), ...(await simulatorPageRate())];
}
