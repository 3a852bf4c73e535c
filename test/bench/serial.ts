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

const TRANSFER_BYTES = 1024 * 1024;
const TRANSFER_ROUNDS = 3;

/**
 * A receiver end on a pty path, read in a loop and handed to `onBytes`. With `bytesPerSecond` it reads no faster
 * than a UART at that rate delivers (10 bits a byte): the pty's buffer fills and the writer waits, as on a real line.
 */
async function openReceiverEnd(path: string, onBytes: (chunk: Uint8Array) => void, bytesPerSecond?: number) {
  const { autoDetect } = await import('@serialport/bindings-cpp');
  const port = await autoDetect().open({ path, baudRate: 115_200 });
  let writes = Promise.resolve();
  const reading = (async () => {
    const buffer = Buffer.alloc(bytesPerSecond ? 1_024 : 65_536);
    let lineFreeAt = performance.now();
    while (port.isOpen) {
      try {
        const { bytesRead } = await port.read(buffer, 0, buffer.length);
        if (bytesPerSecond) {
          // The bytes are handed over when their last one would have crossed the wire, not before.
          lineFreeAt = Math.max(lineFreeAt, performance.now()) + (bytesRead * 1_000) / bytesPerSecond;
          const wait = lineFreeAt - performance.now();
          if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        onBytes(buffer.subarray(0, bytesRead));
      } catch {
        return;
      }
    }
  })();
  return {
    write: (bytes: Uint8Array) => (writes = writes.then(() => port.write(Buffer.from(bytes)))),
    close: async () => {
      if (port.isOpen) await port.close().catch(() => {});
      await reading;
    },
  };
}

/** Times `rounds` raw writes of `data` and as many YMODEM sends of it, each to the far end of a fresh pty pair. */
async function timeTransfers(data: Buffer, rounds: number, bytesPerSecond?: number) {
  const { FileReceiver } = await import('../../simulator/serial/file-receiver');
  const socat = await startSocatPair();
  const serialPorts = new SerialPorts({});
  const rawTimes: number[] = [];
  const ymodemTimes: number[] = [];
  let isExact = true;
  try {
    const session = (await serialPorts.open({ path: socat.pathA, logging: false })) as SerialSession;
    session.on('data', (chunk) => session.acknowledge(chunk.length));
    let onBytes: (chunk: Uint8Array) => void = () => {};
    const end = await openReceiverEnd(socat.pathB, (chunk) => onBytes(chunk), bytesPerSecond);
    for (let round = 0; round < rounds; round += 1) {
      let rawCount = 0;
      const rawDone = new Promise<void>((resolve) => {
        onBytes = (chunk) => {
          rawCount += chunk.length;
          if (rawCount >= data.length) resolve();
        };
      });
      const rawStartedAt = performance.now();
      await session.writeBytes(data);
      await rawDone;
      rawTimes.push(performance.now() - rawStartedAt);

      const sending = session.sendFile({ protocol: 'ymodem', name: 'fw.bin', data });
      const startedAt = performance.now();
      const receiver = new FileReceiver({ protocol: 'ymodem', write: (bytes) => end.write(bytes) });
      onBytes = (chunk) => receiver.input(chunk);
      const [received] = await Promise.all([receiver.done, sending]);
      ymodemTimes.push(performance.now() - startedAt);
      isExact &&= received.sha256 === createHash('sha256').update(data).digest('hex');
    }
    await end.close();
  } finally {
    await serialPorts.closeAll();
    await socat.cleanup();
  }
  return { rawMs: percentile(rawTimes, 0.5), ymodemMs: percentile(ymodemTimes, 0.5), isExact };
}

/**
 * `ymodem-send-1mb-vs-raw`: 1 MiB sent by the app's YMODEM sender over a socat pty to the simulator's receiver
 * (same process), against the same bytes written raw by the session and read at the far end; the figure is the raw
 * time over the YMODEM time (medians). A pty has no line speed, so stop-and-wait's turnaround is all YMODEM costs
 * there; `…-921600` reads the far end no faster than a 921600-baud UART, as a real adapter does.
 */
export async function runYmodemBench(): Promise<BenchFigure[]> {
  const pattern = createHash('sha512').update('fw').digest();
  const data = Buffer.alloc(TRANSFER_BYTES);
  for (let offset = 0; offset < data.length; offset += pattern.length) pattern.copy(data, offset);
  const unpaced = await timeTransfers(data, TRANSFER_ROUNDS);
  const paced = await timeTransfers(data, 1, 921_600 / 10);
  const describe = (result: typeof unpaced, rounds: number) =>
    `raw ${result.rawMs.toFixed(0)} ms, YMODEM ${result.ymodemMs.toFixed(0)} ms for 1 MiB (median of ${rounds})${result.isExact ? '' : '; SHA-256 DIFFERED'}`;
  return [
    {
      name: 'ymodem-send-1mb-vs-raw',
      value: Math.round((unpaced.rawMs / unpaced.ymodemMs) * 1000) / 1000,
      unit: '×',
      target: '>= 0.8',
      note: `pty at full speed: ${describe(unpaced, TRANSFER_ROUNDS)}`,
    },
    {
      name: 'ymodem-send-1mb-vs-raw-921600',
      value: Math.round((paced.rawMs / paced.ymodemMs) * 1000) / 1000,
      unit: '×',
      target: '>= 0.8',
      note: `far end read at 921600 baud: ${describe(paced, 1)}`,
    },
  ];
}
