import { onReconnected, type ConnectionSnapshot, type ConnectionStatus, type Transport } from '../transport';

/** The renderer's link to main as runes: the shell shows a banner whenever `status` is not `open`. */
export class ConnectionState {
  status = $state<ConnectionStatus>('connecting');
  attempt = $state(0);
  retryAt = $state<number | null>(null);
  /** The host's own words when it refused the page (status `refused`), else null. */
  reason = $state<string | null>(null);
  readonly #transport: Transport;
  readonly #stop: () => void;

  constructor(transport: Transport) {
    this.#transport = transport;
    this.#apply(transport.connection());
    this.#stop = transport.onConnection((snapshot) => this.#apply(snapshot));
  }

  /** True when calls go straight through. */
  get isOpen(): boolean {
    return this.status === 'open';
  }

  /** Skips the backoff wait and reconnects at once. */
  retryNow(): void {
    this.#transport.retryNow();
  }

  /** Registers a callback for every transition back to `open` after a loss; returns the unsubscribe function. */
  onReconnected(callback: () => void): () => void {
    return onReconnected(this.#transport, callback);
  }

  /** Stops following the transport. */
  dispose(): void {
    this.#stop();
  }

  #apply(snapshot: ConnectionSnapshot): void {
    this.status = snapshot.status;
    this.attempt = snapshot.attempt;
    this.retryAt = snapshot.retryAt;
    this.reason = snapshot.reason ?? null;
  }
}
