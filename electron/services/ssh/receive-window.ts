import type { ClientChannel } from 'ssh2';

/**
 * How long a keystroke's echo may wait behind output already on its way (ReceiveWindow sizes the window for it):
 * the window follows the rate at which xterm writes, times this.
 */
export const ECHO_DELAY_TARGET_MS = 100;
/** The window never shrinks below this (a slow page still gets a steady stream). */
export const RECEIVE_WINDOW_MIN_BYTES = 512 * 1024;
/** The window never grows above this (4 MB is xterm's work for a fifth of a second on a fast machine). */
export const RECEIVE_WINDOW_MAX_BYTES = 4 * 1024 * 1024;

/** How the receive window is sized: a fixed size, or (default) following xterm's rate. */
export type ReceiveWindowSizing =
  | { fixedBytes: number }
  | { echoDelayTargetMs?: number; minBytes?: number; maxBytes?: number; now?: () => number };

/** Acknowledgements over this span give the rate xterm writes at. */
const RATE_SPAN_MS = 500;

/** Window adjustments smaller than this wait for more acknowledgements (fewer, larger SSH packets). */
const MIN_GRANT_BYTES = 32 * 1024;

// The parts of ssh2's channel and protocol this module steers; not in ssh2's public types (ssh2 1.x keeps
// them in lib/Channel.js and lib/protocol/Protocol.js).
interface ChannelInternals {
  incoming: { window: number };
  outgoing: { id: number };
  _client?: { _protocol?: ProtocolInternals };
}
interface ProtocolInternals {
  channelWindowAdjust(recipientId: number, amount: number): void;
}

/** Per ssh2 connection: its original window-adjust sender and the windows steered on it, by recipient id. */
interface Steering {
  send(recipientId: number, amount: number): void;
  windows: Map<number, ReceiveWindow>;
}

const steeringByProtocol = new WeakMap<ProtocolInternals, Steering>();

/**
 * Ties an SSH channel's receive window to what the renderer has acknowledged, so that the gateway may send at
 * most `windowBytes` beyond the last byte xterm has written. ssh2 always offers a fixed 2 MB window and tops it
 * up as soon as data is read, which lets megabytes of a flood queue ahead of every keystroke's echo; here its
 * window adjustments are held back and passed on only as acknowledgements come in. (The first 2 MB, offered when
 * the channel opened, cannot be taken back.)
 *
 * The size follows xterm: while the window is what limits the flow, it becomes the rate acknowledgements came in
 * over the last half second times ECHO_DELAY_TARGET_MS (within RECEIVE_WINDOW_MIN_BYTES–MAX). Too small a window
 * starves xterm between round trips — and xterm drawing a frame per small write costs it twice the CPU of working
 * through a backlog — while too large a one queues seconds of output ahead of an echo.
 *
 * Guarantees: no byte is dropped or reordered (only the SSH peer's sending is paced); every adjustment ssh2 made
 * is eventually sent once the renderer catches up; `detach()` sends what is still held and stops steering.
 */
export class ReceiveWindow {
  #windowBytes: number;
  readonly #sizing: Required<Exclude<ReceiveWindowSizing, { fixedBytes: number }>> | undefined;
  /** Recent acknowledgements (time, bytes), for the rate. */
  readonly #recentAcknowledgements: Array<{ at: number; bytes: number }> = [];
  /** When the window last limited the flow (outstanding bytes at its size). */
  #limitedAt = Number.NEGATIVE_INFINITY;
  readonly #channel: ChannelInternals;
  readonly #steering: Steering;
  /** Adjustments ssh2 asked to send and this held back. */
  #withheld = 0;
  /** Bytes the peer was allowed to send (its window at attach, plus every adjustment sent since). */
  #granted: number;
  /** Bytes the renderer has acknowledged since attach. */
  #acknowledged = 0;
  #isAttached = true;

  private constructor(channel: ChannelInternals, steering: Steering, sizing: ReceiveWindowSizing) {
    this.#channel = channel;
    this.#steering = steering;
    this.#granted = channel.incoming.window;
    if ('fixedBytes' in sizing) {
      this.#windowBytes = sizing.fixedBytes;
      this.#sizing = undefined;
    } else {
      this.#sizing = {
        echoDelayTargetMs: sizing.echoDelayTargetMs ?? ECHO_DELAY_TARGET_MS,
        minBytes: sizing.minBytes ?? RECEIVE_WINDOW_MIN_BYTES,
        maxBytes: sizing.maxBytes ?? RECEIVE_WINDOW_MAX_BYTES,
        now: sizing.now ?? (() => performance.now()),
      };
      this.#windowBytes = this.#sizing.minBytes;
    }
  }

  /** Bytes the gateway may have on their way or waiting for xterm (after the first 2 MB). */
  get windowBytes(): number {
    return this.#windowBytes;
  }

  /**
   * Starts steering `channel`'s window; returns undefined (and changes nothing) when ssh2's internals are not
   * the ones this was written for, in which case the session keeps plain pause/resume flow control.
   */
  static attach(
    channel: ClientChannel,
    sizingOrBytes: ReceiveWindowSizing | number = {},
  ): ReceiveWindow | undefined {
    const sizing = typeof sizingOrBytes === 'number' ? { fixedBytes: sizingOrBytes } : sizingOrBytes;
    const sizes = 'fixedBytes' in sizing ? [sizing.fixedBytes] : [sizing.minBytes, sizing.maxBytes];
    for (const bytes of sizes) {
      if (bytes !== undefined && (!Number.isInteger(bytes) || bytes < MIN_GRANT_BYTES)) {
        throw new RangeError(`window sizes must be integers of at least ${MIN_GRANT_BYTES}, got ${bytes}`);
      }
    }
    const internals = channel as unknown as ChannelInternals;
    const protocol = internals._client?._protocol;
    if (
      typeof internals.incoming?.window !== 'number' ||
      typeof internals.outgoing?.id !== 'number' ||
      typeof protocol?.channelWindowAdjust !== 'function'
    ) {
      return undefined;
    }
    let steering = steeringByProtocol.get(protocol);
    if (!steering) {
      const created: Steering = { send: protocol.channelWindowAdjust.bind(protocol), windows: new Map() };
      protocol.channelWindowAdjust = (recipientId, amount) => {
        const window = created.windows.get(recipientId);
        if (window) window.#withhold(amount);
        else created.send(recipientId, amount);
      };
      steeringByProtocol.set(protocol, created);
      steering = created;
    }
    const window = new ReceiveWindow(internals, steering, sizing);
    steering.windows.set(internals.outgoing.id, window);
    return window;
  }

  /** Bytes the gateway may still send before it must wait for a window adjustment. */
  get peerWindow(): number {
    return this.#channel.incoming.window - this.#withheld;
  }

  /** Bytes allowed and not yet acknowledged: on their way, in ssh2's buffer, or waiting for xterm. */
  get outstanding(): number {
    return Math.max(0, this.#granted - this.#acknowledged);
  }

  /** The renderer wrote `byteCount` bytes: the gateway may send that much more. */
  acknowledged(byteCount: number): void {
    this.#acknowledged += byteCount;
    this.#resize(byteCount);
    this.#release();
  }

  /** Sends every held adjustment and stops steering (the renderer went away; the channel is closing). */
  detach(): void {
    if (!this.#isAttached) return;
    this.#isAttached = false;
    this.#steering.windows.delete(this.#channel.outgoing.id);
    this.#grant(this.#withheld);
  }

  #withhold(amount: number): void {
    this.#withheld += amount;
    this.#release();
  }

  #resize(acknowledgedBytes: number): void {
    const sizing = this.#sizing;
    if (!sizing) return;
    const now = sizing.now();
    const recent = this.#recentAcknowledgements;
    recent.push({ at: now, bytes: acknowledgedBytes });
    while (recent.length > 1 && recent[0]!.at < now - RATE_SPAN_MS) recent.shift();
    // Only a window that held the flow back says anything about the rate it should allow.
    if (now - this.#limitedAt > RATE_SPAN_MS || recent.length < 2) return;
    const spanMs = now - recent[0]!.at;
    if (spanMs < RATE_SPAN_MS / 4) return;
    const bytes = recent.reduce((sum, entry) => sum + entry.bytes, 0) - recent[0]!.bytes;
    const wanted = (bytes / spanMs) * sizing.echoDelayTargetMs;
    this.#windowBytes = Math.round(Math.min(sizing.maxBytes, Math.max(sizing.minBytes, wanted)));
  }

  #release(): void {
    if (!this.#isAttached || this.#withheld === 0) return;
    // Counted from grants, not from bytes seen: bytes ssh2 holds in a paused stream are outstanding too.
    const room = this.#windowBytes - this.outstanding;
    if (room < MIN_GRANT_BYTES && this.#sizing) this.#limitedAt = this.#sizing.now();
    const grant = Math.min(this.#withheld, room);
    if (grant >= Math.min(this.#withheld, MIN_GRANT_BYTES)) this.#grant(grant);
  }

  #grant(amount: number): void {
    if (amount <= 0) return;
    this.#withheld -= amount;
    this.#granted += amount;
    this.#steering.send(this.#channel.outgoing.id, amount);
  }
}
