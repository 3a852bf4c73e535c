import type { EventName, EventPayload } from '../../shared/ipc/contract';
import {
  formatFraming,
  type SerialOpenOptions,
  type SerialOpenOptionsInput,
} from '../../shared/terminal/serial-options';
import type {
  HostKeyNotice,
  OpenDirectInput,
  OpenReverseInput,
  SerialPortListInfo,
  TerminalInfo,
  TerminalLogInfo,
} from '../../shared/terminal/terminal-schemas';
import { assessHealth } from '../../shared/terminal/triage-health';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { DisplayFilter } from '../serial/serial-session';
import { toTransferName, type FileTransferProgress, type FileTransferProtocol } from '../serial/ymodem';
import { runSerialTriage, TriageLoginError, type SerialTriageOptions } from '../serial/serial-triage';
import type { TerminalSession, TerminalState } from '../terminal-core';
import { formatMac, normalizeMac } from '../../shared/mac';
import { OutputCoalescer } from './output-coalescer';
import type { GatewayHint, TerminalJournal } from '../visit';

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
   * Runs `callback` after `delayMs` (0: soon, after the current I/O — default setImmediate, else setTimeout);
   * output is coalesced until then.
   */
  schedule?: (callback: () => void, delayMs: number) => void;
  /** Milliseconds on a monotonic clock (default performance.now). */
  now?: () => number;
  /** Epoch milliseconds, for when session logs were opened and closed and states changed (default Date.now). */
  wallClock?: () => number;
  log?: { error(message: string, error?: unknown): void };
  /**
   * The open visit's journal: a session opened is recorded before the open is reported done (when it cannot be,
   * the session is closed again and the open refused), a close before the close is, a triage before its result.
   */
  journal?: TerminalJournal;
}

/**
 * The most terminals open at once, serial, reverse and direct SSH together (opens still under way count): each
 * holds a tunnel on the server's relay or a port, a session log and a screen in the page; a technician works in a
 * few. Past it an open is refused with TOO_MANY_TERMINALS_MESSAGE before anything is asked of the relay or port.
 */
export const MAX_TERMINALS = 16;

/** What an open past MAX_TERMINALS answers. */
export const TOO_MANY_TERMINALS_MESSAGE = `${MAX_TERMINALS} terminals are open, the most Field Kit keeps at once: close one to open another.`;

/** An open was refused because MAX_TERMINALS are open (or opening) already. */
export class TooManyTerminalsError extends Error {
  override readonly name = 'TooManyTerminalsError';
}

/** No open session has this id (closed already, or never opened). */
export class TerminalNotFoundError extends Error {
  override readonly name = 'TerminalNotFoundError';
}

/** Serial triage needs the gateway's root password: none is stored, or the gateway refused it. */
export class TriagePasswordError extends Error {
  override readonly name = 'TriagePasswordError';
}

/** Serial triage is already running on this console. */
export class TriageBusyError extends Error {
  override readonly name = 'TriageBusyError';
}

/** The operation needs a serial session (break, DTR/RTS, paste with delay). */
export class NotSerialSessionError extends Error {
  override readonly name = 'NotSerialSessionError';
}

type ManagedTerminal = SerialTerminal | SshTerminal;

interface Entry {
  session: ManagedTerminal;
  output: OutputCoalescer;
  reason: string | undefined;
  /** The account it was opened for (undefined: opened before anyone signed in). */
  account: string | undefined;
}

/** Something kept for the site report (a session log, a serial triage) and the account it was made for. */
interface Owned<Item> {
  item: Item;
  account: string | undefined;
}

/** A session's most recent output, for a page that was not there when it was sent (`terminals:attach`). */
export interface RecentOutput {
  id: string;
  data: Uint8Array;
  bytesIn: number;
  bytesOut: number;
}

/**
 * The open terminals by id, between the transports and the SSH / serial services. Guarantees: every output
 * byte of a session reaches `terminal:data` once, in order (coalesced per tick); each state change is
 * pushed as `terminal:state` after the output before it; acknowledgements go to the session's flow control;
 * keystrokes go straight to the session, never behind output; `closeAll()` closes every session (quit).
 */
/** A tab's title with its gateway's MAC when known ("acme-gw-0001 (reverse SSH) · 64:7F:DA:…"). */
function describeGateway(title: string, mac: string | undefined): string {
  return mac ? `${title} · ${formatMac(mac)}` : title;
}

/** A gateway in a session log's file name: its name, and its MAC's digits when known (no `:` in file names). */
function logNameOf(name: string, mac: string | undefined): string {
  return mac ? `${name}_${normalizeMac(mac) ?? mac}` : name;
}

export class TerminalManager {
  readonly #sessions = new Map<string, Entry>();
  /** Opens under way: they count towards MAX_TERMINALS, so that many opened at once cannot pass it. */
  #opening = 0;
  /** Every session log of this run, closed sessions' too: the site report links them. */
  readonly #logs: Array<Owned<TerminalLogInfo>> = [];
  /** Every serial triage of this run, newest last: the site report shows them. */
  readonly #triages: Array<Owned<TriageResult>> = [];
  /** Whose terminals these are: the account signed in last (useAccount), undefined until anyone has. */
  #account: string | undefined;
  /** What each open session names as its gateway (what the journal resolves). */
  readonly #gateways = new Map<string, GatewayHint>();
  /** The `terminal-closed` entries being written, by session: a close resolves once its entry is on the disk. */
  readonly #closeRecords = new Map<string, Promise<void>>();
  /** The consoles diagnostics run on, each with what cancels its run. */
  readonly #triaging = new Map<string, AbortController>();
  /** Files being sent, by console: cancelling aborts the transfer. */
  readonly #sendingFiles = new Map<string, AbortController>();
  readonly #dependencies: TerminalManagerDependencies;
  readonly #schedule: (callback: () => void, delayMs: number) => void;
  readonly #now: () => number;
  readonly #wallClock: () => number;

  constructor(dependencies: TerminalManagerDependencies) {
    this.#dependencies = dependencies;
    this.#schedule =
      dependencies.schedule ??
      ((callback, delayMs) => void (delayMs > 0 ? setTimeout(callback, delayMs) : setImmediate(callback)));
    this.#now = dependencies.now ?? (() => performance.now());
    this.#wallClock = dependencies.wallClock ?? Date.now;
  }

  /** The open sessions, in the order they were opened. */
  list(): TerminalInfo[] {
    return [...this.#sessions.values()].map((entry) => describe(entry));
  }

  /** The current account's session logs of this run, open and closed sessions alike, oldest first. */
  logs(): TerminalLogInfo[] {
    return this.#ownedBy(this.#logs).map((log) => ({ ...log }));
  }

  /**
   * Makes `account` (an opaque key; the app passes the signed-in user and profile) the one whose terminals these
   * are, and resolves once the others' are closed. Sessions, logs and triages made while nobody had signed in
   * become its own; another account's sessions are closed (their output goes nowhere) and their logs and triages
   * are no longer listed, so that one account never sees another's shells.
   */
  async useAccount(account: string): Promise<void> {
    if (account === this.#account) return;
    this.#account = account;
    for (const owned of [...this.#sessions.values(), ...this.#logs, ...this.#triages])
      owned.account ??= account;
    const others = [...this.#sessions.values()].filter((entry) => entry.account !== account);
    await this.#closeQuietly(
      others.map((entry) => entry.session.id),
      'Closed: another account signed in.',
    );
  }

  /**
   * Closes every reverse-SSH session, each stopping its tunnel through the API session while it still can (at
   * sign-out, expiry or a switch of account: a root shell must not outlive the account that opened it). Never
   * rejects; failures and warnings are logged. `reason` is what each closed session then says.
   */
  async closeReverse(reason: string): Promise<void> {
    const reverse = [...this.#sessions.values()].filter(
      ({ session }) => session.kind === 'ssh' && session.route === 'reverse',
    );
    await this.#closeQuietly(
      reverse.map((entry) => entry.session.id),
      reason,
    );
  }

  /** The system's serial ports (and the demo console when enabled), and why the system's are missing if they are. */
  listSerialPorts(): Promise<SerialPortListInfo> {
    return this.#dependencies.serialPorts.list();
  }

  /** Opens a serial console; resolves once the port is open, with its info. */
  openSerial(options: SerialOpenOptionsInput): Promise<TerminalInfo> {
    return this.#openWithinCap(() => this.#dependencies.serialPorts.open(options), {
      typed: options.gateway,
    });
  }

  /** Opens a root shell on a gateway through the profile's relay; a root password that worked is remembered. */
  openReverse(input: OpenReverseInput): Promise<TerminalInfo> {
    return this.#openWithinCap(() => this.#openReverseSession(input), {
      gatewayId: input.gatewayId,
      name: input.gatewayName,
      mac: input.gatewayMac,
    });
  }

  async #openReverseSession(input: OpenReverseInput): Promise<ManagedTerminal> {
    const { relay, portRange } = await this.#dependencies.resolveRelay();
    const session = await this.#dependencies.ssh.openReverse({
      gatewayId: input.gatewayId,
      ...(input.gatewayName
        ? {
            title: describeGateway(`${input.gatewayName} (reverse SSH)`, input.gatewayMac),
            logName: logNameOf(input.gatewayName, input.gatewayMac),
          }
        : {}),
      relay,
      ...(portRange ? { portRange } : {}),
      ...(input.rootPassword ? { rootPassword: input.rootPassword } : {}),
      cols: input.cols,
      rows: input.rows,
      ...(input.timestamps ? { timestamps: true } : {}),
    });
    if (input.rootPassword) await this.#remember(input.gatewayId, input.rootPassword);
    return session;
  }

  /** Opens a shell on a gateway on the local network. */
  openDirect(input: OpenDirectInput): Promise<TerminalInfo> {
    return this.#openWithinCap(() => this.#openDirectSession(input), {
      gatewayId: input.gatewayId,
      name: input.gatewayName,
      mac: input.gatewayMac,
    });
  }

  async #openDirectSession(input: OpenDirectInput): Promise<ManagedTerminal> {
    const session = await this.#dependencies.ssh.openDirect({
      host: input.host,
      port: input.port,
      username: input.username,
      password: input.password,
      ...(input.gatewayId ? { gatewayId: input.gatewayId } : {}),
      ...(input.gatewayName
        ? {
            title: describeGateway(`${input.gatewayName} (SSH)`, input.gatewayMac),
            logName: logNameOf(input.gatewayName, input.gatewayMac),
          }
        : {}),
      cols: input.cols,
      rows: input.rows,
      ...(input.timestamps ? { timestamps: true } : {}),
    });
    return session;
  }

  /**
   * Opens a session unless MAX_TERMINALS are open or opening, adopts it and records it in the visit journal; a
   * session that cannot be recorded is closed again and the open refused with the journal's error.
   */
  async #openWithinCap(open: () => Promise<ManagedTerminal>, gateway: GatewayHint): Promise<TerminalInfo> {
    if (this.#sessions.size + this.#opening >= MAX_TERMINALS) {
      throw new TooManyTerminalsError(TOO_MANY_TERMINALS_MESSAGE);
    }
    this.#opening += 1;
    let session: ManagedTerminal;
    try {
      session = await open();
    } finally {
      this.#opening -= 1;
    }
    this.#gateways.set(session.id, gateway);
    const info = this.#adopt(session);
    try {
      await this.#dependencies.journal?.opened({
        sessionId: session.id,
        transport: session.kind,
        title: session.title,
        logFile: session.logPath,
        gateway,
      });
    } catch (error) {
      this.#closeRecords.set(session.id, Promise.resolve());
      await this.close(session.id).catch((closeError: unknown) =>
        this.#dependencies.log?.error(
          `closing terminal ${session.id} that could not be recorded`,
          closeError,
        ),
      );
      this.#closeRecords.delete(session.id);
      throw error;
    }
    return info;
  }

  /** Pins a new host key after the user chose "Replace key" on a host-key warning. */
  replaceHostKey(keyId: string, fingerprint: string): Promise<void> {
    return this.#dependencies.ssh.replaceHostKey(keyId, fingerprint);
  }

  /** Sends keystrokes or text to a session at once (not queued behind its output). */
  write(id: string, data: string): void {
    this.#require(id).session.write(data);
  }

  /** An open session as a runbook drives it (electron/services/runbooks), with the gateway it names. */
  runbookTarget(id: string): { session: ManagedTerminal; gateway: GatewayHint } {
    return { session: this.#require(id).session, gateway: this.#gateways.get(id) ?? {} };
  }

  /** Follows the terminal's size (SSH window-change; nothing for serial). */
  resize(id: string, cols: number, rows: number): void {
    this.#require(id).session.resize(cols, rows);
  }

  /** The renderer finished writing `bytes` of this session's output: may resume a paused producer. */
  acknowledge(id: string, bytes: number): void {
    // Acknowledgements may arrive just after a close; they no longer matter.
    this.#sessions.get(id)?.session.acknowledge(bytes);
  }

  /**
   * A page starts over (loaded or reloaded): every session forgets the acknowledgements it was still owed, since
   * the page that owed them is gone, and a producer paused for them resumes. Output the new page is then sent is
   * counted afresh. (Acknowledgements still on their way from the old page are then surplus: flow control never
   * banks them as credit.)
   */
  writeOffAcknowledgements(): void {
    for (const { session } of this.#sessions.values()) {
      if (session.unacknowledged > 0) session.acknowledge(session.unacknowledged);
    }
  }

  /**
   * Each open session's output sent so far, up to its last REPLAY_MAX_BYTES (from a line start when cut), for a
   * page that starts over. Output still pending is sent first (as `terminal:data`, which the page then finds in
   * the replay), so that every event after the replay carries only newer output.
   */
  recentOutput(): RecentOutput[] {
    for (const entry of this.#sessions.values()) entry.output.flush();
    return [...this.#sessions.values()]
      .filter((entry) => entry.output.recentBytes > 0)
      .map((entry) => ({
        id: entry.session.id,
        data: entry.output.replay(),
        bytesIn: entry.session.bytesIn,
        bytesOut: entry.session.bytesOut,
      }));
  }

  /**
   * Closes a session (an SSH one also stops its reverse tunnel); safe for an id already gone. Resolves with a
   * `warning` when the session closed but not cleanly: an SSH session whose gateway did not confirm the tunnel
   * was stopped.
   */
  async close(id: string, reason?: string): Promise<{ warning?: string }> {
    const entry = this.#sessions.get(id);
    if (!entry) return {};
    const { session } = entry;
    await (session.kind === 'ssh' && reason ? session.close(reason) : session.close());
    this.#forget(id, reason);
    await this.#closeRecords.get(id);
    const warning = session.kind === 'ssh' ? session.closeWarning : undefined;
    return warning ? { warning } : {};
  }

  /**
   * Connects a failed session again (SSH: a new tunnel if needed; serial: reopens the port). `password` replaces
   * an SSH session's password the gateway refused; a gateway root password that then works is remembered.
   */
  async reconnect(id: string, password?: string): Promise<TerminalInfo> {
    const entry = this.#require(id);
    const { session } = entry;
    if (session.kind === 'serial') await session.reopen();
    else {
      await session.reconnect(password ? { password } : {});
      if (password && session.route === 'reverse' && session.gatewayId && session.state === 'open') {
        await this.#remember(session.gatewayId, password);
      }
    }
    return describe(entry);
  }

  /** Sends a serial break. */
  sendBreak(id: string): Promise<void> {
    return this.#requireSerial(id).sendBreak();
  }

  /** Sets DTR and/or RTS; resolves with both lines' state, which every window also gets as `terminal:state`. */
  async setSignals(
    id: string,
    signals: { dtr?: boolean; rts?: boolean },
  ): Promise<{ dtr: boolean; rts: boolean }> {
    const session = this.#requireSerial(id);
    await session.setSignals(signals);
    const entry = this.#sessions.get(id);
    if (entry) this.#pushState(entry, session.state, entry.reason);
    return session.signals;
  }

  /** Pastes text to a serial console line by line with a pause after each line. */
  paste(id: string, text: string, delayMs: number): Promise<void> {
    return this.#requireSerial(id).pasteLines(text, delayMs);
  }

  /** Frees a serial session's port, keeping the session to reconnect later (SerialSession.disconnect). */
  async disconnect(id: string): Promise<TerminalInfo> {
    await this.#requireSerial(id).disconnect();
    return describe(this.#require(id));
  }

  /** Turns a serial session's raw view (for the hex view) on or off: see SerialSession.setRawView. */
  setRawView(id: string, isOn: boolean): void {
    this.#requireSerial(id).setRawView(isOn);
  }

  /**
   * Runs the read-only diagnostics on a serial console (runSerialTriage) and keeps the health panel for the site
   * report. At a login prompt it uses `password`, else the gateway's stored root password; it rejects with a
   * TriagePasswordError when it has none or the gateway refuses it. A password typed here that works is kept in
   * the keychain when `rememberPassword` is set and the console names its gateway.
   */
  async collectDiagnostics(
    id: string,
    input: { password?: string; rememberPassword?: boolean } = {},
  ): Promise<TriageResult> {
    const session = this.#requireSerial(id);
    if (this.#triaging.has(id)) throw new TriageBusyError('Diagnostics are already running on this console.');
    const controller = new AbortController();
    this.#triaging.set(id, controller);
    try {
      const gatewayId = session.options.gateway;
      let password = input.password;
      if (!password && gatewayId) {
        try {
          password = await this.#dependencies.rootPassword?.(gatewayId);
        } catch (error) {
          this.#dependencies.log?.error(`reading the root password of ${gatewayId}`, error);
        }
      }
      const startedAt = this.#wallClock();
      let outcome;
      try {
        outcome = await runSerialTriage(session, {
          ...this.#dependencies.triage,
          ...(password ? { password } : {}),
          now: this.#now,
          signal: controller.signal,
          onProgress: (progress) =>
            this.#dependencies.events.emit('serial:triage-progress', {
              id,
              ...progress,
              ...(controller.signal.aborted ? { isCancelling: true } : {}),
            }),
        });
      } catch (error) {
        if (error instanceof TriageLoginError) throw new TriagePasswordError(error.message);
        throw error;
      }
      if (outcome.usedPassword && input.password && input.rememberPassword && gatewayId)
        await this.#remember(gatewayId, input.password);
      const result: TriageResult = {
        terminalId: id,
        title: session.title,
        ...(gatewayId ? { gatewayId } : {}),
        startedAt,
        finishedAt: this.#wallClock(),
        outcome: outcome.outcome,
        ...(outcome.problem ? { problem: outcome.problem } : {}),
        commands: outcome.commands,
        health: assessHealth(outcome.readings),
        ...(outcome.consoleLeft ? { consoleLeft: outcome.consoleLeft } : {}),
      };
      await this.#dependencies.journal?.triaged(result, this.#gateways.get(id) ?? { typed: gatewayId });
      this.#triages.push({ item: result, account: this.#account });
      return result;
    } finally {
      this.#triaging.delete(id);
    }
  }

  /**
   * Sends a file to a receiver waiting on a serial console (SerialSession.sendFile) under its name without spaces
   * or folders, pushing `serial:send-file-progress` after each block; resolves with its size and how long it took.
   */
  async sendFile(
    id: string,
    file: { protocol: FileTransferProtocol; name: string; data: Uint8Array },
  ): Promise<{ bytes: number; elapsedMs: number }> {
    const session = this.#requireSerial(id);
    if (this.#sendingFiles.has(id))
      throw new TriageBusyError('A file is already being sent on this console.');
    const controller = new AbortController();
    this.#sendingFiles.set(id, controller);
    const startedAt = this.#now();
    try {
      await session.sendFile(
        { ...file, name: toTransferName(file.name) },
        {
          signal: controller.signal,
          onProgress: (progress) =>
            this.#dependencies.events.emit('serial:send-file-progress', { id, ...progress }),
        },
      );
      return { bytes: file.data.length, elapsedMs: Math.round(this.#now() - startedAt) };
    } finally {
      this.#sendingFiles.delete(id);
    }
  }

  /** Cancels the file being sent on a console (the receiver gets CAN CAN); nothing to do when none is. */
  cancelSendFile(id: string): void {
    this.#sendingFiles.get(id)?.abort();
  }

  /**
   * Asks the diagnostics running on a console to stop after the command under way; `collectDiagnostics` then
   * resolves with what was read. Nothing to do when none runs there.
   */
  cancelDiagnostics(id: string): void {
    this.#triaging.get(id)?.abort();
  }

  /** The current account's serial triages of this run, oldest first. */
  triages(): TriageResult[] {
    return this.#ownedBy(this.#triages).map((result) => structuredClone(result));
  }

  /** Closes every session (app quit); never rejects, failures and warnings are logged. */
  closeAll(): Promise<void> {
    return this.#closeQuietly([...this.#sessions.keys()]);
  }

  #ownedBy<Item>(kept: Array<Owned<Item>>): Item[] {
    return kept.filter((owned) => owned.account === this.#account).map((owned) => owned.item);
  }

  async #closeQuietly(ids: string[], reason?: string): Promise<void> {
    await Promise.all(
      ids.map((id) =>
        this.close(id, reason).then(
          ({ warning }) => {
            if (warning) this.#dependencies.log?.error(`closing terminal ${id}: ${warning}`);
          },
          (error: unknown) => this.#dependencies.log?.error(`closing terminal ${id}`, error),
        ),
      ),
    );
  }

  #adopt(session: ManagedTerminal): TerminalInfo {
    const output = new OutputCoalescer({
      emit: (data) =>
        this.#dependencies.events.emit('terminal:data', {
          id: session.id,
          data,
          bytesIn: session.bytesIn,
          bytesOut: session.bytesOut,
        }),
      schedule: this.#schedule,
      now: this.#now,
    });
    const entry: Entry = {
      session,
      output,
      reason: session.kind === 'ssh' ? session.reason : undefined,
      account: this.#account,
    };
    this.#sessions.set(session.id, entry);
    this.#recordLog(entry);
    session.on('data', (chunk) => output.push(chunk));
    session.on('state', (state, reason) => {
      // A serial session reopened after a failure or a disconnect writes a new log file.
      if (state === 'open') this.#recordLog(entry);
      output.flush();
      entry.reason = reason;
      this.#pushState(entry, state, reason);
    });
    session.on('closed', () => {
      output.flush();
      this.#forget(session.id);
    });
    return describe(entry);
  }

  #pushState(entry: Entry, state: TerminalState, reason: string | undefined): void {
    const { session } = entry;
    const hostKey = state === 'open' && session.kind === 'ssh' ? session.hostKeys.at(-1) : undefined;
    this.#dependencies.events.emit('terminal:state', {
      id: session.id,
      state,
      ...(reason ? { reason } : {}),
      at: this.#wallClock(),
      ...(hostKey ? { hostKey: { fingerprint: hostKey.fingerprint, isNew: hostKey.isNew } } : {}),
      session: describe(entry),
    });
  }

  #recordLog(entry: Entry): void {
    const { session } = entry;
    if (
      !session.logPath ||
      this.#logs.some(({ item }) => item.id === session.id && item.path === session.logPath)
    )
      return;
    const { gatewayId } = describe(entry);
    this.#logs.push({
      item: {
        id: session.id,
        title: session.title,
        path: session.logPath,
        ...(gatewayId ? { gatewayId } : {}),
        openedAt: this.#wallClock(),
      },
      account: entry.account,
    });
  }

  #forget(id: string, reason?: string): void {
    const entry = this.#sessions.get(id);
    if (!entry || !this.#sessions.delete(id)) return;
    for (const { item } of this.#logs) if (item.id === id) item.closedAt ??= this.#wallClock();
    this.#gateways.delete(id);
    const { journal } = this.#dependencies;
    // A session that could not be recorded as opened is not recorded as closed either.
    if (!journal || this.#closeRecords.has(id)) return;
    const closeReason = reason ?? entry.reason;
    const record = journal
      .closed({
        sessionId: id,
        logFile: entry.session.logPath,
        ...(closeReason ? { reason: closeReason } : {}),
      })
      .catch((error: unknown) => this.#dependencies.log?.error(`recording that terminal ${id} closed`, error))
      .finally(() => this.#closeRecords.delete(id));
    this.#closeRecords.set(id, record);
  }

  async #remember(gatewayId: string, password: string): Promise<void> {
    try {
      await this.#dependencies.rememberRootPassword?.(gatewayId, password);
    } catch (error) {
      // The session is open; a keychain that refuses only means the password is asked again next time.
      this.#dependencies.log?.error(`keeping the root password of ${gatewayId}`, error);
    }
  }

  #require(id: string): Entry {
    const entry = this.#sessions.get(id);
    if (!entry) throw new TerminalNotFoundError('This terminal is no longer open. Open a new one.');
    return entry;
  }

  #requireSerial(id: string): SerialTerminal {
    const { session } = this.#require(id);
    if (session.kind !== 'serial') throw new NotSerialSessionError('Only a serial console can do this.');
    return session;
  }
}

function describe(entry: Entry): TerminalInfo {
  const { session } = entry;
  const common = {
    id: session.id,
    kind: session.kind,
    title: session.title,
    state: session.state,
    ...(entry.reason ? { reason: entry.reason } : {}),
    bytesIn: session.bytesIn,
    bytesOut: session.bytesOut,
    ...(session.logPath ? { logPath: session.logPath } : {}),
    ...(session.logProblem ? { logProblem: session.logProblem } : {}),
  };
  if (session.kind === 'serial') {
    const { options } = session;
    return {
      ...common,
      ...(options.gateway ? { gatewayId: options.gateway } : {}),
      path: session.path,
      framing: formatFraming(options),
      // A port that is not open has no line state to show: the last one known may no longer hold.
      ...(session.state === 'open' ? { signals: session.signals } : {}),
      hostKeys: [],
    };
  }
  return {
    ...common,
    ...(session.gatewayId ? { gatewayId: session.gatewayId } : {}),
    route: session.route,
    hostKeys: session.hostKeys.map(({ keyId, fingerprint, isNew }) => ({ keyId, fingerprint, isNew })),
  };
}
