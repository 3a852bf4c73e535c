import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../../../electron/shared/clock';
import {
  ACK,
  CAN,
  crc16Xmodem,
  FileTransferError,
  frameBlock,
  frameHeaderBlock,
  NAK,
  sendFile,
  SOH,
  STX,
  SUB,
  type FileTransferLine,
  type FileTransferProtocol,
} from '../../../../electron/services/serial/ymodem';
import { FileReceiver } from '../../../../simulator/serial/file-receiver';
import { ManualClock } from '../../../helpers/manual-clock';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('crc16Xmodem', () => {
  it.each([
    ['', 0x0000],
    ['A', 0x58e5],
    ['123456789', 0x31c3],
  ])('gives the published CRC-16/XMODEM of %j', (text, expected) => {
    expect(crc16Xmodem(ascii(text))).toBe(expected);
  });

  it('gives 0 over any message followed by its own CRC, high byte first', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2_000 }), (message) => {
        const crc = crc16Xmodem(message);
        expect(crc16Xmodem(new Uint8Array([...message, crc >> 8, crc & 0xff]))).toBe(0);
      }),
    );
  });
});

describe('frameBlock', () => {
  it('frames any payload: start byte, sequence and complement, padding, CRC of the padded block', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(128 as const, 1024 as const),
        fc.integer({ min: 0, max: 100_000 }),
        fc.uint8Array({ maxLength: 1024 }),
        (blockSize, sequence, bytes) => {
          const payload = bytes.subarray(0, blockSize);
          const frame = frameBlock(sequence, payload, blockSize);
          expect(frame.length).toBe(blockSize + 5);
          expect(frame[0]).toBe(blockSize === 1024 ? STX : SOH);
          expect(frame[1]).toBe(sequence % 256);
          expect(frame[1]! + frame[2]!).toBe(0xff);
          expect([...frame.subarray(3, 3 + payload.length)]).toEqual([...payload]);
          expect(frame.subarray(3 + payload.length, 3 + blockSize).every((byte) => byte === SUB)).toBe(true);
          expect(crc16Xmodem(frame, 3, frame.length)).toBe(0);
        },
      ),
    );
  });

  it('puts the name and decimal size in YMODEM block 0, and nothing in the one that ends a batch', () => {
    const header = frameHeaderBlock('fw.bin', 1_048_576);
    expect(Buffer.from(header.subarray(3, 3 + 15)).toString('latin1')).toBe('fw.bin\u00001048576\u0000');
    expect(header[1]).toBe(0);
    expect(
      frameHeaderBlock('', undefined)
        .subarray(3, 131)
        .every((byte) => byte === 0),
    ).toBe(true);
  });
});

/**
 * The app's sender and the simulator's receiver joined by a line that spoils the frames numbered in `corrupt` (one
 * byte flipped: the receiver must NAK) and turns the ACKs numbered in `lostAcks` into NAKs (the block arrived, the
 * sender must send it again, the receiver must take the repeat without keeping it twice).
 */
async function transferOverFaultyLine(
  protocol: FileTransferProtocol,
  data: Uint8Array,
  faults: { corrupt: Set<number>; lostAcks: Set<number> },
) {
  const listeners = new Set<(chunk: Uint8Array) => void>();
  let framesSent = 0;
  let acksSent = 0;
  const receiver = new FileReceiver({
    protocol: protocol === 'ymodem' ? 'ymodem' : 'xmodem',
    write: async (bytes) => {
      const answer = Uint8Array.from(bytes, (byte) =>
        byte === ACK && faults.lostAcks.has(acksSent++) ? NAK : byte,
      );
      queueMicrotask(() => listeners.forEach((listener) => listener(answer)));
    },
  });
  const line: FileTransferLine = {
    write: async (bytes) => {
      const frame = Uint8Array.from(bytes);
      if (frame.length > 1 && faults.corrupt.has(framesSent++)) frame[3] = frame[3]! ^ 0x40;
      queueMicrotask(() => receiver.input(frame));
    },
    onReceive: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const progress: number[] = [];
  let retries = 0;
  await sendFile(line, {
    protocol,
    name: 'fw.bin',
    data,
    clock: SYSTEM_CLOCK,
    blockTimeoutMs: 5_000,
    onProgress: (report) => {
      progress.push(report.bytesSent);
      retries = report.retries;
    },
  });
  return { received: await receiver.done, progress, retries };
}

describe('sendFile to a receiver that NAKs spoiled blocks and loses ACKs', () => {
  it('delivers every file exactly, whatever is spoiled (fewer than 10 times a block)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<FileTransferProtocol>('ymodem', 'xmodem-1k', 'xmodem'),
        fc.uint8Array({ maxLength: 6_000 }),
        fc.uniqueArray(fc.nat(12), { maxLength: 4 }),
        fc.uniqueArray(fc.nat(12), { maxLength: 4 }),
        async (protocol, bytes, corrupt, lostAcks) => {
          // XMODEM carries no size: a file ending in the padding byte cannot be told from its padding.
          const data =
            protocol === 'ymodem' ? bytes : bytes.subarray(0, bytes.findLastIndex((b) => b !== SUB) + 1);
          // The last answers (to the end of the file and of the batch) confirm what the receiver already has:
          // one lost there leaves the outcome unknown to the sender, so none is lost there.
          const blockCount = Math.ceil(data.length / (protocol === 'xmodem' ? 128 : 1024));
          const acksBeforeEnd = blockCount + (protocol === 'ymodem' ? 1 : 0);
          const { received, progress } = await transferOverFaultyLine(protocol, data, {
            corrupt: new Set(corrupt),
            lostAcks: new Set(lostAcks.filter((index) => index < acksBeforeEnd)),
          });
          expect(received.size).toBe(data.length);
          expect(received.sha256).toBe(createHash('sha256').update(data).digest('hex'));
          if (protocol === 'ymodem') expect(received.name).toBe('fw.bin');
          expect(progress.at(-1) ?? 0).toBe(data.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('counts each block sent again as a retry', async () => {
    const data = new Uint8Array(5 * 1024).fill(7);
    const { retries } = await transferOverFaultyLine('xmodem-1k', data, {
      corrupt: new Set([1, 3]),
      lostAcks: new Set([4]),
    });
    expect(retries).toBe(3);
  });
});

describe('sendFile when the other side does not play along', () => {
  function silentLine() {
    const written: number[] = [];
    let listener: ((chunk: Uint8Array) => void) | undefined;
    const line: FileTransferLine = {
      write: async (bytes) => void written.push(...bytes),
      onReceive: (next) => {
        listener = next;
        return () => (listener = undefined);
      },
    };
    return { line, written, answer: (...bytes: number[]) => listener?.(new Uint8Array(bytes)) };
  }

  it('says the other side did not answer when nothing asks for the file in time', async () => {
    const clock = new ManualClock();
    const { line } = silentLine();
    const sending = sendFile(line, {
      protocol: 'ymodem',
      name: 'a',
      data: ascii('x'),
      clock,
      startTimeoutMs: 30_000,
    });
    const outcome = expect(sending).rejects.toThrow(
      'No answer from the other side: it did not ask for the file within 30 s (type loady, loadx, rb or rx there first)',
    );
    await Promise.resolve();
    clock.advance(30_000);
    await outcome;
  });

  it('stops when the receiver sends CAN CAN', async () => {
    const { line, answer } = silentLine();
    const sending = sendFile(line, {
      protocol: 'xmodem-1k',
      name: 'a',
      data: ascii('x'),
      clock: new ManualClock(),
    });
    answer(0x43);
    await Promise.resolve();
    answer(NAK, CAN, CAN);
    await expect(sending).rejects.toMatchObject({ reason: 'cancelled-by-receiver' });
  });

  it('sends CANs to the receiver when cancelled', async () => {
    const { line, written, answer } = silentLine();
    const controller = new AbortController();
    const sending = sendFile(line, {
      protocol: 'ymodem',
      name: 'a',
      data: ascii('x'),
      clock: new ManualClock(),
      signal: controller.signal,
    });
    answer(0x43);
    await Promise.resolve();
    controller.abort();
    await expect(sending).rejects.toBeInstanceOf(FileTransferError);
    expect(written.slice(-2)).toEqual([CAN, CAN]);
  });
});
