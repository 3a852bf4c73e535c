import { z } from 'zod';
import type { EventHub } from '../shared/ipc/event-hub';
import { IpcError } from '../shared/ipc/result';
import type { Profile, RememberMode, SessionSummary } from '../shared/ipc/schemas';
import { t } from '../shared/i18n';
import type { NoticeDraft } from '../shared/notice-words';
import { ApiError, createServerFetch } from '../services/api';
import {
  CREDENTIAL_SERVICE,
  passwordAccount,
  refreshTokenAccount,
  type CredentialStore,
} from '../services/credentials';
import type { ProfileStore } from '../services/profiles';
import { SessionExpiredError } from '../services/session';
import type { ServerSessionFactory, ServerSessionPort } from './server-session-port';

const RememberedPasswordSchema = z.object({ username: z.string(), password: z.string() });

interface ActiveSession {
  profile: Profile;
  session: ServerSessionPort;
  remember: RememberMode;
  stopListening: () => void;
  lastRefreshToken: string | null;
  /** The username it signed in as (the facts' may be gone once it has expired). */
  username: string;
  hasExpired: boolean;
}

/** Whose session it is: a user on a profile's server. */
export interface ServerSessionAccount {
  profileId: string;
  username: string;
}

/** Why a session ends: signed out, expired (its refresh token refused), or replaced by another user's sign-in. */
export type ServerSessionEndReason = 'sign-out' | 'expired' | 'replaced';

/** What the controller needs. */
export interface ServerSessionControllerOptions {
  profiles: ProfileStore;
  credentials: CredentialStore;
  events: EventHub;
  createSession: ServerSessionFactory;
  onNotice: (notice: NoticeDraft) => void;
  /** Builds the fetch for a profile (default: certificate-verifying, honouring its pin). */
  createFetch?: (profile: Profile) => typeof fetch;
  /**
   * Runs while a session ends, before it is let go, so that it can still stop what depends on it (reverse-SSH
   * tunnels): at sign-out, when it expires, and when another account's sign-in replaces it (not when the same
   * account signs in again). A rejection is logged by the caller's hook, never stops the end.
   */
  onSessionEnding?: (account: ServerSessionAccount, reason: ServerSessionEndReason) => Promise<void>;
  /** Runs when a session starts (sign-in or resume), before `session:changed` says so. */
  onSessionStarted?: (account: ServerSessionAccount) => Promise<void>;
}

/**
 * Owns the one active session and its keychain entries. Guarantees: tokens stay here (the renderer gets a
 * SessionSummary); with remember `session` the rotating refresh token in the keychain always follows the
 * latest one; with `password` the password is kept too and used when the refresh token is spent; with `none`,
 * and on logout, the profile's keychain entries are deleted; every change is pushed as `session:changed`.
 */
export class ServerSessionController {
  private active: ActiveSession | null = null;
  private readonly createFetch: (profile: Profile) => typeof fetch;

  constructor(private readonly options: ServerSessionControllerOptions) {
    this.createFetch =
      options.createFetch ??
      ((profile) => createServerFetch({ pinnedSha256: profile.trustedCertificateSha256 }));
  }

  /** The current session's summary, or null. */
  summary(): SessionSummary | null {
    if (!this.active) return null;
    const facts = this.active.session.facts();
    if (!facts) return null;
    return { ...facts, profileId: this.active.profile.id, profileName: this.active.profile.name };
  }

  /** Logs in to a profile's server, replacing any current session, and keeps what `remember` asks for. */
  async login(input: {
    profileId: string;
    username: string;
    password: string;
    remember: RememberMode;
  }): Promise<SessionSummary> {
    const profile = this.options.profiles.get(input.profileId);
    const session = this.buildSession(profile);
    try {
      await session.login(input.username, input.password);
    } catch (error) {
      session.dispose();
      throw error;
    }
    await this.activate(profile, session, input.remember, session.facts()?.username ?? input.username);
    await this.storeSecrets(profile.id, input.remember, session.refreshToken(), input);
    if (!profile.isDemo) {
      await this.options.profiles.rememberUsername(profile.id, input.username).catch(() => undefined);
    }
    return this.requireSummary();
  }

  /**
   * Resumes a profile's session from the keychain's refresh token; falls back to a remembered password when
   * the token is spent. Null when nothing is remembered or the server no longer accepts what was.
   */
  async resume(profileId: string): Promise<SessionSummary | null> {
    const profile = this.options.profiles.get(profileId);
    const { credentials } = this.options;
    const refreshToken = await credentials.get(CREDENTIAL_SERVICE, refreshTokenAccount(profileId));
    const remembered = await this.readPassword(profileId);
    const remember: RememberMode = remembered ? 'password' : 'session';
    if (refreshToken) {
      const session = this.buildSession(profile);
      try {
        await session.resume(refreshToken);
        await this.activate(profile, session, remember, session.facts()?.username ?? '');
        await this.storeRefreshToken(profileId, session.refreshToken());
        return this.requireSummary();
      } catch (error) {
        session.dispose();
        if (!isRejectedCredential(error)) throw error;
        await credentials.delete(CREDENTIAL_SERVICE, refreshTokenAccount(profileId));
      }
    }
    if (!remembered) return null;
    try {
      return await this.login({ profileId, ...remembered, remember: 'password' });
    } catch (error) {
      if (!isRejectedCredential(error)) throw error;
      await credentials.delete(CREDENTIAL_SERVICE, passwordAccount(profileId));
      return null;
    }
  }

  /** Ends the session on the server (best effort) and deletes the profile's keychain entries. */
  async logout(): Promise<void> {
    const active = this.active;
    if (!active) return;
    await this.endWork(active, 'sign-out');
    if (this.active !== active) return;
    this.deactivate();
    try {
      await active.session.logout();
    } catch {
      // The server may be unreachable; the local session ends regardless.
    } finally {
      active.session.dispose();
    }
    await this.deleteSecrets(active.profile.id);
    this.options.events.emit('session:changed', null);
  }

  /** The active session, or UNAUTHENTICATED. */
  requireSession(): ServerSessionPort {
    if (!this.active) throw new IpcError('UNAUTHENTICATED', t('main:signInFirst'));
    return this.active.session;
  }

  /** Forgets the session without logging out on the server (on quit: a remembered session stays resumable). */
  close(): void {
    const active = this.active;
    this.deactivate();
    active?.session.dispose();
  }

  /** Deletes the keychain entries of a profile (also used when the profile itself is deleted). */
  async deleteSecrets(profileId: string): Promise<void> {
    const { credentials } = this.options;
    await credentials.delete(CREDENTIAL_SERVICE, refreshTokenAccount(profileId));
    await credentials.delete(CREDENTIAL_SERVICE, passwordAccount(profileId));
  }

  private buildSession(profile: Profile): ServerSessionPort {
    return this.options.createSession({ baseUrl: profile.baseUrl, fetch: this.createFetch(profile) });
  }

  private async activate(
    profile: Profile,
    session: ServerSessionPort,
    remember: RememberMode,
    username: string,
  ): Promise<void> {
    const account = { profileId: profile.id, username };
    const previous = this.active;
    if (previous && !isSameAccount(accountOf(previous), account)) await this.endWork(previous, 'replaced');
    if (this.active) {
      const replaced = this.active;
      this.deactivate();
      replaced.session.dispose();
    }
    await this.options.onSessionStarted?.(account);
    const active: ActiveSession = {
      profile,
      session,
      remember,
      stopListening: () => undefined,
      lastRefreshToken: session.refreshToken(),
      username,
      hasExpired: false,
    };
    active.stopListening = session.onChange(() => {
      if (this.active !== active) return;
      const token = session.refreshToken();
      if (active.remember !== 'none' && token && token !== active.lastRefreshToken) {
        active.lastRefreshToken = token;
        void this.storeRefreshToken(profile.id, token);
      }
      if (session.facts()?.state === 'expired' && !active.hasExpired) {
        active.hasExpired = true;
        void this.endWork(active, 'expired');
      }
      this.options.events.emit('session:changed', this.summary());
    });
    this.active = active;
    this.options.events.emit('session:changed', this.summary());
  }

  /** Lets the hook stop what depends on the ending session, while that session can still be used. */
  private async endWork(active: ActiveSession, reason: ServerSessionEndReason): Promise<void> {
    await this.options.onSessionEnding?.(accountOf(active), reason);
  }

  private deactivate(): void {
    this.active?.stopListening();
    this.active = null;
  }

  private requireSummary(): SessionSummary {
    const summary = this.summary();
    if (!summary) throw new Error('The session ended right after it started.');
    return summary;
  }

  private async storeSecrets(
    profileId: string,
    remember: RememberMode,
    refreshToken: string | null,
    login: { username: string; password: string },
  ): Promise<void> {
    const { credentials } = this.options;
    try {
      if (remember === 'none') {
        await this.deleteSecrets(profileId);
        return;
      }
      await this.storeRefreshToken(profileId, refreshToken);
      if (remember === 'password') {
        const secret = JSON.stringify({ username: login.username, password: login.password });
        await credentials.set(CREDENTIAL_SERVICE, passwordAccount(profileId), secret);
      } else {
        await credentials.delete(CREDENTIAL_SERVICE, passwordAccount(profileId));
      }
    } catch {
      this.options.onNotice({
        code: 'KEYCHAIN_WRITE_FAILED',
        message: () => t('main:noticeKeychainLoginNotSaved'),
      });
    }
  }

  private async storeRefreshToken(profileId: string, token: string | null): Promise<void> {
    if (!token) return;
    try {
      await this.options.credentials.set(CREDENTIAL_SERVICE, refreshTokenAccount(profileId), token);
    } catch {
      this.options.onNotice({
        code: 'KEYCHAIN_WRITE_FAILED',
        message: () => t('main:noticeKeychainRenewalNotSaved'),
      });
    }
  }

  private async readPassword(profileId: string): Promise<{ username: string; password: string } | null> {
    const stored = await this.options.credentials.get(CREDENTIAL_SERVICE, passwordAccount(profileId));
    if (!stored) return null;
    try {
      return RememberedPasswordSchema.parse(JSON.parse(stored));
    } catch {
      return null;
    }
  }
}

function accountOf(active: ActiveSession): ServerSessionAccount {
  return { profileId: active.profile.id, username: active.username };
}

/** True when both name the same user on the same profile. */
export function isSameAccount(left: ServerSessionAccount, right: ServerSessionAccount): boolean {
  return left.profileId === right.profileId && left.username === right.username;
}

/** True when the server refused the credential itself (spent refresh token, changed password). */
function isRejectedCredential(error: unknown): boolean {
  if (error instanceof SessionExpiredError) return true;
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}
