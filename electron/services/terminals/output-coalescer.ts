/**
 * Coalesced output is sent in events of at most this many bytes: under the 131,000 bytes Chromium's network
 * process can hand a page's WebSocket at a time. A larger message is read in two or more parts, the page's main
 * thread waiting in between for the network process to refill while xterm has nothing to write (figures:
 * docs/benchmarks.md, experiments kept; docs/adr/0004-terminal-flow-control.md).
 */
export const DATA_EVENT_MAX_BYTES = 120 * 1024;
/**
 * While output streams, a session's data events are at least this far apart (one a display frame; output arriving
 * in between is coalesced); after a quiet spell the next output goes out on the next tick, so an echo is not
 * delayed. A serial port reads a few kB at a time, and each event costs the page a message, an xterm write, a
 * frame and an acknowledgement.
 */
export const DATA_EVENT_INTERVAL_MS = 16;
/**
 * The most recent output of each session kept for a page that starts over (a reload, a new window): its screen is
 * drawn again from these bytes rather than staying black until the gateway next prints something. Several screens
 * and a good part of a scrollback, at most this much memory per session.
 */
export const REPLAY_MAX_BYTES = 256 * 1024;
/** A replay cut at REPLAY_MAX_BYTES starts after the first line break within this many bytes (a whole line). */
const REPLAY_LINE_SEARCH_BYTES = 4 * 1024;

/** What an OutputCoalescer needs: where events go, and how it waits and tells time. */
export interface OutputCoalescerOptions {
  /** Sends one coalesced event of at most DATA_EVENT_MAX_BYTES (a copy no one else writes to). */
  emit(data: Uint8Array<ArrayBuffer>): void;
  /** Runs `callback` after `delayMs` (0: soon, after the current I/O). */
  schedule(callback: () => void, delayMs: number): void;
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

/**
 * One session's output on its way to the page: chunks are gathered into events of at most DATA_EVENT_MAX_BYTES,
 * at most one per DATA_EVENT_INTERVAL_MS while output streams, every byte once and in order; the last
 * REPLAY_MAX_BYTES sent are kept for a page that starts over.
 */
export class OutputCoalescer {
  readonly #options: OutputCoalescerOptions;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #isFlushScheduled = false;
  #lastFlushAt = Number.NEGATIVE_INFINITY;
  /** Output already sent, newest last, at most REPLAY_MAX_BYTES (plus the part of one chunk cut at replay). */
  #recent: Uint8Array[] = [];
  #recentBytes = 0;

  constructor(options: OutputCoalescerOptions) {
    this.#options = options;
  }

  /** How many bytes of output were sent and are kept for a replay. */
  get recentBytes(): number {
    return this.#recentBytes;
  }

  /** Takes a chunk of output: sent at once when it fills an event, else on the next scheduled flush. */
  push(chunk: Uint8Array): void {
    // Events are filled up to DATA_EVENT_MAX_BYTES and never past it: a chunk that does not fit is split (views of
    // it, not copies).
    let rest = chunk;
    while (rest.byteLength > 0) {
      const part = rest.subarray(0, DATA_EVENT_MAX_BYTES - this.#pendingBytes);
      rest = rest.subarray(part.byteLength);
      this.#pending.push(part);
      this.#pendingBytes += part.byteLength;
      if (this.#pendingBytes === DATA_EVENT_MAX_BYTES) this.flush();
    }
    if (this.#pendingBytes > 0) this.#scheduleFlush();
  }

  /** Sends what is pending now (before a state change, a close or a replay); nothing when nothing is. */
  flush(): void {
    if (this.#pendingBytes === 0) return;
    const data = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#lastFlushAt = this.#options.now();
    this.#keepRecent(data);
    this.#options.emit(data);
  }

  /** The last REPLAY_MAX_BYTES of the output sent, starting after a line break when one is near the cut. */
  replay(): Uint8Array {
    const all = Buffer.concat(this.#recent, this.#recentBytes);
    if (all.byteLength <= REPLAY_MAX_BYTES) return all;
    const tail = all.subarray(all.byteLength - REPLAY_MAX_BYTES);
    const lineEnd = tail.subarray(0, REPLAY_LINE_SEARCH_BYTES).indexOf(0x0a);
    return lineEnd === -1 ? tail : tail.subarray(lineEnd + 1);
  }

  /**
   * Sends what is pending once DATA_EVENT_INTERVAL_MS has passed since the last event, with one timer at a time.
   * The timer checks the clock when it fires: a full event may have gone out since it was set (and Node counts a
   * timer from the event loop's cached time, so one set late in a busy iteration fires early). A second timer
   * beside the first would send a flood in many small events (docs/benchmarks.md, experiments kept).
   */
  #scheduleFlush(): void {
    if (this.#isFlushScheduled) return;
    this.#isFlushScheduled = true;
    const wait = Math.max(0, this.#lastFlushAt + DATA_EVENT_INTERVAL_MS - this.#options.now());
    this.#options.schedule(() => {
      this.#isFlushScheduled = false;
      if (this.#pendingBytes === 0) return;
      if (this.#options.now() < this.#lastFlushAt + DATA_EVENT_INTERVAL_MS) this.#scheduleFlush();
      else this.flush();
    }, Math.ceil(wait));
  }

  /** Keeps `data` (a copy no one else writes to) as the newest output, dropping whole old chunks past the limit. */
  #keepRecent(data: Uint8Array): void {
    this.#recent.push(data);
    this.#recentBytes += data.byteLength;
    while (this.#recent.length > 1 && this.#recentBytes - this.#recent[0]!.byteLength >= REPLAY_MAX_BYTES) {
      this.#recentBytes -= this.#recent.shift()!.byteLength;
    }
  }
}
