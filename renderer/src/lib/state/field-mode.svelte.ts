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
  readonly #stop: () => void;

  constructor(client: IpcClient) {
    this.#stop = client.on('server:status', (status) => {
      this.server = status;
    });
  }

  /** True when the last quiet check found the server answering (so signing in can work). */
  get isServerBack(): boolean {
    return this.server?.outcome === 'reachable';
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
