import type { IpcClient } from '../ipc';
import type { Notice } from '../wire-types';

/** Things main wants the user to know outside any call (a corrupt file moved aside…), until dismissed. */
export class NoticesState {
  notices = $state<Notice[]>([]);
  readonly #client: IpcClient;
  readonly #stop: () => void;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stop = client.on('app:notice', (notice) => {
      if (!this.#has(notice)) this.notices = [...this.notices, notice];
    });
  }

  /** Reads the notices main already holds (those raised before the renderer listened). */
  async load(): Promise<void> {
    const result = await this.#client.invoke('app:notices');
    if (!result.ok) return;
    const fresh = result.value.notices.filter((notice) => !this.#has(notice));
    this.notices = [...this.notices, ...fresh];
  }

  /**
   * Reads main's notices again and takes their words for those still shown: after a change of language, main
   * writes them in the new one (a dismissed notice stays dismissed).
   */
  async rewrite(): Promise<void> {
    const result = await this.#client.invoke('app:notices');
    if (!result.ok) return;
    const fresh = result.value.notices;
    this.notices = this.notices.map(
      (shown) => fresh.find((notice) => notice.code === shown.code && notice.at === shown.at) ?? shown,
    );
  }

  /** Hides a notice for the rest of this run. */
  dismiss(notice: Notice): void {
    this.notices = this.notices.filter((shown) => shown !== notice);
  }

  /** Stops listening to main. */
  dispose(): void {
    this.#stop();
  }

  #has(notice: Notice): boolean {
    return this.notices.some((shown) => shown.code === notice.code && shown.at === notice.at);
  }
}
