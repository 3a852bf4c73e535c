/** Where a terminal session is in its life; `closed` and `failed` are final. */
export type TerminalState = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

/** The transports a terminal session can run over. */
export type TerminalKind = 'ssh' | 'serial';

/** One open terminal (ssh or serial). Emits 'data' (Buffer), 'state' (TerminalState, reason?), 'closed'. */
export interface TerminalSession {
  readonly id: string;
  readonly kind: TerminalKind;
  readonly title: string;
  readonly state: TerminalState;
  readonly bytesIn: number;
  readonly bytesOut: number;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  acknowledge(byteCount: number): void;
  close(): Promise<void>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): this;
  on(event: 'state', listener: (state: TerminalState, reason?: string) => void): this;
  on(event: 'closed', listener: () => void): this;
}

/** True for the states a session never leaves. */
export function isFinalState(state: TerminalState): boolean {
  return state === 'closed' || state === 'failed';
}
