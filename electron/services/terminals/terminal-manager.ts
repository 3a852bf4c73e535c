import { SYSTEM_CLOCK } from '../../shared/clock';
import { t } from '../../shared/i18n';
import type { SerialOpenOptionsInput } from '../../shared/terminal/serial-options';
import type {
  OpenDirectInput,
  OpenReverseInput,
  SerialPortListInfo,
  TerminalInfo,
  TerminalLogInfo,
} from '../../shared/terminal/terminal-schemas';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { FileTransferProtocol } from '../serial/ymodem';
import type { TerminalState } from '../terminal-core';
import { OutputCoalescer } from './output-coalescer';
import type { GatewayHint } from '../visit';
import { SerialConsoleWork } from './serial-console-work';
import {
  describe,
  directRequest,
  reverseRequest,
  type Entry,
  type ManagedTerminal,
  type Owned,
} from './terminal-info';
import {
  MAX_TERMINALS,
  NotSerialSessionError,
  TerminalNotFoundError,
  tooManyTerminalsMessage,
  TooManyTerminalsError,
} from './terminal-limits';
import type { RecentOutput, SerialTerminal, TerminalManagerDependencies } from './terminal-types';

/**
 * The open terminals by id, between the transports and the SSH / serial services. Guarantees: every output
 * byte of a session reaches `terminal:data` once, in order (coalesced per tick); each state change is
 * pushed as `terminal:state` after the output before it; acknowledgements go to the session's flow control;
 * keystrokes go straight to the session, never behind output; `closeAll()` closes every session (quit).
 */
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
  /** Diagnostics and file transfers on the serial consoles. */
  readonly #serialWork: SerialConsoleWork;
  readonly #dependencies: TerminalManagerDependencies;
  readonly #schedule: (callback: () => void, delayMs: number) => void;
  readonly #now: () => number;
  readonly #wallClock: () => number;

  constructor(dependencies: TerminalManagerDependencies) {
    this.#dependencies = dependencies;
    const clock = dependencies.clock ?? SYSTEM_CLOCK;
    this.#schedule =
      dependencies.schedule ??
      ((callback, delayMs) =>
        void (delayMs > 0 ? clock.setTimeout(callback, delayMs) : setImmediate(callback)));
    this.#now = dependencies.now ?? (() => performance.now());
    this.#wallClock = dependencies.wallClock ?? (() => clock.now());
    this.#serialWork = new SerialConsoleWork({
      ...dependencies,
      remember: (gatewayId, password) => this.#remember(gatewayId, password),
      now: this.#now,
      wallClock: this.#wallClock,
      clock,
    });
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
      t('terminals:closedOtherAccount'),
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
    const session = await this.#dependencies.ssh.openReverse(
      reverseRequest(input, await this.#dependencies.resolveRelay()),
    );
    if (input.rootPassword) await this.#remember(input.gatewayId, input.rootPassword);
    return session;
  }

  /** Opens a shell on a gateway on the local network. */
  openDirect(input: OpenDirectInput): Promise<TerminalInfo> {
    return this.#openWithinCap(() => this.#dependencies.ssh.openDirect(directRequest(input)), {
      gatewayId: input.gatewayId,
      name: input.gatewayName,
      mac: input.gatewayMac,
    });
  }

  /**
   * Opens a session unless MAX_TERMINALS are open or opening, adopts it and records it in the visit journal; a
   * session that cannot be recorded is closed again and the open refused with the journal's error.
   */
  async #openWithinCap(open: () => Promise<ManagedTerminal>, gateway: GatewayHint): Promise<TerminalInfo> {
    if (this.#sessions.size + this.#opening >= MAX_TERMINALS) {
      throw new TooManyTerminalsError(tooManyTerminalsMessage());
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
   * Runs the read-only diagnostics on a serial console (SerialConsoleWork.collectDiagnostics) and keeps the
   * health panel for the site report.
   */
  async collectDiagnostics(
    id: string,
    input: { password?: string; rememberPassword?: boolean } = {},
  ): Promise<TriageResult> {
    const session = this.#requireSerial(id);
    const result = await this.#serialWork.collectDiagnostics(id, session, input, this.#gateways.get(id));
    this.#triages.push({ item: result, account: this.#account });
    return result;
  }

  /** Sends a file to a receiver waiting on a serial console (SerialConsoleWork.sendFile). */
  sendFile(
    id: string,
    file: { protocol: FileTransferProtocol; name: string; data: Uint8Array },
  ): Promise<{ bytes: number; elapsedMs: number }> {
    return this.#serialWork.sendFile(id, this.#requireSerial(id), file);
  }

  /** Cancels the file being sent on a console (the receiver gets CAN CAN); nothing to do when none is. */
  cancelSendFile(id: string): void {
    this.#serialWork.cancelSendFile(id);
  }

  /** Asks the diagnostics running on a console to stop after the command under way (none: nothing to do). */
  cancelDiagnostics(id: string): void {
    this.#serialWork.cancelDiagnostics(id);
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
    if (!entry) throw new TerminalNotFoundError(t('terminals:terminalGone'));
    return entry;
  }

  #requireSerial(id: string): SerialTerminal {
    const { session } = this.#require(id);
    if (session.kind !== 'serial') throw new NotSerialSessionError(t('terminals:onlySerial'));
    return session;
  }
}
