import type { ClientChannel } from 'ssh2';

/**
 * Bytes of shell output that may be on their way from the gateway or waiting for xterm at any time (after the
 * first 2 MB, see ReceiveWindow). A keystroke's echo queues behind at most this much: 1 MB drains in about 70 ms
 * at xterm's DOM-renderer rate, while leaving room for the acknowledgement round trip at full speed.
 */
export const RECEIVE_WINDOW_BYTES_DEFAULT = 1_000_000;

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
 * Guarantees: no byte is dropped or reordered (only the SSH peer's sending is paced); every adjustment ssh2 made
 * is eventually sent once the renderer catches up; `detach()` sends what is still held and stops steering.
 */
export class ReceiveWindow {
  readonly windowBytes: number;
  readonly #channel: ChannelInternals;
  readonly #steering: Steering;
  /** Adjustments ssh2 asked to send and this held back. */
  #withheld = 0;
  /** Bytes the peer was allowed to send (its window at attach, plus every adjustment sent since). */
  #granted: number;
  /** Bytes the renderer has acknowledged since attach. */
  #acknowledged = 0;
  #isAttached = true;

  private constructor(channel: ChannelInternals, steering: Steering, windowBytes: number) {
    this.#channel = channel;
    this.#steering = steering;
    this.windowBytes = windowBytes;
    this.#granted = channel.incoming.window;
  }

  /**
   * Starts steering `channel`'s window; returns undefined (and changes nothing) when ssh2's internals are not
   * the ones this was written for, in which case the session keeps plain pause/resume flow control.
   */
  static attach(
    channel: ClientChannel,
    windowBytes: number = RECEIVE_WINDOW_BYTES_DEFAULT,
  ): ReceiveWindow | undefined {
    if (!Number.isInteger(windowBytes) || windowBytes < MIN_GRANT_BYTES) {
      throw new RangeError(
        `windowBytes must be an integer of at least ${MIN_GRANT_BYTES}, got ${windowBytes}`,
      );
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
    const window = new ReceiveWindow(internals, steering, windowBytes);
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

  #release(): void {
    if (!this.#isAttached || this.#withheld === 0) return;
    // Counted from grants, not from bytes seen: bytes ssh2 holds in a paused stream are outstanding too.
    const room = this.windowBytes - this.outstanding;
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
