import type { Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/** The file transfer protocols a console's receiver may speak: U-Boot `loady`/`loadx`, BusyBox `rb`/`rx`. */
export type FileTransferProtocol = 'ymodem' | 'xmodem-1k' | 'xmodem';

/** Protocol bytes (Forsberg, "XMODEM/YMODEM Protocol Reference", 1988). */
export const SOH = 0x01;
export const STX = 0x02;
const EOT = 0x04;
export const ACK = 0x06;
export const NAK = 0x15;
export const CAN = 0x18;
/** Fills the last block of a file (CP/M end of file). */
export const SUB = 0x1a;
/** The receiver's request for CRC-16 mode, sent until the first block. */
export const CRC_REQUEST = 0x43;

/** What a transfer reports after each block the receiver acknowledged. */
export interface FileTransferProgress {
  bytesSent: number;
  totalBytes: number;
  /** Bytes of the file per second since the receiver asked for the first block. */
  bytesPerSecond: number;
  /** Blocks sent again so far (after a NAK or no answer). */
  retries: number;
}

/** Where a transfer sends its bytes and hears the receiver. */
export interface FileTransferLine {
  write(bytes: Uint8Array): Promise<void>;
  /** Calls `listener` with every chunk received until the returned function is called. */
  onReceive(listener: (chunk: Uint8Array) => void): () => void;
}

/** What to send, how, and how long to wait for the other side. */
export interface FileTransferRequest {
  protocol: FileTransferProtocol;
  /** The file's name as YMODEM's header carries it (the receiver may save it under that name). */
  name: string;
  data: Uint8Array;
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  signal?: AbortSignal;
  onProgress?(progress: FileTransferProgress): void;
  /** How long to wait for the receiver's first request; default 60 s (`loady` asks about once a second). */
  startTimeoutMs?: number;
  /** How long to wait for the answer to one block before sending it again; default 10 s (the reference's). */
  blockTimeoutMs?: number;
  /** Tries of one block before giving up; default 10 (the reference's). */
  maxTries?: number;
}

/** Thrown when a transfer did not complete; `reason` says why in a word the UI can act on. */
export class FileTransferError extends Error {
  constructor(
    message: string,
    readonly reason:
      'no-answer' | 'cancelled-by-receiver' | 'cancelled' | 'too-many-retries' | 'checksum-mode',
  ) {
    super(message);
    this.name = 'FileTransferError';
  }
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0, no reflection), as every block carries it. */
export function crc16Xmodem(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0;
  for (let index = start; index < end; index += 1) {
    crc ^= bytes[index]! << 8;
    for (let bit = 0; bit < 8; bit += 1)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * One block as sent: SOH (128 bytes) or STX (1024 bytes), the sequence number and its complement, the payload
 * padded to the block size with `padding`, and the CRC-16 high byte first.
 */
export function frameBlock(
  sequence: number,
  payload: Uint8Array,
  blockSize: 128 | 1024,
  padding = SUB,
): Uint8Array {
  if (payload.length > blockSize) throw new RangeError(`A block holds at most ${blockSize} bytes`);
  const frame = new Uint8Array(3 + blockSize + 2);
  frame[0] = blockSize === 1024 ? STX : SOH;
  frame[1] = sequence & 0xff;
  frame[2] = 0xff - (sequence & 0xff);
  frame.fill(padding, 3, 3 + blockSize);
  frame.set(payload, 3);
  const crc = crc16Xmodem(frame, 3, 3 + blockSize);
  frame[3 + blockSize] = crc >> 8;
  frame[4 + blockSize] = crc & 0xff;
  return frame;
}

/** YMODEM's block 0: the name, NUL, the size in decimal, NUL, zero-filled; an empty name ends the batch. */
export function frameHeaderBlock(name: string, size: number | undefined): Uint8Array {
  if (name === '') return frameBlock(0, new Uint8Array(0), 128, 0);
  const header = new TextEncoder().encode(`${name}\0${size ?? ''}\0`);
  return frameBlock(0, header, header.length <= 128 ? 128 : 1024, 0);
}

/** A file name YMODEM can carry: the last part of a path, without NUL or spaces. */
export function toTransferName(path: string): string {
  const name = path.split(/[/\\]/).pop() ?? '';
  return name.replace(/[\0\s]/g, '_').slice(0, 200) || 'file';
}

const CANCEL_SEQUENCE = new Uint8Array([CAN, CAN, CAN, CAN, CAN]);
const MAX_QUEUED_ANSWERS = 4_096;

/**
 * Sends one file to a receiver already waiting (YMODEM batch of one, or XMODEM with CRC-16), resolving once the
 * receiver acknowledged the end. Each block waits for ACK; NAK or silence sends it again, up to `maxTries`. Two CANs
 * from the receiver stop it; aborting `signal` sends CANs and stops it. Rejects with FileTransferError.
 */
export async function sendFile(line: FileTransferLine, request: FileTransferRequest): Promise<void> {
  const answers = new AnswerQueue(request.clock, request.signal);
  const stopListening = line.onReceive((chunk) => answers.push(chunk));
  try {
    await transfer(line, request, answers);
  } catch (error) {
    if (error instanceof FileTransferError && error.reason === 'cancelled') {
      await line.write(CANCEL_SEQUENCE).catch(() => {});
    }
    throw error;
  } finally {
    stopListening();
    answers.close();
  }
}

async function transfer(
  line: FileTransferLine,
  request: FileTransferRequest,
  answers: AnswerQueue,
): Promise<void> {
  const { data, protocol } = request;
  const blockTimeoutMs = request.blockTimeoutMs ?? 10_000;
  const maxTries = request.maxTries ?? 10;
  const blockSize = protocol === 'xmodem' ? 128 : 1024;
  let retries = 0;

  /** Waits for the receiver's request; `silence` words what it means when none comes. */
  const awaitStart = async (timeoutMs: number, silence: () => string) => {
    let sawNak = false;
    for (;;) {
      const answer = await answers.next(timeoutMs);
      if (answer === CRC_REQUEST) return;
      if (answer === NAK) sawNak = true;
      if (answer === undefined) {
        throw sawNak
          ? new FileTransferError(t('terminals:transferChecksumMode'), 'checksum-mode')
          : new FileTransferError(silence(), 'no-answer');
      }
    }
  };
  /** Sends a block until acknowledged; `refused` words the failure after `maxTries` tries. */
  const sendBlock = async (frame: Uint8Array, refused: () => string, isRetryCounted = true) => {
    for (let attempt = 1; attempt <= maxTries; attempt += 1) {
      if (attempt > 1 && isRetryCounted) retries += 1;
      // What came before this block (a request repeated while the last one travelled) answers nothing.
      answers.clear();
      await line.write(frame);
      const deadline = request.clock.now() + blockTimeoutMs;
      let answer: number | undefined;
      do {
        answer = await answers.next(Math.max(1, deadline - request.clock.now()));
      } while (answer !== undefined && answer !== ACK && answer !== NAK);
      if (answer === ACK) return;
    }
    throw new FileTransferError(refused(), 'too-many-retries');
  };

  const startTimeoutMs = request.startTimeoutMs ?? 60_000;
  await awaitStart(startTimeoutMs, () =>
    t('terminals:transferNoStart', { seconds: Number((startTimeoutMs / 1000).toFixed(1)) }),
  );
  const startedAt = request.clock.now();
  if (protocol === 'ymodem') {
    await sendBlock(frameHeaderBlock(request.name, data.length), () =>
      t('terminals:transferHeaderRefused', { count: maxTries }),
    );
    await awaitStart(blockTimeoutMs, () => t('terminals:transferNoDataRequest'));
  }
  let sequence = 1;
  for (let offset = 0; offset < data.length; offset += blockSize, sequence += 1) {
    const payload = data.subarray(offset, Math.min(offset + blockSize, data.length));
    const number = sequence;
    await sendBlock(frameBlock(sequence, payload, blockSize), () =>
      t('terminals:transferBlockRefused', { number, count: maxTries }),
    );
    const bytesSent = offset + payload.length;
    const elapsedMs = Math.max(1, request.clock.now() - startedAt);
    request.onProgress?.({
      bytesSent,
      totalBytes: data.length,
      bytesPerSecond: Math.round((bytesSent * 1000) / elapsedMs),
      retries,
    });
  }
  // The end: YMODEM receivers NAK the first EOT to make sure it was no line noise; XMODEM ones ACK it at once.
  await sendBlock(new Uint8Array([EOT]), () => t('terminals:transferEndRefused', { count: maxTries }), false);
  if (protocol === 'ymodem') {
    await awaitStart(blockTimeoutMs, () => t('terminals:transferNoNextRequest'));
    // The file is complete once its EOT was acknowledged; a receiver may leave as soon as it has the closing
    // header, so silence after it is no failure. A NAK asks for it again.
    const closing = frameHeaderBlock('', undefined);
    for (let attempt = 1; attempt <= maxTries; attempt += 1) {
      answers.clear();
      await line.write(closing);
      if ((await answers.next(blockTimeoutMs)) !== NAK) break;
    }
  }
}

/**
 * The receiver's answers, one byte at a time. Two CANs in a row end the transfer (the receiver cancelled); an aborted
 * signal ends it too. Other bytes (a console's echo, line noise) are passed on as they are.
 */
class AnswerQueue {
  readonly #bytes: number[] = [];
  #waiter: ((value: number | undefined) => void) | undefined;
  #failure: FileTransferError | undefined;
  #fail: ((error: FileTransferError) => void) | undefined;
  #lastWasCancel = false;
  readonly #clock: FileTransferRequest['clock'];
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () =>
    this.#setFailure(new FileTransferError(t('terminals:transferCancelled'), 'cancelled'));

  constructor(clock: FileTransferRequest['clock'], signal: AbortSignal | undefined) {
    this.#clock = clock;
    this.#signal = signal;
    if (signal?.aborted) this.#onAbort();
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  push(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (byte === CAN && this.#lastWasCancel) {
        this.#setFailure(
          new FileTransferError(t('terminals:transferCancelledByReceiver'), 'cancelled-by-receiver'),
        );
        return;
      }
      this.#lastWasCancel = byte === CAN;
      if (byte === CAN) continue;
      this.#bytes.push(byte);
    }
    // A console that keeps printing cannot grow this without end: only the latest answers matter.
    if (this.#bytes.length > MAX_QUEUED_ANSWERS)
      this.#bytes.splice(0, this.#bytes.length - MAX_QUEUED_ANSWERS);
    this.#wake();
  }

  /** The next answer byte, or undefined when none came within `timeoutMs`. */
  async next(timeoutMs: number): Promise<number | undefined> {
    if (this.#failure) throw this.#failure;
    if (this.#bytes.length > 0) return this.#bytes.shift();
    return new Promise<number | undefined>((resolve, reject) => {
      const timer = this.#clock.setTimeout(() => finish(undefined), timeoutMs);
      const finish = (value: number | undefined) => {
        this.#clock.clearTimeout(timer);
        this.#waiter = undefined;
        this.#fail = undefined;
        resolve(value);
      };
      this.#waiter = finish;
      this.#fail = (error) => {
        this.#clock.clearTimeout(timer);
        this.#waiter = undefined;
        this.#fail = undefined;
        reject(error);
      };
    });
  }

  /** Forgets answers not yet read. */
  clear(): void {
    this.#bytes.length = 0;
  }

  close(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  #wake(): void {
    if (this.#waiter && this.#bytes.length > 0) this.#waiter(this.#bytes.shift());
  }

  #setFailure(error: FileTransferError): void {
    this.#failure ??= error;
    this.#fail?.(this.#failure);
  }
}
