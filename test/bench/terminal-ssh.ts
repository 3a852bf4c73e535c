// Main's side of `npm run bench -- terminal`: a flood through relay → SshService, measured in this process with no
// browser (runMainSshFloods); terminal.ts measures the whole path through Chromium.
import { createHash } from 'node:crypto';
import type { SshSession } from '../../electron/services/ssh/ssh-session';
import { startSshWorldProcess } from '../../simulator/ssh/world-process';
import { startOpenSshRelay } from '../helpers/sshd';
import { createServiceHarness, readUntil } from '../integration/ssh/ssh-fixtures';
import type { BenchFigure } from './report';

/** Where flood bytes go: call `written` once the renderer has written the chunk (xterm's write callback). */
export interface FloodRenderer {
  write(chunk: Uint8Array, written: () => void): void;
}

/** What one SSH flood measured. */
export interface SshFloodMeasurement {
  megabytes: number;
  elapsedMs: number;
  /** Flood bytes per second through relay → main → renderer, in MB/s (1 MB = 10^6 bytes). */
  throughputMBs: number;
  /** True when the received body's SHA-256 equals the one the shell printed. */
  isComplete: boolean;
  /** Peak main-process RSS during the flood minus RSS just before it, in MB (10^6 bytes). */
  rssGrowthMB: number;
  /** Keystroke → echo times during the flood, in ms. */
  keystrokeLatenciesMs: number[];
}

const KEYSTROKE = '%'; // never part of a flood (simulator/shell/flood.ts), so its echo is unambiguous
const GATEWAY = {
  id: 'bench-gateway',
  hostname: 'kona-bench',
  bspVersion: '7.1.2',
  rootPassword: 'bench-root',
};

/** A renderer that writes nothing and acknowledges at once: measures main's own ceiling. */
export const IMMEDIATE_RENDERER: FloodRenderer = { write: (_chunk, written) => written() };

/**
 * Floods `megabytes` through an open session while typing a keystroke every `keystrokeIntervalMs`,
 * handing every chunk to `renderer` and acknowledging it when the renderer says it was written.
 */
export async function measureFloodOnSession(
  session: SshSession,
  options: { megabytes: number; renderer?: FloodRenderer; keystrokeIntervalMs?: number; timeoutMs?: number },
): Promise<SshFloodMeasurement> {
  const renderer = options.renderer ?? IMMEDIATE_RENDERER;
  const hash = createHash('sha256');
  const latencies: number[] = [];
  let phase: 'command' | 'body' | 'done' = 'command';
  let carry = '';
  let announced = '';
  let keystrokeSentAt: number | undefined;
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const startedAt = performance.now();

  return new Promise((resolve, reject) => {
    const rssTimer = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }, 20);
    const keystrokeTimer = setInterval(() => {
      if (phase !== 'body' || keystrokeSentAt !== undefined) return;
      keystrokeSentAt = performance.now();
      session.write(KEYSTROKE);
    }, options.keystrokeIntervalMs ?? 100);
    const timeout = setTimeout(
      () => finish(new Error(`flood ${options.megabytes} did not finish in time`)),
      options.timeoutMs ?? 300_000,
    );

    const onData = (chunk: Uint8Array) => {
      renderer.write(chunk, () => session.acknowledge(chunk.byteLength));
      let text = carry + Buffer.from(chunk).toString('latin1');
      carry = '';
      if (phase === 'command') {
        const lineEnd = text.indexOf('\r\n');
        if (lineEnd < 0) {
          carry = text;
          return;
        }
        phase = 'body';
        text = text.slice(lineEnd + 2);
      }
      if (phase !== 'body') return;
      if (text.includes(KEYSTROKE) && keystrokeSentAt !== undefined) {
        latencies.push(performance.now() - keystrokeSentAt);
        keystrokeSentAt = undefined;
      }
      text = text.split(KEYSTROKE).join('');
      const hashAt = text.indexOf('sha256 ');
      if (hashAt >= 0 && /sha256 [0-9a-f]{64}\r\n/.test(text.slice(hashAt))) {
        hash.update(text.slice(0, hashAt), 'latin1');
        announced = text.slice(hashAt + 7, hashAt + 7 + 64);
        phase = 'done';
        finish();
        return;
      }
      // Keep a possible partial "sha256 …" line for the next chunk; hash the rest now.
      const keep = hashAt >= 0 ? text.length - hashAt : Math.min(text.length, 80);
      hash.update(text.slice(0, text.length - keep), 'latin1');
      carry = text.slice(text.length - keep);
    };

    function finish(error?: Error) {
      clearInterval(rssTimer);
      clearInterval(keystrokeTimer);
      clearTimeout(timeout);
      session.off('data', onData);
      if (error) {
        reject(error);
        return;
      }
      const elapsedMs = performance.now() - startedAt;
      resolve({
        megabytes: options.megabytes,
        elapsedMs,
        throughputMBs: options.megabytes / (elapsedMs / 1000),
        isComplete: hash.digest('hex') === announced,
        rssGrowthMB: (rssPeak - rssBefore) / 1e6,
        keystrokeLatenciesMs: latencies,
      });
    }

    session.on('data', onData);
    session.write(`flood ${options.megabytes}\r`);
  });
}

/**
 * Starts a simulated gateway in a child process (as a real one would be) behind a relay — the
 * simulator's own (default) or a real OpenSSH sshd with the gateway running `ssh -R` (needs root) —
 * opens a reverse-SSH session through SshService in this process and measures a flood on it.
 */
export async function measureSshFlood(
  options: {
    megabytes?: number;
    renderer?: FloodRenderer;
    keystrokeIntervalMs?: number;
    relay?: 'simulator' | 'openssh';
  } = {},
): Promise<SshFloodMeasurement> {
  const openSshRelay = options.relay === 'openssh' ? await startOpenSshRelay() : undefined;
  const world = await startSshWorldProcess({
    seed: 'bench',
    relayUser: 'bench-relay',
    relayPassword: 'bench-relay-password',
    gateways: [GATEWAY],
    tunnelClient: openSshRelay ? 'openssh' : 'ssh2',
  });
  const harness = await createServiceHarness(world.tunnels);
  try {
    const session = await harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: openSshRelay
        ? {
            host: openSshRelay.host,
            port: openSshRelay.port,
            username: openSshRelay.username,
            password: openSshRelay.password,
          }
        : world.relay,
      ...(openSshRelay
        ? {
            portRange: [openSshRelay.permittedPorts[0]!, openSshRelay.permittedPorts.at(-1)!] as [
              number,
              number,
            ],
          }
        : {}),
      rootPassword: GATEWAY.rootPassword,
      cols: 120,
      rows: 40,
    });
    await readUntil(session, `root@${GATEWAY.hostname}:~# `);
    return await measureFloodOnSession(session, { megabytes: options.megabytes ?? 50, ...options });
  } finally {
    await harness.cleanup();
    await world.close();
    await openSshRelay?.stop();
  }
}

/** The 95th percentile of a sample list (nearest rank); NaN for an empty list. */
export function percentile95(samples: number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
}

/**
 * Main's own ceiling: `ssh-flood-main-mbs`, a flood through the simulator's relay into SshService with a renderer
 * that acknowledges at once, and `ssh-flood-main-mbs-openssh-relay`, the same through a real OpenSSH sshd relay
 * with the gateway's tunnel opened by OpenSSH's `ssh -R` (as in the field). Far above the Chromium figure, they say
 * the browser side sets the pace.
 */
export async function runMainSshFloods(megabytes: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const relay of ['simulator', 'openssh'] as const) {
    const measurement = await measureSshFlood({ megabytes, relay });
    figures.push({
      name: relay === 'simulator' ? 'ssh-flood-main-mbs' : 'ssh-flood-main-mbs-openssh-relay',
      value: measurement.isComplete ? Number(measurement.throughputMBs.toFixed(1)) : 0,
      unit: 'MB/s',
      note: `${megabytes} MB through ${relay === 'simulator' ? "the simulator's relay" : 'OpenSSH sshd and ssh -R'} into SshService, acknowledged at once (no browser)${measurement.isComplete ? ', checksum equal' : ', CHECKSUM MISMATCH'}`,
    });
  }
  return figures;
}
