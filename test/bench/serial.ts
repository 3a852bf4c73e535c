// `npm run bench -- serial`: a socat pty pair stands in for a USB adapter, opened by the serial service as the
// app opens it (SerialPorts, default reconnect policy, logging on).
// * `serial-replug-reopen-ms`: p95, over REPLUG_ROUNDS replugs, from starting socat again at the same link path to
//   the session open again. socat's own start-up (spawn, making both ptys) is inside the figure: the link appears
//   somewhere in it, so the figure is an upper bound on "adapter back → session open".
// * `serial-replug-bytes-lost`: after each reopen the far end sends BOOT_BYTES (numbered lines, as a booting
//   gateway would); the figure is the bytes missing or different in what the session handed to its screen, summed
//   over the rounds.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPorts } from '../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../electron/services/serial/serial-session';
import type { TerminalState } from '../../electron/services/terminal-core/terminal-session';
import { openRawEnd, startSocatPair } from '../helpers/socat';
import type { BenchFigure } from './report';

const REPLUG_ROUNDS = 20;
const BOOT_BYTES = 64 * 1024;
/** How long a round waits for the boot output before counting what is missing as lost. */
const BOOT_WAIT_MS = 10_000;

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number;
}

/** BOOT_BYTES of numbered boot lines, different each round so a replayed round would not pass. */
function bootOutput(round: number): Buffer {
  let text = '';
  for (let line = 0; text.length < BOOT_BYTES; line += 1) {
    text += `[${round}.${String(line).padStart(5, '0')}] kona-roof: starting service ${line % 23}\r\n`;
  }
  return Buffer.from(text.slice(0, BOOT_BYTES), 'latin1');
}

function nextState(session: SerialSession, wanted: TerminalState): Promise<void> {
  return new Promise((resolve) => {
    const listener = (state: TerminalState) => {
      if (state !== wanted) return;
      session.off('state', listener);
      resolve();
    };
    session.on('state', listener);
  });
}

/** Measures replugs of a socat pty at the same link path (see the head of this file). */
export async function runSerialReplugBench(): Promise<BenchFigure[]> {
  const socat = await startSocatPair();
  const logsDir = await mkdtemp(join(tmpdir(), 'fieldkit-bench-serial-'));
  const serialPorts = new SerialPorts({ logsDir });
  const reopenTimes: number[] = [];
  let bytesLost = 0;
  try {
    const session = (await serialPorts.open({ path: socat.pathA, gateway: 'bench' })) as SerialSession;
    let received: Buffer[] = [];
    let receivedCount = 0;
    let onReceived: (() => void) | undefined;
    session.on('data', (chunk) => {
      received.push(Buffer.from(chunk));
      receivedCount += chunk.length;
      session.acknowledge(chunk.length);
      onReceived?.();
    });
    for (let round = 0; round < REPLUG_ROUNDS; round += 1) {
      const reconnecting = nextState(session, 'reconnecting');
      await socat.stop();
      await reconnecting;
      const reopened = nextState(session, 'open');
      const startedAt = performance.now();
      await socat.restart();
      await reopened;
      reopenTimes.push(performance.now() - startedAt);

      received = [];
      receivedCount = 0;
      const boot = bootOutput(round);
      const farEnd = await openRawEnd(socat.pathB);
      const allArrived = new Promise<void>((resolve) => {
        onReceived = () => {
          if (receivedCount >= boot.length) resolve();
        };
        onReceived();
      });
      let timer: NodeJS.Timeout | undefined;
      await farEnd.write(boot);
      await Promise.race([allArrived, new Promise((resolve) => (timer = setTimeout(resolve, BOOT_WAIT_MS)))]);
      clearTimeout(timer);
      onReceived = undefined;
      await farEnd.close();
      const got = Buffer.concat(received).subarray(0, boot.length);
      const isExact =
        createHash('sha256').update(got).digest('hex') === createHash('sha256').update(boot).digest('hex');
      bytesLost += isExact ? 0 : boot.length - countEqualPrefix(got, boot);
    }
  } finally {
    await serialPorts.closeAll();
    await socat.cleanup();
    await rm(logsDir, { recursive: true, force: true });
  }
  return [
    {
      name: 'serial-replug-reopen-ms',
      value: Math.round(percentile(reopenTimes, 0.95)),
      unit: 'ms',
      target: '<= 2000',
      note: `p95 of ${REPLUG_ROUNDS} replugs, socat start → session open (median ${Math.round(percentile(reopenTimes, 0.5))}, max ${Math.round(Math.max(...reopenTimes))})`,
    },
    {
      name: 'serial-replug-bytes-lost',
      value: bytesLost,
      unit: 'bytes',
      target: '= 0',
      note: `of ${REPLUG_ROUNDS} × ${BOOT_BYTES} bytes sent after each reopen`,
    },
  ];
}

/** How many leading bytes of `got` equal `expected`'s: the rest counts as lost. */
function countEqualPrefix(got: Buffer, expected: Buffer): number {
  let index = 0;
  while (index < got.length && index < expected.length && got[index] === expected[index]) index += 1;
  return index;
}
