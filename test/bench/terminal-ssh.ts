// Main's side of `npm run bench -- terminal`: a flood through relay → SshService, measured in this process with no
// browser (runMainSshFloods); terminal.ts measures the whole path through Chromium.
import { createHash } from 'node:crypto';
import type { SshSession } from '../../electron/services/ssh/ssh-session';
import { startSshWorldProcess } from '../../simulator/ssh/world-process';
import { startOpenSshRelay } from '../helpers/sshd';
import { createServiceHarness, readUntil } from '../integration/ssh/ssh-fixtures';
import type { BenchFigure } from './report';

/** What one SSH flood measured. */
export interface SshFloodMeasurement {
  megabytes: number;
  elapsedMs: number;
  /** Flood bytes per second through relay → main, in MB/s (1 MB = 10^6 bytes). */
  throughputMBs: number;
  /** True when the received body's SHA-256 equals the one the shell printed. */
  isComplete: boolean;
}

const GATEWAY = {
  id: 'bench-gateway',
  hostname: 'kona-bench',
  bspVersion: '7.1.2',
  rootPassword: 'bench-root',
};

/**
 * Floods `megabytes` through an open session, acknowledging every chunk at once (no renderer: main's own
 * ceiling), and hashes the flood's body against the `sha256` line the shell prints after it.
 */
export async function measureFloodOnSession(
  session: SshSession,
  options: { megabytes: number; timeoutMs?: number },
): Promise<SshFloodMeasurement> {
  const hash = createHash('sha256');
  let phase: 'command' | 'body' | 'done' = 'command';
  let carry = '';
  let announced = '';
  const startedAt = performance.now();

  return new Promise((resolve, reject) => {
    const timeout = setTimeout(
      () => finish(new Error(`flood ${options.megabytes} did not finish in time`)),
      options.timeoutMs ?? 300_000,
    );

    const onData = (chunk: Uint8Array) => {
      session.acknowledge(chunk.byteLength);
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
  options: { megabytes?: number; relay?: 'simulator' | 'openssh' } = {},
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
    return await measureFloodOnSession(session, { megabytes: options.megabytes ?? 50 });
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
 * Main's own ceiling: `ssh-flood-main-mbs`, a flood through the simulator's relay into SshService, every chunk
 * acknowledged at once, and `ssh-flood-main-mbs-openssh-relay`, the same through a real OpenSSH sshd relay
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
