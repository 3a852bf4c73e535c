/**
 * Default pause threshold in unacknowledged bytes. Larger than VS Code's 100k/5k chars, whose acknowledgements
 * cross one in-process IPC hop: ours also cross a WebSocket and a page busy drawing, and too little in flight
 * starves xterm (docs/adr/0004-terminal-flow-control.md). At real serial baud rates neither figure is ever reached.
 */
export const HIGH_WATERMARK_DEFAULT = 1_000_000;
/** Default resume threshold in unacknowledged bytes. */
export const LOW_WATERMARK_DEFAULT = 500_000;

/** What a FlowController needs: how to stop and restart the producer, and where to do it. */
export interface FlowControllerOptions {
  pause(): void;
  resume(): void;
  highWatermark?: number;
  lowWatermark?: number;
}

/**
 * Pauses a producer when the renderer falls behind (ADR 0004; the default watermarks say why they are larger than
 * VS Code's).
 * Guarantees: `pause()` is called once when unacknowledged bytes reach the high watermark, `resume()` once when
 * they fall to the low watermark or below; the two always alternate, starting with `pause()`.
 */
export class FlowController {
  readonly highWatermark: number;
  readonly lowWatermark: number;
  #unacknowledged = 0;
  #isPaused = false;
  readonly #pause: () => void;
  readonly #resume: () => void;

  constructor(options: FlowControllerOptions) {
    this.highWatermark = options.highWatermark ?? HIGH_WATERMARK_DEFAULT;
    this.lowWatermark = options.lowWatermark ?? LOW_WATERMARK_DEFAULT;
    if (!Number.isInteger(this.highWatermark) || this.highWatermark < 1) {
      throw new RangeError(`highWatermark must be a positive integer, got ${this.highWatermark}`);
    }
    if (
      !Number.isInteger(this.lowWatermark) ||
      this.lowWatermark < 0 ||
      this.lowWatermark >= this.highWatermark
    ) {
      throw new RangeError(
        `lowWatermark must be an integer from 0 to below highWatermark (${this.highWatermark}), got ${this.lowWatermark}`,
      );
    }
    this.#pause = options.pause;
    this.#resume = options.resume;
  }

  /** Bytes handed to the renderer and not yet acknowledged. */
  get unacknowledged(): number {
    return this.#unacknowledged;
  }

  /** True between a `pause()` and the following `resume()`. */
  get isPaused(): boolean {
    return this.#isPaused;
  }

  /** Bytes that may still be sent before the high watermark is reached (never negative). */
  get available(): number {
    return Math.max(0, this.highWatermark - this.#unacknowledged);
  }

  /** Records bytes handed to the renderer; pauses the producer at the high watermark. */
  sent(byteCount: number): void {
    assertByteCount(byteCount);
    this.#unacknowledged += byteCount;
    if (!this.#isPaused && this.#unacknowledged >= this.highWatermark) {
      this.#isPaused = true;
      this.#pause();
    }
  }

  /** Records bytes the renderer reports written; resumes the producer at the low watermark. */
  acknowledged(byteCount: number): void {
    assertByteCount(byteCount);
    // A renderer that acknowledges more than it was sent (a reload, a bug) must not bank credit.
    this.#unacknowledged = Math.max(0, this.#unacknowledged - byteCount);
    if (this.#isPaused && this.#unacknowledged <= this.lowWatermark) {
      this.#isPaused = false;
      this.#resume();
    }
  }

  /** Forgets every unacknowledged byte (the renderer went away or the session restarted) and resumes. */
  reset(): void {
    this.#unacknowledged = 0;
    if (this.#isPaused) {
      this.#isPaused = false;
      this.#resume();
    }
  }
}

function assertByteCount(byteCount: number): void {
  if (!Number.isSafeInteger(byteCount) || byteCount < 0) {
    throw new RangeError(`byte count must be a non-negative integer, got ${byteCount}`);
  }
}
