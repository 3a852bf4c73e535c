import { appClock } from '../clock';
import type { IpcClient } from '../ipc';
import type { EventPayload } from '../wire-types';

/** How long "<server> answers. Live data is back" shows once the server answers again, then it goes. */
export const BACK_NOTICE_MS = 8_000;

/**
 * Field mode as runes: the app's views without a session (terminals, session logs, the site pack, the site report,
 * settings), the sign-in dialog opened over them, and what the last quiet check of the server found.
 */
export class FieldModeState {
  /** True while the shell shows with no session. */
  isOn = $state(false);
  /** True while the sign-in dialog is open over the field-mode shell. */
  isSignInOpen = $state(false);
  /** What the last check of the server (or a request to it) found, or null before any. */
  server = $state<EventPayload<'server:status'> | null>(null);
  /**
   * True for BACK_NOTICE_MS after the server was found answering again, once found away: the "back" notice shows
   * that long, never for an answer that is old news. Ends at once when the server is found away again.
   */
  isBackNoticeShown = $state(false);
  #backNoticeTimer: unknown = null;
  /** True while a check asked for (`checkNow`) runs. */
  isChecking = $state(false);
  readonly #stop: () => void;
  readonly #client: IpcClient;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stop = client.on('server:status', (status) => this.#take(status));
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
    if (answer.ok && answer.value) this.#take(answer.value);
  }

  #take(status: EventPayload<'server:status'>): void {
    const wasAway = this.server?.outcome === 'unreachable';
    this.server = status;
    if (status.outcome === 'unreachable') {
      this.#endBackNotice();
    } else if (wasAway) {
      this.#endBackNotice();
      this.isBackNoticeShown = true;
      this.#backNoticeTimer = appClock.setTimeout(() => this.#endBackNotice(), BACK_NOTICE_MS);
    }
  }

  #endBackNotice(): void {
    if (this.#backNoticeTimer !== null) appClock.clearTimeout(this.#backNoticeTimer);
    this.#backNoticeTimer = null;
    this.isBackNoticeShown = false;
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
    this.#endBackNotice();
  }
}
