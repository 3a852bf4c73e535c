import type { EventName, EventPayload } from '../../shared/ipc/contract';
import type { SerialOpenOptions, SerialOpenOptionsInput } from '../../shared/terminal/serial-options';
import type { HostKeyNotice, SerialPortListInfo } from '../../shared/terminal/terminal-schemas';
import type { DisplayFilter } from '../serial/serial-display';
import type { FileTransferProgress, FileTransferProtocol } from '../serial/ymodem';
import type { SerialTriageOptions } from '../serial/serial-triage';
import type { TerminalSession, TerminalState } from '../terminal-core';
import type { TerminalJournal } from '../visit';
import type { Clock } from '../../shared/clock';

/** Where the manager pushes `terminal:data` and `terminal:state` (the app's event hub). */
export interface TerminalEventSink {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

/** What a serial session offers beyond a terminal (SerialSession). */
export interface SerialTerminal extends TerminalSession {
  readonly kind: 'serial';
  readonly options: Pick<
    SerialOpenOptions,
    'path' | 'gateway' | 'baudRate' | 'dataBits' | 'parity' | 'stopBits' | 'txNewline'
  >;
  /** The port open now (or last): after a replug found by serial number, not the path it was opened on. */
  readonly path: string;
  on(event: 'data', listener: (chunk: Uint8Array) => void): this;
  on(event: 'state', listener: (state: TerminalState, reason?: string) => void): this;
  on(event: 'closed', listener: () => void): this;
  /** Every chunk as the port gave it (serial triage reads these). */
  on(event: 'received', listener: (chunk: Uint8Array) => void): this;
  off(event: 'received', listener: (chunk: Uint8Array) => void): this;
  off(event: 'data', listener: (chunk: Uint8Array) => void): this;
  off(event: 'state', listener: (state: TerminalState, reason?: string) => void): this;
  writeBytes(data: Uint8Array): Promise<void>;
  setDisplayFilter(filter: DisplayFilter | undefined): void;
  readonly logPath: string | undefined;
  readonly logProblem: string | undefined;
  readonly signals: { dtr: boolean; rts: boolean };
  reopen(): Promise<void>;
  sendBreak(): Promise<void>;
  setSignals(signals: { dtr?: boolean; rts?: boolean }): Promise<void>;
  pasteLines(text: string, delayMs: number): Promise<void>;
  setRawView(isOn: boolean): void;
  disconnect(): Promise<void>;
  sendFile(
    file: { protocol: FileTransferProtocol; name: string; data: Uint8Array },
    options: { signal?: AbortSignal; onProgress?(progress: FileTransferProgress): void },
  ): Promise<void>;
}

/** What an SSH session offers beyond a terminal (SshSession). */
export interface SshTerminal extends TerminalSession {
  readonly kind: 'ssh';
  readonly gatewayId: string | undefined;
  readonly reason: string | undefined;
  /** Once closed: why the close was not clean (the gateway did not confirm its tunnel was stopped). */
  readonly closeWarning: string | undefined;
  readonly logPath: string | undefined;
  readonly logProblem: string | undefined;
  readonly hostKeys: readonly HostKeyNotice[];
  readonly route: 'reverse' | 'direct';
  /** `reason`: why it closed, when not at the user's asking. */
  close(reason?: string): Promise<void>;
  /** `password`: a new one, when the gateway refused the last (reverse: root; direct: the user's). */
  reconnect(retry?: { password?: string }): Promise<void>;
}

/** The relay reverse SSH goes through: from the profile, the password from the keychain. */
export interface ResolvedRelay {
  relay: { host: string; port: number; username: string; password: string };
  portRange?: [number, number];
}

/** The manager's dependencies; each is a narrow face of a service so tests can stand in for it. */
export interface TerminalManagerDependencies {
  events: TerminalEventSink;
  serialPorts: {
    list(): Promise<SerialPortListInfo>;
    open(input: SerialOpenOptionsInput): Promise<SerialTerminal>;
  };
  ssh: {
    openReverse(request: {
      gatewayId: string;
      /** The tab's title (default: the gateway id). */
      title?: string;
      relay: ResolvedRelay['relay'];
      portRange?: [number, number];
      rootPassword?: string;
      cols: number;
      rows: number;
      timestamps?: boolean;
    }): Promise<SshTerminal>;
    openDirect(request: {
      host: string;
      port: number;
      username: string;
      password: string;
      gatewayId?: string;
      /** The tab's title (default: the gateway id, else the host). */
      title?: string;
      cols: number;
      rows: number;
      timestamps?: boolean;
    }): Promise<SshTerminal>;
    replaceHostKey(keyId: string, fingerprint: string): Promise<void>;
  };
  /** The relay of the signed-in profile; rejects with a message when there is none. */
  resolveRelay(): Promise<ResolvedRelay>;
  /** Keeps a root password that just worked, so the next session does not ask (keychain). */
  rememberRootPassword?(gatewayId: string, password: string): Promise<void>;
  /** A gateway's stored root password (keychain), for serial triage at a login prompt. */
  rootPassword?(gatewayId: string): Promise<string | undefined>;
  /** Timeouts of serial triage (tests shorten them). */
  triage?: Pick<SerialTriageOptions, 'commandTimeoutMs' | 'promptTimeoutMs'>;
  /**
   * Runs `callback` after `delayMs` (0: soon, after the current I/O — default setImmediate, else the clock's
   * setTimeout); output is coalesced until then.
   */
  schedule?: (callback: () => void, delayMs: number) => void;
  /**
   * The clock whose timers pace output and time a triage's waits, and whose time dates logs and states (default:
   * the system clock).
   */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** Milliseconds on a monotonic clock (default performance.now). */
  now?: () => number;
  /** Epoch milliseconds, for when session logs were opened and closed and states changed (default: the clock's). */
  wallClock?: () => number;
  log?: { error(message: string, error?: unknown): void };
  /**
   * The open visit's journal: a session opened is recorded before the open is reported done (when it cannot be,
   * the session is closed again and the open refused), a close before the close is, a triage before its result.
   */
  journal?: TerminalJournal;
}

/** A session's most recent output, for a page that was not there when it was sent (`terminals:attach`). */
export interface RecentOutput {
  id: string;
  data: Uint8Array;
  bytesIn: number;
  bytesOut: number;
}
