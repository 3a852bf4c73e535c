import type { Clock } from '../../../../electron/shared/clock';
import { appClock } from '../../lib/clock';

/**
 * Acknowledge at least this many written bytes at once while output streams. Each acknowledgement is a message to
 * main and, for SSH, a window adjustment through the relay to the gateway, so fewer and larger ones cost a flood
 * less (figures: docs/benchmarks.md, experiments kept). Half the smallest SSH receive window
 * (RECEIVE_WINDOW_MIN_BYTES), so the gateway still has the other half to send while one is on its way; a serial
 * port paused at its high watermark (1 MB) is below its low one (500 kB) after one.
 * See docs/adr/0004-terminal-flow-control.md.
 */
export const ACK_BATCH_BYTES = 512 * 1024;

/**
 * When xterm has written everything it was handed, what is left is acknowledged this long after (unless a batch
 * fills first): the next data event of a flood is usually a few milliseconds away.
 */
export const ACK_IDLE_MS = 8;

/**
 * Batches acknowledgements of bytes the terminal has finished writing. Guarantees: every byte handed to
 * `written` is acknowledged exactly once; acknowledgements go out in batches of at least `batchBytes`, except that
 * ACK_IDLE_MS after the write queue drains everything left is acknowledged, so main's unacknowledged count never
 * sits above its low watermark while the terminal is idle.
 */
export class AckBatcher {
  #queuedWrites = 0;
  #unsent = 0;
  #idleTimer: unknown;

  constructor(
    private readonly send: (bytes: number) => void,
    private readonly batchBytes: number = ACK_BATCH_BYTES,
    /** Its timers (tests pass a manual clock). */
    private readonly timers: Pick<Clock, 'setTimeout' | 'clearTimeout'> = appClock,
  ) {}

  /** A write of output was handed to the terminal (call before `term.write`). */
  queued(): void {
    this.#queuedWrites += 1;
  }

  /** The terminal finished writing `bytes` of output (call from `term.write`'s callback). */
  written(bytes: number): void {
    this.#queuedWrites = Math.max(0, this.#queuedWrites - 1);
    this.#unsent += bytes;
    if (this.#unsent >= this.batchBytes) this.flush();
    else if (this.#queuedWrites === 0 && this.#unsent > 0) {
      this.#idleTimer ??= this.timers.setTimeout(() => this.flush(), ACK_IDLE_MS);
    }
  }

  /** Sends whatever is not yet acknowledged (at once). */
  flush(): void {
    if (this.#idleTimer !== undefined) {
      this.timers.clearTimeout(this.#idleTimer);
      this.#idleTimer = undefined;
    }
    if (this.#unsent === 0) return;
    const bytes = this.#unsent;
    this.#unsent = 0;
    this.send(bytes);
  }
}
