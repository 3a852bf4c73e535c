import { createHash } from 'node:crypto';

/** What the simulated gateway's `rb` (YMODEM) or `rx` (XMODEM, CRC-16) received. */
export interface ReceivedFile {
  /** The name from YMODEM's header; absent for XMODEM, which carries none. */
  name?: string;
  size: number;
  sha256: string;
}

/** The protocols the receiver speaks. */
export type ReceiverProtocol = 'ymodem' | 'xmodem';

/** How a receiver answers and how patient it is. */
export interface FileReceiverOptions {
  protocol: ReceiverProtocol;
  write(bytes: Uint8Array): Promise<void>;
  /** Between two requests ('C') before the first block; default 1000 ms, as lrzsz and U-Boot. */
  requestIntervalMs?: number;
  /** Requests before giving up; default 60. */
  maxRequests?: number;
  /** Silence after the first block before giving up; default 10 s. */
  idleTimeoutMs?: number;
}

const SOH = 0x01;
const STX = 0x02;
const EOT = 0x04;
const ACK = 0x06;
const NAK = 0x15;
const CAN = 0x18;
const SUB = 0x1a;
const CRC_REQUEST = 0x43;
/** A simulated gateway keeps at most this much of a file. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** CRC-16/XMODEM, written apart from the app's sender so that each checks the other. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * A YMODEM (batch of one) or XMODEM-CRC receiver, 128- and 1024-byte blocks: asks with 'C', checks each block's
 * sequence and CRC (NAK when wrong, ACK for a repeated block), NAKs YMODEM's first EOT as the reference says, and
 * reports the file's size and SHA-256. XMODEM carries no size: trailing SUB padding is taken off. Two CANs from the
 * sender cancel it. `done` rejects with the reason when the transfer does not complete.
 */
export class FileReceiver {
  readonly done: Promise<ReceivedFile>;
  readonly #options: FileReceiverOptions;
  #buffer = Buffer.alloc(0);
  readonly #blocks: Buffer[] = [];
  #expected = 1;
  #name: string | undefined;
  #size: number | undefined;
  #hasHeader = false;
  #hasData = false;
  #eotCount = 0;
  #isFinished = false;
  #lastWasCancel = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #requests = 0;
  #resolve!: (file: ReceivedFile) => void;
  #reject!: (error: Error) => void;

  constructor(options: FileReceiverOptions) {
    this.#options = options;
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#request();
  }

  /** Bytes from the line. */
  input(chunk: Uint8Array): void {
    if (this.#isFinished) return;
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#parse();
  }

  /** Stops waiting (the console went away). */
  stop(): void {
    this.#finish(new Error('stopped'));
  }

  #request(): void {
    if (this.#isFinished) return;
    this.#requests += 1;
    if (this.#requests > (this.#options.maxRequests ?? 60)) {
      this.#finish(new Error('timed out waiting for the sender'));
      return;
    }
    this.#send(CRC_REQUEST);
    this.#arm(this.#options.requestIntervalMs ?? 1_000, () => this.#request());
  }

  #arm(delayMs: number, action: () => void): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(action, delayMs);
  }

  #send(...bytes: number[]): void {
    void this.#options
      .write(new Uint8Array(bytes))
      .catch(() => this.#finish(new Error('the line went away')));
  }

  #parse(): void {
    while (!this.#isFinished && this.#buffer.length > 0) {
      const first = this.#buffer[0]!;
      if (first === CAN) {
        if (this.#lastWasCancel) return this.#finish(new Error('cancelled by the sender'));
        this.#lastWasCancel = true;
        this.#buffer = this.#buffer.subarray(1);
        continue;
      }
      this.#lastWasCancel = false;
      if (first === EOT) {
        this.#buffer = this.#buffer.subarray(1);
        this.#endOfFile();
        continue;
      }
      if (first !== SOH && first !== STX) {
        this.#buffer = this.#buffer.subarray(1);
        continue;
      }
      const size = first === STX ? 1024 : 128;
      if (this.#buffer.length < size + 5) return;
      const frame = this.#buffer.subarray(0, size + 5);
      this.#buffer = this.#buffer.subarray(size + 5);
      this.#block(frame, size);
    }
  }

  #block(frame: Buffer, size: number): void {
    const sequence = frame[1]!;
    const payload = frame.subarray(3, 3 + size);
    const crc = (frame[3 + size]! << 8) | frame[4 + size]!;
    if (frame[2] !== 0xff - sequence || crc16(payload) !== crc) {
      this.#send(NAK);
      return this.#armIdle();
    }
    const isYmodem = this.#options.protocol === 'ymodem';
    // Block 0 is a header before the data and after the end of a file; within the data it is block 256, 512…
    if (isYmodem && sequence === 0 && (!this.#hasData || this.#eotCount >= 2)) return this.#header(payload);
    if (sequence === ((this.#expected - 1) & 0xff)) {
      this.#send(ACK);
      return this.#armIdle();
    }
    if (sequence !== (this.#expected & 0xff)) return this.#finish(new Error('blocks out of order'), true);
    this.#hasData = true;
    this.#blocks.push(Buffer.from(payload));
    this.#expected += 1;
    if (this.#blocks.length * 1024 > MAX_FILE_BYTES + 1024)
      return this.#finish(new Error('file too large'), true);
    this.#send(ACK);
    this.#armIdle();
  }

  #header(payload: Buffer): void {
    const nameEnd = payload.indexOf(0);
    const name = payload.subarray(0, nameEnd).toString('utf8');
    if (name === '') {
      // The empty header ends the batch: the file before it is complete.
      this.#send(ACK);
      return this.#complete();
    }
    if (this.#hasHeader && this.#eotCount === 0) {
      // The sender missed the answer to its header: both bytes of it again.
      this.#send(ACK, CRC_REQUEST);
      return this.#armIdle();
    }
    if (this.#eotCount > 0) {
      // A second file: this receiver takes one; the first is what it reports.
      return this.#finish(new Error('only one file per batch'), true);
    }
    const sizeField = payload.subarray(nameEnd + 1, payload.indexOf(0, nameEnd + 1)).toString('latin1');
    this.#name = name;
    this.#size = Number.parseInt(sizeField.split(' ')[0] ?? '', 10);
    if (!Number.isFinite(this.#size)) this.#size = undefined;
    this.#hasHeader = true;
    this.#send(ACK, CRC_REQUEST);
    this.#armIdle();
  }

  #endOfFile(): void {
    this.#eotCount += 1;
    if (this.#options.protocol === 'xmodem') {
      this.#send(ACK);
      return this.#complete();
    }
    if (this.#eotCount === 1) {
      this.#send(NAK);
      return this.#armIdle();
    }
    this.#send(ACK, CRC_REQUEST);
    this.#armIdle();
  }

  #complete(): void {
    let data = Buffer.concat(this.#blocks);
    if (this.#size !== undefined) data = data.subarray(0, this.#size);
    else {
      let end = data.length;
      while (end > 0 && data[end - 1] === SUB) end -= 1;
      data = data.subarray(0, end);
    }
    const sha256 = createHash('sha256').update(data).digest('hex');
    this.#finish(undefined);
    this.#resolve({ ...(this.#name !== undefined ? { name: this.#name } : {}), size: data.length, sha256 });
  }

  #armIdle(): void {
    this.#arm(this.#options.idleTimeoutMs ?? 10_000, () =>
      this.#finish(new Error('the sender went silent'), true),
    );
  }

  #finish(error: Error | undefined, isCancelling = false): void {
    if (this.#isFinished) return;
    this.#isFinished = true;
    clearTimeout(this.#timer);
    if (isCancelling) this.#send(CAN, CAN, CAN, CAN, CAN);
    if (error) this.#reject(error);
  }
}
