import type { IpcClient } from '../../lib/ipc';
import type { TriageProgressEvent, TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import { readReason } from '../../../../electron/shared/ipc/error-details';
import { appClock } from '../../lib/clock';

/**
 * "Collect diagnostics" of the serial consoles, shared by the button in a tab's controls and the side drawer that
 * shows its progress, the root-password question and the health panel. One run at a time; each console keeps its
 * last panel until hidden.
 */
export class TriageState {
  /** The last health panel of each serial console, by session id. */
  results = $state<Record<string, TriageResult>>({});
  /** Panels the user hid, by session id ("Show health" brings one back). */
  hidden = $state<Record<string, boolean>>({});
  /** The console whose diagnostics are being collected. */
  running = $state<string | null>(null);
  /** The console whose login prompt needs the root password, with what the console said about it. */
  passwordAsk = $state<{ id: string; message: string } | null>(null);
  /** The root password typed in the drawer, cleared once a run succeeds. */
  password = $state('');
  /** Keep the typed password in the keychain for the gateway once it works. */
  isRememberingPassword = $state(true);
  /** What the running diagnostics last said it waits for, and when that came (this page's clock). */
  progress = $state<{ progress: TriageProgressEvent; receivedAt: number } | null>(null);
  /** Set when Cancel was asked: the run stops after the command under way. */
  isCancelling = $state(false);
  readonly #client: IpcClient;
  readonly #stop: () => void;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stop = client.on('serial:triage-progress', (progress) => {
      if (progress.id === this.running) this.progress = { progress, receivedAt: appClock.now() };
    });
  }

  /** True when the drawer has something to show for `id`: a run, a password question or a panel. */
  hasDrawer(id: string): boolean {
    return (
      this.running === id ||
      this.passwordAsk?.id === id ||
      (this.results[id] !== undefined && !this.hidden[id])
    );
  }

  /**
   * Runs read-only commands on the console; at a login prompt without a stored (or with a refused) root password
   * it asks for one (`passwordAsk`). Any other failure is returned, for the view's alert.
   */
  async collect(id: string, password?: string): Promise<string | undefined> {
    this.running = id;
    this.progress = null;
    this.isCancelling = false;
    const result = await this.#client.invoke('serial:triage', {
      id,
      ...(password ? { password, rememberPassword: this.isRememberingPassword } : {}),
    });
    this.running = null;
    this.progress = null;
    if (result.ok) {
      this.results[id] = result.value;
      this.hidden[id] = false;
      this.passwordAsk = null;
      this.password = '';
      return undefined;
    }
    if (readReason(result.error.details) === 'ROOT_PASSWORD_REQUIRED') {
      this.passwordAsk = { id, message: result.error.message };
      return undefined;
    }
    return result.error.message;
  }

  /** Asks the run to stop after the command under way; returns why it could not be asked, if so. */
  async cancel(id: string): Promise<string | undefined> {
    this.isCancelling = true;
    const result = await this.#client.invoke('serial:triage-cancel', { id });
    return result.ok ? undefined : result.error.message;
  }

  /** Stops listening to main. */
  dispose(): void {
    this.#stop();
  }
}
