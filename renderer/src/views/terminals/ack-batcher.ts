/** Acknowledge at least this many written bytes at once while more writes are queued (DESIGN §6). */
export const ACK_BATCH_BYTES = 8_192;

/**
 * Batches acknowledgements of bytes the terminal has finished writing. Guarantees: every byte handed to
 * `written` is acknowledged exactly once; while writes are still queued, acknowledgements go out in batches of at
 * least ACK_BATCH_BYTES; when the queue drains everything left is acknowledged at once, so main's unacknowledged
 * count never sits above its low watermark while the terminal is idle.
 */
export class AckBatcher {
  #queuedWrites = 0;
  #unsent = 0;

  constructor(
    private readonly send: (bytes: number) => void,
    private readonly batchBytes: number = ACK_BATCH_BYTES,
  ) {}

  /** A write of output was handed to the terminal (call before `term.write`). */
  queued(): void {
    this.#queuedWrites += 1;
  }

  /** The terminal finished writing `bytes` of output (call from `term.write`'s callback). */
  written(bytes: number): void {
    this.#queuedWrites = Math.max(0, this.#queuedWrites - 1);
    this.#unsent += bytes;
    if (this.#unsent >= this.batchBytes || this.#queuedWrites === 0) this.flush();
  }

  /** Sends whatever is not yet acknowledged. */
  flush(): void {
    if (this.#unsent === 0) return;
    const bytes = this.#unsent;
    this.#unsent = 0;
    this.send(bytes);
  }
}
