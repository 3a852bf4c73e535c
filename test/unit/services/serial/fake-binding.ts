import type {
  BindingInterface,
  BindingPortInterface,
  OpenOptions,
  PortInfo,
  SetOptions,
} from '../../../../electron/shared/serial/binding-types';

/** A port whose far end the test drives: `receive` queues incoming bytes, `unplug` breaks the line. */
export class FakePort implements BindingPortInterface {
  isOpen = true;
  readonly written: Buffer[] = [];
  readonly setCalls: SetOptions[] = [];
  readsIssued = 0;
  #incoming: Buffer[] = [];
  #pendingRead:
    | {
        buffer: Buffer;
        offset: number;
        length: number;
        resolve: (value: { buffer: Buffer; bytesRead: number }) => void;
        reject: (error: Error) => void;
      }
    | undefined;

  constructor(readonly openOptions: Required<OpenOptions>) {}

  get hasPendingRead(): boolean {
    return this.#pendingRead !== undefined;
  }

  get writtenText(): string {
    return Buffer.concat(this.written).toString('latin1');
  }

  receive(data: string | Buffer): void {
    this.#incoming.push(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
    this.#fulfil();
  }

  unplug(): void {
    const read = this.#pendingRead;
    this.#pendingRead = undefined;
    this.isOpen = false;
    read?.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
  }

  async read(buffer: Buffer, offset: number, length: number) {
    if (!this.isOpen) throw Object.assign(new Error('Port is not open'), { canceled: true });
    this.readsIssued += 1;
    return new Promise<{ buffer: Buffer; bytesRead: number }>((resolve, reject) => {
      this.#pendingRead = { buffer, offset, length, resolve, reject };
      this.#fulfil();
    });
  }

  async write(buffer: Buffer): Promise<void> {
    if (!this.isOpen) throw new Error('Port is not open');
    this.written.push(Buffer.from(buffer));
  }

  async close(): Promise<void> {
    if (!this.isOpen) throw new Error('Port is not open');
    this.isOpen = false;
    const read = this.#pendingRead;
    this.#pendingRead = undefined;
    read?.reject(Object.assign(new Error('Port closed'), { canceled: true }));
  }

  async update(): Promise<void> {}
  async set(options: SetOptions): Promise<void> {
    this.setCalls.push(options);
  }
  async get() {
    return { cts: false, dsr: false, dcd: false };
  }
  async getBaudRate() {
    return { baudRate: this.openOptions.baudRate };
  }
  async flush(): Promise<void> {}
  async drain(): Promise<void> {}

  #fulfil(): void {
    const read = this.#pendingRead;
    const head = this.#incoming[0];
    if (!read || !head) return;
    this.#pendingRead = undefined;
    const count = Math.min(read.length, head.length);
    head.copy(read.buffer, read.offset, 0, count);
    if (count === head.length) this.#incoming.shift();
    else this.#incoming[0] = head.subarray(count);
    read.resolve({ buffer: read.buffer, bytesRead: count });
  }
}

/** Builds a PortInfo with only what a test cares about. */
export function createPortInfo(overrides: Partial<PortInfo> & { path: string }): PortInfo {
  return {
    manufacturer: undefined,
    serialNumber: undefined,
    pnpId: undefined,
    locationId: undefined,
    vendorId: undefined,
    productId: undefined,
    ...overrides,
  };
}

/** A binding whose listed ports and open results the test controls. */
export class FakeBinding implements BindingInterface<FakePort> {
  ports: PortInfo[] = [];
  readonly opened: FakePort[] = [];
  openError: Error | undefined;
  #openWaiters: ((port: FakePort) => void)[] = [];

  async list(): Promise<PortInfo[]> {
    return this.ports.map((port) => ({ ...port }));
  }

  async open(options: OpenOptions): Promise<FakePort> {
    if (this.openError) throw this.openError;
    if (!this.ports.some((port) => port.path === options.path)) {
      throw new Error(`Error: No such file or directory, cannot open ${options.path}`);
    }
    const port = new FakePort({
      dataBits: 8,
      lock: true,
      stopBits: 1,
      parity: 'none',
      rtscts: false,
      xon: false,
      xoff: false,
      xany: false,
      hupcl: true,
      ...options,
    } as Required<OpenOptions>);
    this.opened.push(port);
    for (const wake of this.#openWaiters.splice(0)) wake(port);
    return port;
  }

  /** Resolves with the next port opened. */
  nextOpen(): Promise<FakePort> {
    return new Promise((resolve) => this.#openWaiters.push(resolve));
  }

  get lastPort(): FakePort {
    const port = this.opened.at(-1);
    if (!port) throw new Error('no port was opened');
    return port;
  }
}
