import { StringDecoder } from 'node:string_decoder';
import type { ClientChannel } from 'ssh2';
import { TerminalSessionBase, type SessionLog } from '../terminal-core';
import { LineTimestamper } from '../terminal-core/line-timestamps';
import type { HostKeyVerdict } from './known-hosts';
import { RECEIVE_WINDOW_MAX_BYTES, ReceiveWindow } from './receive-window';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/**
 * SSH pauses its channel above this many unacknowledged bytes: a safety net under the ReceiveWindow, which keeps
 * the gateway within its window (at most this size), so it acts only if ssh2's internals ever change under it.
 */
export const SSH_HIGH_WATERMARK_DEFAULT = RECEIVE_WINDOW_MAX_BYTES;
/** SSH resumes its channel at or below this many unacknowledged bytes. */
export const SSH_LOW_WATERMARK_DEFAULT = RECEIVE_WINDOW_MAX_BYTES / 2;

/** One live SSH link: the shell channel and a way to tear down every client under it. */
export interface SshLink {
  channel: ClientChannel;
  /** Host keys checked while connecting, relay first. */
  hostKeys: HostKeyVerdict[];
  /** Resolves when the link ends by itself: the remote shell exited, or the link dropped (with a reason). */
  lost: Promise<SshLinkEnd>;
  /** Ends every client of the link; idempotent. */
  end(): void;
}

/** How a link ended without the user closing it. */
export interface SshLinkEnd {
  reason: string;
  /** True when the remote shell exited (`exit`, `reboot`): the session closes instead of failing. */
  isRemoteExit: boolean;
}

/**
 * The session was closed while it was connecting: the connect flow stopped at its next step (SshSession.open()
 * rejects with it; a reconnect the user cut short by closing simply ends).
 */
export class SessionClosedError extends Error {
  override readonly name = 'SessionClosedError';

  constructor(message = t('terminals:closedWhileConnecting')) {
    super(message);
  }
}

/** What a reconnect may change: a new password when the gateway refused the one the session had. */
export interface SshRetry {
  /** Reverse: the gateway's root password; direct: the user's password. Kept for later reconnects. */
  password?: string;
}

/** How an SshSession (re)connects and what it does when it closes. */
export interface SshSessionOptions {
  kind: 'reverse' | 'direct';
  title: string;
  gatewayId?: string;
  cols: number;
  rows: number;
  /**
   * Opens a fresh link with the terminal size; rejects with a message the user can act on. `signal` aborts when
   * the session closes meanwhile: the flow should stop at its next step (and start nothing it cannot take back).
   */
  connect(size: { cols: number; rows: number }, signal: AbortSignal, retry?: SshRetry): Promise<SshLink>;
  /**
   * Runs once when the session closes, by the user or by itself, after the link is down and any connect in flight
   * was told to stop (reverse: sends stopReverseSsh). A rejection becomes the session's `closeWarning`.
   */
  onClose?(): Promise<void>;
  /** Opens the session log, or says why none could be made (the session then runs without one). */
  openLog?(): Promise<{ log: SessionLog } | { problem: string }>;
  highWatermark?: number;
  lowWatermark?: number;
  /** Fixes the SSH receive window at this many bytes (default: it follows xterm's rate, see ReceiveWindow). */
  receiveWindowBytes?: number;
  /** Prefix each line shown (and logged, as serial does) with its local time `[HH:mm:ss.SSS] `. */
  timestamps?: boolean;
  /** The clock of the timestamps (tests). */
  clock?: Pick<Clock, 'now'>;
}

/** One 'data' chunk still waiting for its acknowledgement: bytes shown and the gateway's bytes behind them. */
interface ShownChunk {
  shown: number;
  received: number;
}

/**
 * A terminal over SSH (reverse through a relay, or direct). Emits 'data' with every byte of the
 * remote shell in order, pauses the SSH channel while the renderer has too much unacknowledged data,
 * goes to `failed` with a reason when the link drops, and can `reconnect()` from there. 'state' goes to `closed`
 * at once when it closes, and once more, with the warning in its reason, if the close hook then fails; 'closed'
 * follows when all is done.
 */
export class SshSession extends TerminalSessionBase {
  readonly kind = 'ssh' as const;
  readonly title: string;
  readonly gatewayId: string | undefined;
  #closeWarning: string | undefined;
  /** The close in progress or done: a second close() waits for the same one. */
  #closing: Promise<void> | undefined;
  /** Told to stop when the session closes while a connect is in flight. */
  #connectAttempt: AbortController | undefined;
  #size: { cols: number; rows: number };
  #link: SshLink | undefined;
  #window: ReceiveWindow | undefined;
  #hostKeys: HostKeyVerdict[] = [];
  #timestamper: LineTimestamper | undefined;
  #decoder: StringDecoder | undefined;
  /** With timestamps, what each unacknowledged chunk received, so the receive window is paced in the gateway's bytes. */
  #shownChunks: ShownChunk[] = [];
  readonly #options: SshSessionOptions;

  constructor(options: SshSessionOptions) {
    super(
      {
        highWatermark: options.highWatermark ?? SSH_HIGH_WATERMARK_DEFAULT,
        lowWatermark: options.lowWatermark ?? SSH_LOW_WATERMARK_DEFAULT,
      },
      options.timestamps ? undefined : (options.clock ?? SYSTEM_CLOCK),
    );
    this.#options = options;
    this.title = options.title;
    this.gatewayId = options.gatewayId;
    this.#size = { cols: options.cols, rows: options.rows };
  }

  /** Why the session failed or closed, in words for the user. */
  get reason(): string | undefined {
    return this.stateReason;
  }

  /** How it reaches the gateway: through the relay's reverse tunnel, or directly. */
  get route(): 'reverse' | 'direct' {
    return this.#options.kind;
  }

  /**
   * Set once closed when the close hook failed: the gateway did not confirm its tunnel was stopped (the reason
   * says so too). Undefined while open and after a clean close.
   */
  get closeWarning(): string | undefined {
    return this.#closeWarning;
  }

  /** Host keys checked on the last connect (relay, then gateway); `isNew` ones were trusted on first use. */
  get hostKeys(): readonly HostKeyVerdict[] {
    return this.#hostKeys;
  }

  /**
   * Connects for the first time; resolves once the shell is open, rejects (state `failed`) otherwise, or with
   * SessionClosedError when the session was closed before it opened.
   */
  async open(): Promise<void> {
    this.useLog(await this.#options.openLog?.());
    await this.#connect('connecting');
  }

  /**
   * Connects again after a failure (a new tunnel if the old one is gone); resolves once open, or once the session
   * was closed meanwhile (the user gave up on it: nothing to report); rejects (state `failed`) otherwise.
   */
  async reconnect(retry: SshRetry = {}): Promise<void> {
    if (this.state === 'closed') throw new Error(t('terminals:sessionClosedOpenNew'));
    if (this.state === 'open' || this.state === 'connecting' || this.state === 'reconnecting') return;
    try {
      await this.#connect('reconnecting', retry);
    } catch (error) {
      if (!(error instanceof SessionClosedError)) throw error;
    }
  }

  /** Sends keystrokes or pasted text to the remote shell; ignored unless the session is open. */
  write(data: string | Uint8Array): void {
    if (this.state !== 'open' || !this.#link) return;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    this.countOut(bytes.length);
    this.#link.channel.write(bytes);
  }

  /** Follows the terminal size (SSH window-change); kept for reconnects. */
  resize(cols: number, rows: number): void {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1) return;
    this.#size = { cols, rows };
    if (this.state === 'open') this.#link?.channel.setWindow(rows, cols, 0, 0);
  }

  /**
   * The renderer wrote `byteCount` bytes of 'data' (xterm's write callback): may resume a paused channel. Counted
   * in bytes shown (stamps included) for the watermarks, and in the gateway's bytes for the receive window.
   */
  override acknowledge(byteCount: number): void {
    super.acknowledge(byteCount);
    // The stamped chunks are consumed even with no window to tell (link down, or ssh2 not steerable), so that what
    // is left of them always matches the bytes still unacknowledged.
    const received = this.#timestamper ? this.#receivedBehind(byteCount) : byteCount;
    this.#window?.acknowledged(received);
  }

  /**
   * Ends the shell and the link, stops a connect in flight, runs the close hook (stopReverseSsh) and closes the
   * log; resolves when all of that is done (a second call waits for the same close). Never rejects: a failed
   * hook is kept in `closeWarning`. `reason`: why it closed, when not at the user's asking (sign-out).
   */
  close(reason = t('terminals:closedByUser')): Promise<void> {
    // A session that failed keeps saying why, so closing it after a failed open does not hide the cause.
    return this.#finish(this.state === 'failed' && this.stateReason ? this.stateReason : reason);
  }

  #finish(reason: string): Promise<void> {
    this.#closing ??= this.#close(reason);
    return this.#closing;
  }

  async #close(reason: string): Promise<void> {
    const link = this.#link;
    this.#link = undefined;
    this.#dropWindow();
    this.setState('closed', reason);
    this.#connectAttempt?.abort();
    link?.end();
    try {
      await this.#options.onClose?.();
    } catch (error) {
      this.#closeWarning = t('terminals:tunnelStopUnconfirmed', { reason: (error as Error).message });
      // Said again, so whoever shows the closed session shows the warning too.
      this.setState('closed', `${asSentence(reason)} ${this.#closeWarning}`);
    }
    await this.log?.close();
    this.emit('closed');
  }

  async #connect(state: 'connecting' | 'reconnecting', retry: SshRetry = {}): Promise<void> {
    this.setState(state);
    this.flow.reset();
    const attempt = new AbortController();
    this.#connectAttempt = attempt;
    const connecting = this.#options.connect(this.#size, attempt.signal, retry);
    // Closing ends the wait at once; a link the connect still brings is ended.
    const closed = new Promise<never>((_resolve, reject) =>
      attempt.signal.addEventListener(
        'abort',
        () => {
          connecting.then(
            (late) => late.end(),
            () => undefined,
          );
          reject(new SessionClosedError());
        },
        { once: true },
      ),
    );
    let link: SshLink;
    try {
      link = await Promise.race([connecting, closed]);
    } catch (error) {
      if (this.state === 'closed') throw new SessionClosedError();
      this.setState('failed', (error as Error).message);
      throw error;
    } finally {
      if (this.#connectAttempt === attempt) this.#connectAttempt = undefined;
    }
    if (this.state === 'closed') {
      link.end();
      throw new SessionClosedError();
    }
    this.#link = link;
    this.#hostKeys = link.hostKeys;
    this.#attach(link);
    this.setState('open');
  }

  #attach(link: SshLink): void {
    this.#dropWindow();
    this.#window = ReceiveWindow.attach(link.channel, this.#options.receiveWindowBytes ?? {});
    // Each link starts at a line start, with no half character left from the last one.
    this.#shownChunks = [];
    this.#timestamper = this.#options.timestamps ? new LineTimestamper(this.#options.clock) : undefined;
    this.#decoder = this.#options.timestamps ? new StringDecoder('utf8') : undefined;
    const onData = (chunk: Buffer) => {
      if (this.#link !== link) return;
      this.countIn(chunk.length);
      const shown = this.#timestamper
        ? Buffer.from(this.#timestamper.stamp(this.#decoder!.write(chunk)))
        : chunk;
      if (this.#timestamper) this.#shownChunks.push({ shown: shown.length, received: chunk.length });
      if (shown.length === 0) return;
      this.handOver(shown);
    };
    link.channel.on('data', onData);
    link.channel.stderr.on('data', onData);
    void link.lost.then(async (end) => {
      if (this.#link !== link || this.state === 'closed') return;
      if (end.isRemoteExit) {
        await this.#finish(end.reason);
        return;
      }
      this.#link = undefined;
      this.#dropWindow();
      link.end();
      this.setState('failed', end.reason);
    });
  }

  /** The gateway's bytes behind `shownBytes` more acknowledged bytes of stamped output. */
  #receivedBehind(shownBytes: number): number {
    let left = shownBytes;
    let received = 0;
    while (this.#shownChunks.length > 0) {
      const head = this.#shownChunks[0]!;
      if (head.shown <= left) {
        // Whole chunks, including ones that showed nothing (half a UTF-8 character waiting for the rest).
        left -= head.shown;
        received += head.received;
        this.#shownChunks.shift();
        continue;
      }
      if (left === 0) break;
      const part = Math.floor((head.received * left) / head.shown);
      head.shown -= left;
      head.received -= part;
      received += part;
      break;
    }
    return received;
  }

  #dropWindow(): void {
    this.#window?.detach();
    this.#window = undefined;
  }

  protected override pauseProducer(): void {
    this.#link?.channel.pause();
  }

  protected override resumeProducer(): void {
    this.#link?.channel.resume();
  }
}

/** `text` ending with a full stop, so a second sentence can follow it. */
function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
