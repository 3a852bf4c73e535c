import { SessionLog } from '../terminal-core/session-log';
import { isFinalState, type TerminalState } from '../terminal-core/terminal-session';
import { TerminalSessionBase } from '../terminal-core/terminal-session-base';
import type { BindingInterface, BindingPortInterface } from '../../shared/serial/binding-types';
import { createPortReader } from './eof-aware-read';
import { splitPaste, translateTransmitNewlines } from './newline';
import { SerialDisplay, type DisplayFilter } from './serial-display';
import {
  controlError,
  describeDisconnect,
  describeOpenError,
  disconnectedByUser,
  RECONNECT_POLICY_DEFAULT,
  toOpenOptions,
  type ReconnectPolicy,
} from './serial-port-words';
import { formatFraming, PasteLinesSchema, SerialOptionsError, type SerialOpenOptions } from './options';
import { searchForAdapter, type PortIdentity } from './port-matching';
import { sendFile, type FileTransferProgress, type FileTransferProtocol } from './ymodem';
import type { Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/** What a serial session needs from outside. */
export interface SerialSessionDependencies {
  binding: BindingInterface;
  /** Times line stamps and log names, and every wait: reconnect polls, paste delays, breaks. */
  clock: Clock;
  logsDir?: string;
  reconnect?: Partial<ReconnectPolicy>;
  flow?: { highWatermark?: number; lowWatermark?: number };
}

const READ_BUFFER_BYTES = 65_536;
const BREAK_DURATION_MS_DEFAULT = 250;

/**
 * A serial terminal: framing as configured, TX/RX newline translation, local echo, break, DTR/RTS, a session log,
 * renderer flow control (never more than the high watermark unacknowledged; `reopen()` writes off what was owed),
 * and auto-reconnect when the adapter comes back (matched by serial number, then VID/PID, then path; state
 * `reconnecting` meanwhile). Once the user disconnects or closes the session, nothing already under way (a
 * reconnect, an open) opens the port or changes the state. Nothing is lost before the first 'data' listener:
 * bytes wait (and the port is not read) until one is added.
 * `resize` does nothing: a serial line has no window size.
 */
export class SerialSession extends TerminalSessionBase {
  readonly kind = 'serial' as const;
  readonly title: string;
  readonly options: SerialOpenOptions;
  #port: BindingPortInterface | undefined;
  #identity: PortIdentity;
  #writes: Promise<void> = Promise.resolve();
  #pending: Uint8Array[] = [];
  #wakeReader: (() => void) | undefined;
  readonly #cancelWaits = new Set<() => void>();
  #reconnecting: Promise<void> = Promise.resolve();
  /** Counts user stops (disconnect, close): a connect begun under an earlier count is abandoned. */
  #stopCount = 0;
  #signals: { dtr: boolean; rts: boolean };
  #isSendingFile = false;
  /** True once DTR/RTS were set (on open or by the user): a reopened port then gets them back. */
  #hasSetSignals: boolean;
  readonly #display: SerialDisplay;
  /** What the log records instead of a chunk on the screen (echoed password characters). */
  readonly #logInstead = new WeakMap<Uint8Array, Uint8Array>();
  readonly #dependencies: SerialSessionDependencies;
  readonly #reconnect: ReconnectPolicy;

  constructor(options: SerialOpenOptions, identity: PortIdentity, dependencies: SerialSessionDependencies) {
    super({ ...dependencies.flow }, options.timestamps ? undefined : dependencies.clock);
    this.options = options;
    this.#identity = identity;
    this.#dependencies = dependencies;
    this.#reconnect = { ...RECONNECT_POLICY_DEFAULT, ...dependencies.reconnect };
    this.title = `${options.gateway ?? options.path} · ${formatFraming(options)}`;
    // Without an explicit setting the lines are as the OS opened the port: asserted on Linux, macOS and Windows.
    this.#signals = { dtr: options.dtr ?? true, rts: options.rts ?? true };
    this.#hasSetSignals = options.dtr !== undefined || options.rts !== undefined;
    this.#display = new SerialDisplay(options, dependencies.clock);
  }

  /** The path of the port currently (or last) open. */
  get path(): string {
    return this.#identity.path;
  }

  /** True while the renderer is behind and the port is not being read. */
  get isPaused(): boolean {
    return this.flow.isPaused;
  }

  override on(event: 'data', listener: (chunk: Uint8Array) => void): this;
  override on(event: 'state', listener: (state: TerminalState, reason?: string) => void): this;
  override on(event: 'closed', listener: () => void): this;
  /** Every chunk as the port gave it, at once (no translation, no flow control): for serial triage. */
  override on(event: 'received', listener: (chunk: Uint8Array) => void): this;
  override on(event: string, listener: (...args: never[]) => void): this {
    super.on(event, listener as (...args: unknown[]) => void);
    // Bytes that arrived before anyone listened were held (and the port not read): hand them over now.
    if (event === 'data') queueMicrotask(() => this.#flushPending());
    return this;
  }

  /**
   * Opens the port and the log; rejects with a plain message (and the session fails) if the port will not open.
   * If the session is closed meanwhile it rejects and stays closed, with the port freed.
   */
  async start(): Promise<void> {
    if (this.state !== 'connecting')
      throw new Error(`The serial session was already started (it is ${this.state})`);
    const stopCount = this.#stopCount;
    // A reopen starts a new log; what became of the last one no longer applies.
    this.useLog(undefined);
    if (this.options.logging && this.#dependencies.logsDir) {
      this.useLog(
        await SessionLog.tryOpen({
          logsDir: this.#dependencies.logsDir,
          gateway: this.options.gateway ?? this.options.path.split(/[/\\]/).pop() ?? 'serial',
          clock: this.#dependencies.clock,
          pattern: this.options.logPattern,
        }),
      );
    }
    // After the new log is open, so that what the screen is still to show is logged with it.
    this.#startFlowAfresh();
    try {
      await this.#openPort(this.options.path, stopCount);
    } catch (error) {
      // The port never opened: the log made for it would be empty, so it goes (docs/serial-triage.md).
      const log = this.log;
      this.useLog(undefined);
      if (this.#stopCount !== stopCount) {
        await log?.discardIfEmpty();
        throw new Error('The serial session was closed before its port opened', { cause: error });
      }
      const reason = describeOpenError(this.options.path, error);
      this.setState('failed', reason);
      await log?.discardIfEmpty();
      throw new Error(reason, { cause: error });
    }
    this.setState('open');
    this.#startReading();
  }

  /**
   * Tries once more after the session failed (the first open failed, the adapter stayed away too long, or the user
   * disconnected): resolves when open again (with a new log file), rejects with a plain message and stays failed
   * otherwise.
   *
   * Flow control starts afresh: acknowledgements the screen still owed are written off (the page that owed them may
   * be gone), so they can never keep the new port unread. Output still waiting from before is not lost: it is
   * handed over at once, ahead of anything the new port sends, and written off with the rest. A live screen may
   * thus briefly hold up to that much more than the high watermark, far below what xterm.js can buffer.
   */
  async reopen(): Promise<void> {
    if (this.state !== 'failed')
      throw new Error(`Only a failed session can be reopened (this one is ${this.state})`);
    this.setState('connecting');
    await this.start();
  }

  /**
   * Sends keystrokes or text; each CR, LF or CRLF becomes the TX newline. Dropped unless the session is open, and
   * while a file is being sent (a keystroke inside a block would spoil it).
   */
  write(data: string | Uint8Array): void {
    if (this.state !== 'open' || !this.#port || this.#isSendingFile) return;
    const bytes = translateTransmitNewlines(data, this.options.txNewline);
    this.#echo(data);
    void this.#writeToPort(bytes);
  }

  /** Sends bytes exactly as given (no newline translation, no local echo): files, binary protocols. */
  writeBytes(data: Uint8Array): Promise<void> {
    if (this.state !== 'open' || !this.#port) return Promise.reject(new Error(t('terminals:serialNotOpen')));
    return this.#writeToPort(data);
  }

  /**
   * Sends a file to a receiver already waiting on the console (U-Boot `loady`/`loadx`, `rb`/`rx`) by YMODEM or
   * XMODEM with CRC-16 (ymodem.ts); resolves once the receiver acknowledged it, rejects with a FileTransferError
   * saying why not (no answer, cancelled by either side, too many NAKs). One file at a time per session.
   */
  async sendFile(
    file: { protocol: FileTransferProtocol; name: string; data: Uint8Array },
    options: {
      signal?: AbortSignal;
      onProgress?(progress: FileTransferProgress): void;
      startTimeoutMs?: number;
      blockTimeoutMs?: number;
    } = {},
  ): Promise<void> {
    if (this.state !== 'open' || !this.#port) throw new Error(t('terminals:serialNotOpen'));
    if (this.#isSendingFile) throw new Error(t('terminals:serialFileBusy'));
    this.#isSendingFile = true;
    try {
      await sendFile(
        {
          write: (bytes) => this.writeBytes(bytes),
          onReceive: (listener) => {
            this.on('received', listener);
            return () => this.off('received', listener);
          },
        },
        { ...file, ...options, clock: this.#dependencies.clock },
      );
    } finally {
      this.#isSendingFile = false;
    }
  }

  /** A serial line has no window size; nothing to do. */
  resize(_cols: number, _rows: number): void {}

  /**
   * Sends text one line at a time (each followed by the TX newline), waiting `delayMs` after each for consoles
   * that drop fast input. A last line without a newline is sent without one. Stops if the session stops.
   */
  async pasteLines(text: string, delayMs: number): Promise<void> {
    const parsed = PasteLinesSchema.safeParse({ text, delayMs });
    if (!parsed.success) throw new SerialOptionsError(parsed.error.issues.map((issue) => issue.message));
    for (const piece of splitPaste(parsed.data.text)) {
      if (this.state !== 'open' || !this.#port) throw new Error(t('terminals:serialNotOpen'));
      this.#echo(piece.text);
      await this.#writeToPort(translateTransmitNewlines(piece.text, this.options.txNewline));
      if (piece.endsLine && parsed.data.delayMs > 0) await this.#wait(parsed.data.delayMs);
    }
  }

  /** Holds the line in break for `durationMs` (default 250 ms), keeping DTR/RTS as they are. */
  async sendBreak(durationMs = BREAK_DURATION_MS_DEFAULT): Promise<void> {
    const port = this.#requireOpenPort();
    if (!Number.isInteger(durationMs) || durationMs < 1 || durationMs > 5_000) {
      throw new RangeError(t('terminals:serialBreakRange'));
    }
    try {
      await port.set({ brk: true, ...this.#signals });
      await this.#wait(durationMs);
    } catch (error) {
      throw controlError('terminals:serialBreakFailed', error);
    } finally {
      if (port.isOpen) await port.set({ brk: false, ...this.#signals }).catch(() => {});
    }
  }

  /** Sets DTR and/or RTS; the other line keeps its last known state. */
  async setSignals(signals: { dtr?: boolean; rts?: boolean }): Promise<void> {
    const port = this.#requireOpenPort();
    const next = { dtr: signals.dtr ?? this.#signals.dtr, rts: signals.rts ?? this.#signals.rts };
    try {
      await port.set({ brk: false, ...next });
    } catch (error) {
      throw controlError('terminals:serialSignalsFailed', error);
    }
    this.#signals = next;
    this.#hasSetSignals = true;
  }

  /** Turns the raw view (for the hex view) on or off: SerialDisplay.isRawView. */
  setRawView(isOn: boolean): void {
    this.#display.isRawView = isOn;
  }

  /**
   * Puts a filter between the port and the screen (and the log, which holds what the screen shows); undefined
   * removes it, showing what it still held. 'received' listeners always get the bytes as the port gave them.
   */
  setDisplayFilter(filter: DisplayFilter | undefined): void {
    this.#deliver(this.#display.setFilter(filter));
  }

  /** The DTR/RTS state last set (or assumed asserted when left as opened). */
  get signals(): { dtr: boolean; rts: boolean } {
    return { ...this.#signals };
  }

  /**
   * Frees the port for other programs (a flashing tool, another terminal) but keeps the session, its screen and
   * its tab: the state becomes `failed` with a reason saying so, nothing reconnects by itself, and `reopen()`
   * connects again (with a new log file). Nothing to do unless the session is open or reconnecting (an open in
   * flight finishes first).
   */
  async disconnect(): Promise<void> {
    if (this.state !== 'open' && this.state !== 'reconnecting') return;
    this.setState('failed', disconnectedByUser());
    await this.#releasePort();
  }

  /** Closes the port (freeing it for other programs), stops reconnecting and closes the log. */
  async close(): Promise<void> {
    if (isFinalState(this.state)) return;
    this.setState('closed');
    await this.#releasePort();
    this.emit('closed');
  }

  /**
   * After a state that stops the session: abandons any connect under way, ends waits and the read, closes the port,
   * lets the reconnect loop, writes and log finish.
   */
  async #releasePort(): Promise<void> {
    this.#stopCount += 1;
    for (const cancel of [...this.#cancelWaits]) cancel();
    this.#wakeReader?.();
    const port = this.#port;
    this.#port = undefined;
    // A reopen may start while this waits below; the log it opens is not this one's to close.
    const log = this.log;
    if (port?.isOpen) await port.close().catch(() => {});
    await this.#reconnecting;
    await this.#writes;
    await log?.close();
  }

  #requireOpenPort(): BindingPortInterface {
    if (this.state !== 'open' || !this.#port?.isOpen) throw new Error(t('terminals:serialNotOpen'));
    return this.#port;
  }

  /**
   * Opens `path` as the session's port. Rejects, with the port closed again, if the user stopped the session since
   * `stopCount` was taken; on resolving the session is still not stopped, so the caller may set the state.
   */
  async #openPort(path: string, stopCount: number): Promise<void> {
    if (this.#stopCount !== stopCount) throw new Error('the session was stopped');
    const port = await this.#dependencies.binding.open(toOpenOptions(path, this.options));
    const abandonIfStopped = async () => {
      if (this.#stopCount === stopCount) return;
      // Disconnected or closed while the open was in flight: free the port at once.
      await port.close().catch(() => {});
      throw new Error('the session was stopped');
    };
    await abandonIfStopped();
    // After a reconnect the lines are as the user last set them, not as the OS opens a port.
    if (this.#hasSetSignals) {
      try {
        await port.set({ brk: false, ...this.#signals });
      } catch (error) {
        await port.close().catch(() => {});
        throw controlError('terminals:serialSignalsFailed', error);
      }
      await abandonIfStopped();
    }
    this.#port = port;
    this.#identity = { ...this.#identity, path };
  }

  /** Reads only once the state says open, so a disconnect can never be reported before the open. */
  #startReading(): void {
    if (this.#port) void this.#readLoop(this.#port);
  }

  async #readLoop(port: BindingPortInterface): Promise<void> {
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    const read = createPortReader(port);
    try {
      while (this.#port === port && port.isOpen) {
        if (this.flow.isPaused || this.#pending.length > 0) {
          // Not reading lets the OS buffer fill and the far end block: that is the pause.
          let wake: (() => void) | undefined;
          await new Promise<void>((resolve) => (this.#wakeReader = wake = resolve));
          // A reader on a reopened port may already be waiting: leave its wake-up alone.
          if (this.#wakeReader === wake) this.#wakeReader = undefined;
          continue;
        }
        const length = Math.min(READ_BUFFER_BYTES, Math.max(this.flow.available, 1));
        const { bytesRead } = await read(buffer, 0, length);
        if (bytesRead === 0) continue;
        this.countIn(bytesRead);
        const chunk = Buffer.from(buffer.subarray(0, bytesRead));
        if (this.listenerCount('received') > 0) this.emit('received', chunk);
        this.#receive(chunk);
      }
    } catch (error) {
      if (this.#port === port && !(error as { canceled?: boolean }).canceled) {
        this.#reconnecting = this.#handleDisconnect(port, error);
      }
    }
  }

  /** Shows the local echo of typed data (SerialDisplay.echo); an echoed password is logged as its marker. */
  #echo(data: string | Uint8Array): void {
    for (const { screen, log } of this.#display.echo(data)) {
      if (log) this.#logInstead.set(screen, log);
      this.#deliver(screen);
    }
  }

  #receive(received: Uint8Array): void {
    this.#deliver(this.#display.received(received));
  }

  /** Hands bytes to the renderer within the flow-control window; the rest waits for acknowledgements. */
  #deliver(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#pending.push(chunk);
    this.#flushPending();
  }

  /**
   * Hands over every byte still waiting, whatever the window (nothing is lost), then forgets every unacknowledged
   * byte: what an earlier screen owed must never keep a reopened port unread. Does nothing to a fresh session.
   */
  #startFlowAfresh(): void {
    if (this.listenerCount('data') > 0) {
      for (const chunk of this.#pending.splice(0)) {
        this.log?.append(this.#logInstead.get(chunk) ?? chunk);
        this.emit('data', chunk);
      }
    }
    this.flow.reset();
  }

  #flushPending(): void {
    if (this.listenerCount('data') === 0) return;
    while (this.#pending.length > 0 && this.flow.available > 0) {
      const head = this.#pending[0]!;
      const size = Math.min(head.length, this.flow.available);
      const piece = head.subarray(0, size);
      const logInstead = this.#logInstead.get(head);
      if (size === head.length) this.#pending.shift();
      else {
        this.#pending[0] = head.subarray(size);
        if (logInstead) this.#logInstead.set(this.#pending[0], new Uint8Array(0));
      }
      this.handOver(piece, logInstead ?? piece);
    }
    if (this.#pending.length === 0 && !this.flow.isPaused) this.#wakeReader?.();
  }

  #writeToPort(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 0) return this.#writes;
    const port = this.#port;
    this.#writes = this.#writes.then(async () => {
      if (!port?.isOpen || this.#port !== port) return;
      try {
        await port.write(Buffer.from(bytes));
        this.countOut(bytes.length);
      } catch {
        // A failed write means the line is gone; the read loop notices and reconnects.
      }
    });
    return this.#writes;
  }

  async #handleDisconnect(port: BindingPortInterface, error: unknown): Promise<void> {
    const stopCount = this.#stopCount;
    const isStopped = () => this.#stopCount !== stopCount;
    this.#port = undefined;
    if (port.isOpen) await port.close().catch(() => {});
    if (isStopped()) return;
    const reason = describeDisconnect(this.path, error);
    if (!this.options.autoReconnect) {
      this.setState('failed', reason);
      await this.log?.close();
      return;
    }
    this.setState('reconnecting', reason);
    const found = await searchForAdapter(
      {
        identity: () => this.#identity,
        listPorts: () => this.#dependencies.binding.list(),
        now: () => this.#dependencies.clock.now(),
        policy: this.#reconnect,
        wait: (milliseconds) => this.#wait(milliseconds),
        isStopped,
        open: async (path) => {
          await this.#openPort(path, stopCount);
          this.setState('open', t('terminals:serialReconnectedOn', { path }));
          this.#startReading();
        },
        describeOpenError,
      },
      reason,
    );
    if (found.outcome !== 'gave-up') return;
    this.setState('failed', t('terminals:serialGaveUp', { reason: found.lastFailure }));
    await this.log?.close();
  }

  /** Waits, or less if the session closes meanwhile. */
  #wait(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        this.#dependencies.clock.clearTimeout(timer);
        this.#cancelWaits.delete(finish);
        resolve();
      };
      const timer = this.#dependencies.clock.setTimeout(finish, milliseconds);
      this.#cancelWaits.add(finish);
    });
  }

  /** Not reading is the pause: the read loop waits while flow control is paused. */
  protected override pauseProducer(): void {}

  protected override resumeProducer(): void {
    this.#flushPending();
  }
}
