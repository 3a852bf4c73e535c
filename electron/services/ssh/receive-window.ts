import type { ClientChannel } from 'ssh2';

/**
 * How long output may take from the moment the gateway is allowed to send it to xterm having written it — so, how
 * long a keystroke's echo waits behind a flood. ReceiveWindow sizes the window to hold it there. It must span a
 * few round trips of a flood, so the window still keeps xterm fed (why this value:
 * docs/adr/0002-ssh2-window-steering.md).
 */
export const ECHO_DELAY_TARGET_MS = 60;
/**
 * The window never shrinks below this (a slow page still gets a steady stream). Twice the renderer's acknowledgement
 * batch (ACK_BATCH_BYTES), so that the gateway still has half the window to send while one is on its way.
 */
export const RECEIVE_WINDOW_MIN_BYTES = 1024 * 1024;
/** The window never grows above this, a fraction of a second of xterm's work (see ECHO_DELAY_TARGET_MS). */
export const RECEIVE_WINDOW_MAX_BYTES = 4 * 1024 * 1024;

/** How the receive window is sized: a fixed size, or (default) following the measured delay. */
export type ReceiveWindowSizing =
  | { fixedBytes: number }
  | { echoDelayTargetMs?: number; minBytes?: number; maxBytes?: number; now?: () => number };

/**
 * A window that held the flow back grows by this share of each acknowledgement that came in under the target: a
 * quarter a round trip, however the acknowledgements are sliced.
 */
const GROWTH_PER_ACKNOWLEDGED_BYTE = 0.25;
/** One cut never takes the window below this share of its size (the delay measured may be one spike). */
const DEEPEST_CUT = 0.5;
/** A window that has not held the flow back for this long is not resized (the gateway was the slow side). */
const LIMITED_SPAN_MS = 500;

/** Window adjustments smaller than this wait for more acknowledgements (fewer, larger SSH packets). */
const MIN_GRANT_BYTES = 32 * 1024;

// The parts of ssh2's channel and protocol this module steers; not in ssh2's public types (ssh2 1.x keeps
// them in lib/Channel.js and lib/protocol/Protocol.js). Why: docs/adr/0002-ssh2-window-steering.md.
interface ChannelInternals {
  incoming: { window: number; id?: number };
  outgoing: { id: number };
  _client?: { _protocol?: ProtocolInternals };
}
interface ProtocolInternals {
  channelWindowAdjust(recipientId: number, amount: number): void;
  session?(localId: number, initialWindow: number, maxPacket: number): void;
}
interface ClientInternals {
  _protocol?: ProtocolInternals;
}

/** The window a session channel really opened with, by its local id, when openWithSmallWindow shrank it. */
const initialWindows = new WeakMap<ProtocolInternals, Map<number, number>>();

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
 * window adjustments are held back and passed on only as acknowledgements come in. (The window a channel opened
 * with cannot be taken back: openWithSmallWindow makes it RECEIVE_WINDOW_MIN_BYTES rather than ssh2's 2 MB.)
 *
 * The size follows the delay: each acknowledgement says how long its bytes took from the grant that allowed them
 * to xterm's write callback. Under ECHO_DELAY_TARGET_MS a window that held the flow back grows by a quarter of
 * what was acknowledged (a quarter a round trip); over it the window is cut in proportion (target / delay, at most
 * by half), once a round trip: the acknowledgements that follow a cut measure the window before it, so cutting for
 * each of them would overshoot. The size stays within RECEIVE_WINDOW_MIN_BYTES–MAX. Too small a window starves
 * xterm between round trips (and a frame per small write costs xterm more than working through a backlog), while
 * too large a one queues seconds of output ahead of an echo. Why: docs/adr/0002-ssh2-window-steering.md.
 *
 * Guarantees: no byte is dropped or reordered (only the SSH peer's sending is paced); every adjustment ssh2 made
 * is eventually sent once the renderer catches up; `detach()` sends what is still held and stops steering.
 */
export class ReceiveWindow {
  #windowBytes: number;
  readonly #sizing: Required<Exclude<ReceiveWindowSizing, { fixedBytes: number }>> | undefined;
  /** Grants not yet fully acknowledged: the granted total they reached, and when they were sent. */
  readonly #grants: Array<{ upTo: number; at: number }> = [];
  /**
   * The granted total when the window was last cut: until the renderer acknowledges that far, the delays measured
   * are of bytes granted before the cut, and cutting again for them would overshoot.
   */
  #cutSettlesAt = 0;
  /** When the window last limited the flow (the gateway had used up what it was allowed). */
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

  private constructor(
    channel: ChannelInternals,
    steering: Steering,
    sizing: ReceiveWindowSizing,
    openedWith: number | undefined,
  ) {
    this.#channel = channel;
    this.#steering = steering;
    // ssh2 believes it offered its 2 MB; when the channel really opened with less, the rest is held back already.
    this.#granted = Math.min(channel.incoming.window, openedWith ?? Number.POSITIVE_INFINITY);
    this.#withheld = channel.incoming.window - this.#granted;
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

  /**
   * Runs `open` (a `client.shell(…)` or `client.exec(…)` call) so that the session channel it opens offers the
   * peer `initialBytes` instead of ssh2's fixed 2 MB; ReceiveWindow.attach on that channel then knows it. Without
   * it a flood's first 2 MB arrive at once, ahead of the first keystroke's echo — the Ctrl-C that stops it.
   * Opens normally when ssh2's internals are not the ones this was written for.
   */
  static openWithSmallWindow<T>(client: unknown, initialBytes: number, open: () => T): T {
    const protocol = (client as ClientInternals)._protocol;
    const session = protocol?.session;
    // Only with the window steering in place: ssh2 alone would wait for 1 MB that a smaller window never lets come.
    if (!protocol || typeof session !== 'function' || typeof protocol.channelWindowAdjust !== 'function') {
      return open();
    }
    protocol.session = (localId, initialWindow, maxPacket) => {
      const opened = Math.min(initialWindow, initialBytes);
      const windows = initialWindows.get(protocol) ?? new Map<number, number>();
      windows.set(localId, opened);
      initialWindows.set(protocol, windows);
      session.call(protocol, localId, opened, maxPacket);
    };
    try {
      return open();
    } finally {
      protocol.session = session;
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
    const localId = internals.incoming.id;
    const openedWith = localId === undefined ? undefined : initialWindows.get(protocol)?.get(localId);
    if (localId !== undefined) initialWindows.get(protocol)?.delete(localId);
    const window = new ReceiveWindow(internals, steering, sizing, openedWith);
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

  /** Bytes the peer has sent since attach (what it was allowed, less what it may still send). */
  get received(): number {
    return this.#granted - this.peerWindow;
  }

  /**
   * The renderer wrote `byteCount` bytes: the gateway may send that much more. Never counts more than the channel
   * has received: a surplus (two pages acknowledging the same output, or late acknowledgements of output already
   * written off) is dropped, so it never lets the gateway further ahead of xterm than the window.
   */
  acknowledged(byteCount: number): void {
    const counted = Math.max(0, Math.min(byteCount, this.received - this.#acknowledged));
    this.#acknowledged += counted;
    this.#resize(counted);
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

  #resize(byteCount: number): void {
    const sizing = this.#sizing;
    if (!sizing) return;
    const now = sizing.now();
    let delayMs: number | undefined;
    while (this.#grants.length > 0 && this.#grants[0]!.upTo <= this.#acknowledged) {
      delayMs = now - this.#grants.shift()!.at;
    }
    if (delayMs === undefined) return;
    if (delayMs > sizing.echoDelayTargetMs) {
      // Once a round trip, in proportion: every acknowledgement until then still measures the window before the cut.
      if (this.#acknowledged < this.#cutSettlesAt) return;
      const factor = Math.max(DEEPEST_CUT, sizing.echoDelayTargetMs / delayMs);
      this.#windowBytes = Math.max(sizing.minBytes, this.#windowBytes * factor);
      this.#cutSettlesAt = this.#granted;
    } else if (now - this.#limitedAt <= LIMITED_SPAN_MS) {
      this.#windowBytes = Math.min(
        sizing.maxBytes,
        this.#windowBytes + byteCount * GROWTH_PER_ACKNOWLEDGED_BYTE,
      );
    }
    this.#windowBytes = Math.round(this.#windowBytes);
  }

  #release(): void {
    if (!this.#isAttached) return;
    // Counted from grants, not from bytes seen: bytes ssh2 holds in a paused stream are outstanding too.
    const room = this.#windowBytes - this.outstanding;
    if (this.#withheld === 0) return;
    // The gateway had used up what it was allowed: the window, not the gateway, is setting the pace.
    if (this.#sizing && this.peerWindow < MIN_GRANT_BYTES) this.#limitedAt = this.#sizing.now();
    const grant = Math.min(this.#withheld, room);
    if (grant >= Math.min(this.#withheld, MIN_GRANT_BYTES)) this.#grant(grant);
  }

  #grant(amount: number): void {
    if (amount <= 0) return;
    this.#withheld -= amount;
    this.#granted += amount;
    if (this.#sizing) this.#grants.push({ upTo: this.#granted, at: this.#sizing.now() });
    this.#steering.send(this.#channel.outgoing.id, amount);
  }
}
