import type { IpcClient } from '../ipc';
import type { EventPayload } from '../wire-types';

/**
 * Field mode as runes: the app's views without a session (terminals, session logs, the site pack, the site report,
 * settings), the sign-in dialog opened over them, and what the last quiet check of the server found.
 */
export class FieldModeState {
  /** True while the shell shows with no session. */
  isOn = $state(false);
  /** True while the sign-in dialog is open over the field-mode shell. */
  isSignInOpen = $state(false);
  /** The last quiet check of the server while working without it, or null before any. */
  server = $state<EventPayload<'server:status'> | null>(null);
  /** True while a check asked for (`checkNow`) runs. */
  isChecking = $state(false);
  readonly #stop: () => void;
  readonly #client: IpcClient;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stop = client.on('server:status', (status) => {
      this.server = status;
    });
  }

  /**
   * True when a check now could tell something new: the server was last found unreachable, or nobody is signed
   * in and nothing was checked yet. What the OS's "online" event and the window's focus go by.
   */
  get isWorthChecking(): boolean {
    return this.server?.outcome === 'unreachable' || (this.isOn && this.server === null);
  }

  /** Asks main to check the server at once (a check already running is joined); its answer updates `server`. */
  async checkNow(): Promise<void> {
    if (this.isChecking) return;
    this.isChecking = true;
    const answer = await this.#client.invoke('server:check');
    this.isChecking = false;
    if (answer.ok && answer.value) this.server = answer.value;
  }

  /** Shows the shell with no session. */
  enter(): void {
    this.isOn = true;
    this.isSignInOpen = false;
  }

  /** Leaves field mode (signed in, or back to the sign-in page). */
  leave(): void {
    this.isOn = false;
    this.isSignInOpen = false;
  }

  /** Stops listening to main. */
  dispose(): void {
    this.#stop();
  }
}
