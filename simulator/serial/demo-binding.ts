import { StringDecoder } from 'node:string_decoder';
import type {
  BindingInterface,
  BindingPortInterface,
  OpenOptions,
  PortInfo,
  PortStatus,
} from '../../electron/shared/serial/binding-types';
import { FileReceiver, type ReceiverProtocol } from './file-receiver';
import { SerialConsole, type SerialConsoleGateway, type SerialConsoleOptions } from './serial-console';

/** The path of the in-process demo console port. */
export const DEMO_CONSOLE_PATH = 'demo:gateway-console';
/** How the app labels the demo port. */
export const DEMO_CONSOLE_LABEL = 'Demo gateway console';
/** Console output held for a reader before the console must wait (like a UART FIFO plus driver buffer). */
const OUTPUT_BUFFER_BYTES = 65_536;

class CanceledError extends Error {
  readonly canceled = true;
}

/** Settings for the demo binding: which gateway answers, and console timings. */
export interface DemoConsoleBindingOptions extends Omit<SerialConsoleOptions, 'io' | 'gateway'> {
  gateway: SerialConsoleGateway;
}

/**
 * A serialport binding with one port, "Demo gateway console", whose far end is a SerialConsole running in this
 * process. Any baud rate and framing is accepted; each open starts the console at its login prompt. Output is
 * held up to 64 KiB for the reader, after which the console waits: a flood is paced by the reader.
 */
export class DemoConsoleBinding implements BindingInterface<DemoConsolePort> {
  readonly #options: DemoConsoleBindingOptions;
  #openPort: DemoConsolePort | undefined;

  constructor(options: DemoConsoleBindingOptions) {
    this.#options = options;
  }

  /** The single demo port. */
  async list(): Promise<PortInfo[]> {
    return [
      {
        path: DEMO_CONSOLE_PATH,
        manufacturer: DEMO_CONSOLE_LABEL,
        serialNumber: `DEMO-${this.#options.gateway.gatewayId}`,
        pnpId: undefined,
        locationId: undefined,
        vendorId: undefined,
        productId: undefined,
      },
    ];
  }

  /** Opens the demo port; like a locked tty it can be open only once at a time. */
  async open(options: OpenOptions): Promise<DemoConsolePort> {
    if (options.path !== DEMO_CONSOLE_PATH)
      throw new Error(`Error: No such file or directory, cannot open ${options.path}`);
    if (this.#openPort?.isOpen) throw new Error(`Error Resource temporarily unavailable Cannot lock port`);
    const port = new DemoConsolePort(
      {
        path: options.path,
        baudRate: options.baudRate,
        dataBits: options.dataBits ?? 8,
        lock: options.lock ?? true,
        stopBits: options.stopBits ?? 1,
        parity: options.parity ?? 'none',
        rtscts: options.rtscts ?? false,
        xon: options.xon ?? false,
        xoff: options.xoff ?? false,
        xany: options.xany ?? false,
        hupcl: options.hupcl ?? true,
      },
      this.#options,
    );
    this.#openPort = port;
    return port;
  }
}

interface PendingRead {
  buffer: Buffer;
  offset: number;
  length: number;
  resolve(result: { buffer: Buffer; bytesRead: number }): void;
  reject(error: Error): void;
}

/** One open connection to the demo console. */
export class DemoConsolePort implements BindingPortInterface {
  readonly openOptions: Required<OpenOptions>;
  isOpen = true;
  readonly #console: SerialConsole;
  readonly #decoder = new StringDecoder('utf8');
  #outgoing: Buffer[] = [];
  #outgoingBytes = 0;
  #pendingRead: PendingRead | undefined;
  #spaceWaiters: (() => void)[] = [];
  #baudRate: number;
  /** While `rb`/`rx` runs, what the app writes is the file's bytes, not keystrokes. */
  #receiver: FileReceiver | undefined;

  constructor(openOptions: Required<OpenOptions>, options: DemoConsoleBindingOptions) {
    this.openOptions = openOptions;
    this.#baudRate = openOptions.baudRate;
    this.#console = new SerialConsole({
      ...options,
      shellContext: { ...options.shellContext, receiveFile: (protocol) => this.#receiveFile(protocol) },
      io: { write: (chunk) => this.#queueOutput(Buffer.from(chunk, 'utf8')) },
    });
    void this.#console.start();
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    if (!this.isOpen) throw new CanceledError('Port is not open');
    return new Promise((resolve, reject) => {
      this.#pendingRead = { buffer, offset, length, resolve, reject };
      this.#fulfilRead();
    });
  }

  async write(buffer: Buffer): Promise<void> {
    if (!this.isOpen) throw new CanceledError('Port is not open');
    if (this.#receiver) this.#receiver.input(buffer);
    else this.#console.input(this.#decoder.write(buffer));
  }

  async close(): Promise<void> {
    if (!this.isOpen) throw new Error('Port is not open');
    this.isOpen = false;
    this.#receiver?.stop();
    this.#console.stop();
    this.#pendingRead?.reject(new CanceledError('Port closed'));
    this.#pendingRead = undefined;
    for (const wake of this.#spaceWaiters.splice(0)) wake();
  }

  async update(options: { baudRate: number }): Promise<void> {
    this.#baudRate = options.baudRate;
  }

  async set(): Promise<void> {}

  async get(): Promise<PortStatus> {
    return { cts: true, dsr: true, dcd: true };
  }

  async getBaudRate(): Promise<{ baudRate: number }> {
    return { baudRate: this.#baudRate };
  }

  async flush(): Promise<void> {
    this.#outgoing = [];
    this.#outgoingBytes = 0;
    for (const wake of this.#spaceWaiters.splice(0)) wake();
  }

  async drain(): Promise<void> {}

  #receiveFile(protocol: ReceiverProtocol) {
    const receiver = new FileReceiver({ protocol, write: (bytes) => this.#queueOutput(Buffer.from(bytes)) });
    this.#receiver = receiver;
    return receiver.done.finally(() => {
      if (this.#receiver === receiver) this.#receiver = undefined;
    });
  }

  #queueOutput(bytes: Buffer): Promise<void> {
    if (!this.isOpen) return Promise.reject(new CanceledError('Port closed'));
    this.#outgoing.push(bytes);
    this.#outgoingBytes += bytes.length;
    this.#fulfilRead();
    if (this.#outgoingBytes < OUTPUT_BUFFER_BYTES) return Promise.resolve();
    return new Promise((resolve) => this.#spaceWaiters.push(resolve));
  }

  #fulfilRead(): void {
    const read = this.#pendingRead;
    if (!read || this.#outgoingBytes === 0) return;
    this.#pendingRead = undefined;
    let copied = 0;
    while (copied < read.length && this.#outgoing.length > 0) {
      const head = this.#outgoing[0]!;
      const count = Math.min(head.length, read.length - copied);
      head.copy(read.buffer, read.offset + copied, 0, count);
      copied += count;
      if (count === head.length) this.#outgoing.shift();
      else this.#outgoing[0] = head.subarray(count);
    }
    this.#outgoingBytes -= copied;
    read.resolve({ buffer: read.buffer, bytesRead: copied });
    if (this.#outgoingBytes < OUTPUT_BUFFER_BYTES) for (const wake of this.#spaceWaiters.splice(0)) wake();
  }
}
