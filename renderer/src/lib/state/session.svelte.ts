import type { IpcClient } from '../ipc';
import type { IpcErrorShape, RememberMode, Result, SessionSummary } from '../wire-types';

/** What the login form sends; the password leaves the renderer only in this call. */
export interface LoginRequest {
  profileId: string;
  username: string;
  password: string;
  remember: RememberMode;
}

/**
 * Who is signed in, as runes, kept current by `session:changed`. A session whose state is `expired` stays in
 * `summary` so that the shell (and whatever the user was typing) stays mounted behind the re-login dialog.
 */
export class SessionState {
  summary = $state<SessionSummary | null>(null);
  /** Why resuming a remembered session failed, when it did (shown on the login screen). */
  resumeError = $state<IpcErrorShape | null>(null);
  /** True while a remembered session is being resumed (in the background: the first screen does not wait). */
  isResuming = $state(false);
  /** The remember choice of the last successful login in this run, reused by the re-login dialog. */
  lastRemember = $state<RememberMode>('none');
  readonly #client: IpcClient;
  readonly #stop: () => void;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stop = client.on('session:changed', (summary) => {
      this.summary = summary;
      if (summary) this.resumeError = null;
    });
  }

  /** True while a session exists, even an expired one. */
  get isSignedIn(): boolean {
    return this.summary !== null;
  }

  /** True when the refresh token is spent and only a new login continues. */
  get isExpired(): boolean {
    return this.summary?.state === 'expired';
  }

  /** Adopts a session main already holds, else resumes the selected profile's remembered one. */
  async start(profileId: string | null): Promise<void> {
    const current = await this.#client.invoke('session:get');
    if (current.ok && current.value) {
      this.summary = current.value;
      return;
    }
    if (!profileId) return;
    this.isResuming = true;
    const resumed = await this.#client.invoke('session:resume', { profileId });
    this.isResuming = false;
    // A login (or a resume by main's server watch) that finished meanwhile wins.
    if (this.summary) return;
    if (resumed.ok) this.summary = resumed.value;
    else this.resumeError = resumed.error;
  }

  /** Re-reads the session from main (after the link to main came back, events may have been missed). */
  async reload(): Promise<void> {
    const current = await this.#client.invoke('session:get');
    if (current.ok) this.summary = current.value;
  }

  /** Signs in; on success the summary is set before the promise resolves. */
  async login(request: LoginRequest): Promise<Result<SessionSummary>> {
    const result = await this.#client.invoke('session:login', request);
    if (result.ok) {
      this.summary = result.value;
      this.resumeError = null;
      this.lastRemember = request.remember;
    }
    return result;
  }

  /**
   * Signs out and forgets whatever the keychain held for this session; with `forgetPasswords` also the gateways'
   * root passwords remembered in this profile.
   */
  async logout(options: { forgetPasswords?: boolean } = {}): Promise<Result<null>> {
    const result = await this.#client.invoke(
      'session:logout',
      options.forgetPasswords ? { forgetPasswords: true } : undefined,
    );
    if (result.ok) this.summary = null;
    return result;
  }

  /** Stops listening to main. */
  dispose(): void {
    this.#stop();
  }
}
