/**
 * Where a terminal session is in its life. Only `closed` is final; `failed` is left by a reconnect (SSH
 * `reconnect()`, serial `reopen()`) or by closing.
 */
export type TerminalState = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

/** The transports a terminal session can run over. */
export type TerminalKind = 'ssh' | 'serial';

/**
 * One open terminal (ssh or serial). Emits 'data' (bytes), 'state' (TerminalState, reason?), 'closed'. A 'data'
 * chunk is never written to again by the session, so listeners may keep it without copying.
 */
export interface TerminalSession {
  readonly id: string;
  readonly kind: TerminalKind;
  readonly title: string;
  readonly state: TerminalState;
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Bytes handed out as 'data' that the renderer has not acknowledged yet (flow control, docs/adr/0004). */
  readonly unacknowledged: number;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  acknowledge(byteCount: number): void;
  close(): Promise<void>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): this;
  on(event: 'state', listener: (state: TerminalState, reason?: string) => void): this;
  on(event: 'closed', listener: () => void): this;
  off(event: 'data', listener: (chunk: Uint8Array) => void): this;
  off(event: 'state', listener: (state: TerminalState, reason?: string) => void): this;
  /** Writes a line of Field Kit's own into the session log (not the screen), stamped with `at` if need be. */
  appendLogNote(text: string, at: number): void;
}

/**
 * True only for the state a session never leaves (`closed`). A `failed` session is not final: it may still be
 * reconnected or closed, so code that stops work on a final state must not stop on `failed`.
 */
export function isFinalState(state: TerminalState): boolean {
  return state === 'closed';
}
