// Benchmark suite `ipc` (issue 3): the cost of the browser host's WebSocket router over calling the service
// directly, and the time from spawning `npm run host` to a login view that accepts input.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { ensureHostBundle } from '../../build/host-bundle.mjs';
import { MemoryStore } from '../../electron/services/credentials';
import { startHost } from '../../electron/host';
import { ensureRendererBuilt } from '../e2e/support/renderer-build';
import { launchBrowser } from '../helpers/browser';
import { openHostSocket } from '../helpers/host-socket';
import type { BenchFigure } from './report';

const CALLS = 10_000;
const STARTUP_RUNS = 5;

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

/** Opens an authenticated WebSocket to a host the way the page does: token → key → /ipc with our Origin. */
const connect = openHostSocket;

async function routerOverhead(): Promise<BenchFigure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-bench-ipc-'));
  const host = await startHost({
    port: 0,
    dataDir,
    credentials: { store: new MemoryStore(), keychain: 'os' },
  });
  const socket = await connect(host.url);
  try {
    let nextId = 1;
    const pending = new Map<number, () => void>();
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number };
      if (message.id !== undefined) pending.get(message.id)?.();
    });
    const viaSocket = () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        pending.set(id, () => {
          pending.delete(id);
          resolve();
        });
        socket.send(JSON.stringify({ id, channel: 'app:info', input: null }));
      });
    const direct = async () => {
      await host.services.handlers['app:info'](undefined, { channel: 'app:info' });
    };
    const socketTimes: number[] = [];
    const directTimes: number[] = [];
    for (let warmup = 0; warmup < 500; warmup++) {
      await viaSocket();
      await direct();
    }
    // Interleaved, so that drift in machine load falls on both sides.
    for (let call = 0; call < CALLS; call++) {
      let started = performance.now();
      await viaSocket();
      socketTimes.push((performance.now() - started) * 1000);
      started = performance.now();
      await direct();
      directTimes.push((performance.now() - started) * 1000);
    }
    socketTimes.sort((a, b) => a - b);
    directTimes.sort((a, b) => a - b);
    const p50 = percentile(socketTimes, 0.5) - percentile(directTimes, 0.5);
    const p95 = percentile(socketTimes, 0.95) - percentile(directTimes, 0.95);
    const note = `${CALLS} app:info calls over the host's WebSocket vs. the handler called directly`;
    return [
      { name: 'router-overhead-p50-us', value: Math.round(p50), unit: 'µs', note },
      { name: 'router-overhead-p95-us', value: Math.round(p95), unit: 'µs', note },
      {
        name: 'router-overhead-p95-over-p50',
        value: p95 / p50,
        unit: 'ratio',
        note: `direct call p50 ${percentile(directTimes, 0.5).toFixed(1)} µs, p95 ${percentile(directTimes, 0.95).toFixed(1)} µs`,
      },
    ];
  } finally {
    socket.close();
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Spawns `npm run host -- --demo` and resolves with the URL it prints and a stop function. */
async function spawnHost(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    'npm',
    ['run', '--silent', 'host', '--', '--demo', '--port', '0', '--no-build', '--data-dir', dataDir],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('Field Kit UI: ')) resolve(line.slice('Field Kit UI: '.length));
    });
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before printing its URL`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        process.kill(-child.pid!, 'SIGTERM');
      }),
  };
}

async function startup(): Promise<BenchFigure[]> {
  // Built before the clock starts, as a previous `npm run host` would have: the figure is a start, not a build.
  await ensureRendererBuilt();
  await ensureHostBundle();
  const browser = await launchBrowser({ stepTimeoutMs: 30_000 });
  const times: number[] = [];
  try {
    for (let run = 0; run < STARTUP_RUNS; run++) {
      const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-bench-startup-'));
      const started = performance.now();
      const host = await spawnHost(dataDir);
      try {
        await browser.page.goto(host.url);
        const username = browser.page.getByRole('textbox', { name: 'User name' });
        await username.waitFor({ state: 'visible' });
        await username.fill('x'); // resolves once the field is enabled and editable
        times.push(performance.now() - started);
      } finally {
        await host.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  times.sort((a, b) => a - b);
  return [
    {
      name: 'startup-ms',
      value: Math.round(percentile(times, 0.5)),
      unit: 'ms',
      target: '<= 1500',
      note: `median of ${STARTUP_RUNS}: spawn \`npm run host -- --demo\` → login view accepts input (${times.map(Math.round).join(', ')} ms)`,
    },
  ];
}

/** Runs the `ipc` suite. */
export async function runIpcBench(): Promise<BenchFigure[]> {
  return [...(await routerOverhead()), ...(await startup())];
}
