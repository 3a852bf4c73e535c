// The shapes of @serialport/bindings-interface, restated: that package's `exports` map has no `types` condition,
// so TypeScript's Bundler resolution cannot see its declarations. Structural typing keeps these compatible.
// One copy for the services and the simulator's demo binding. Bytes are typed as Uint8Array (a Buffer is one)
// because electron/shared is also type-checked for the renderer, which has no Node types.

/** A serial port as a binding lists it; only `path` is guaranteed. */
export interface PortInfo {
  path: string;
  manufacturer: string | undefined;
  serialNumber: string | undefined;
  pnpId: string | undefined;
  locationId: string | undefined;
  productId: string | undefined;
  vendorId: string | undefined;
}

/** Options a binding opens a port with. */
export interface OpenOptions {
  path: string;
  baudRate: number;
  dataBits?: 5 | 6 | 7 | 8;
  lock?: boolean;
  stopBits?: 1 | 1.5 | 2;
  parity?: string;
  rtscts?: boolean;
  xon?: boolean;
  xoff?: boolean;
  xany?: boolean;
  hupcl?: boolean;
}

/** Modem control lines to set; every call sets all of them. */
export interface SetOptions {
  brk?: boolean;
  cts?: boolean;
  dsr?: boolean;
  dtr?: boolean;
  rts?: boolean;
}

/** Modem status lines. */
export interface PortStatus {
  cts: boolean;
  dsr: boolean;
  dcd: boolean;
}

/** An open port of a binding. */
export interface BindingPortInterface {
  readonly openOptions: Required<OpenOptions>;
  isOpen: boolean;
  close(): Promise<void>;
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
  ): Promise<{ buffer: Uint8Array; bytesRead: number }>;
  write(buffer: Uint8Array): Promise<void>;
  update(options: { baudRate: number }): Promise<void>;
  set(options: SetOptions): Promise<void>;
  get(): Promise<PortStatus>;
  getBaudRate(): Promise<{ baudRate: number }>;
  flush(): Promise<void>;
  drain(): Promise<void>;
}

/** A serialport binding: lists and opens ports. */
export interface BindingInterface<Port extends BindingPortInterface = BindingPortInterface> {
  list(): Promise<PortInfo[]>;
  open(options: OpenOptions): Promise<Port>;
}
