import { EventEmitter } from 'node:events';
import { t } from '../../shared/i18n';
import {
  REFRESH_MARGIN_MS,
  REFRESH_MIN_LEAD_MS,
  type CommandName,
  type CommandRequest,
  type CommandResponse,
  type EndpointName,
  type EndpointRequest,
  type EndpointResponse,
  type JwtClaims,
  type TokenPair,
} from '../../shared/api';
import { ApiError, ResponseValidationError, type ApiClient, type CallOptions } from '../api';
import { readJwtClaims } from './jwt';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/** Where a session stands. `expired`: the refresh token no longer works; sign in again. */
export type SessionState = 'loggedOut' | 'active' | 'refreshing' | 'expired';

/** What may be said about a session outside the main process: never a token. */
export interface SessionInfo {
  state: SessionState;
  username?: string;
  userId?: string;
  role?: string;
  customerId?: string;
  providerId?: string;
  /** When the access token expires, on this machine's clock (ms). */
  accessExpiresAt?: number;
}

/** The session expired: its refresh token was refused. Sign in again. */
export class SessionExpiredError extends Error {
  override readonly name = 'SessionExpiredError';
  constructor() {
    super(t('main:sessionExpired'));
  }
}

/** Dependencies of a session. `now` is injectable so tests can move time. */
export interface SessionOptions {
  client: ApiClient;
  clock?: Pick<Clock, 'now'>;
  /** Refresh this long before expiry at most (capped at a quarter of the token's lifetime). */
  refreshMarginMs?: number;
}

interface Tokens {
  pair: TokenPair;
  claims: JwtClaims;
  /** Access-token expiry on the local clock, corrected for the server's clock (iat vs. receipt time). */
  expiresAt: number;
  /** Lifetime of the access token in ms, from its claims. */
  lifetimeMs: number;
}

interface SessionEvents {
  changed: [SessionInfo];
  expired: [];
  tokens: [TokenPair];
}

/**
 * A logged-in session: adds the access token to every call, refreshes it ahead of expiry, refreshes once at a
 * time however many calls wait (the refresh token rotates), and on a 401 refreshes once and retries once.
 * A refused refresh ends the session in `expired` and never loops.
 */
export class Session extends EventEmitter<SessionEvents> {
  private tokens: Tokens | undefined;
  private refreshing: Promise<Tokens> | undefined;
  private currentState: SessionState = 'loggedOut';
  private readonly now: () => number;
  private readonly refreshMarginMs: number;

  constructor(private readonly options: SessionOptions) {
    super();
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
    this.refreshMarginMs = options.refreshMarginMs ?? REFRESH_MARGIN_MS;
  }

  /** The state and who is logged in. */
  get state(): SessionState {
    return this.currentState;
  }

  /** The current refresh token, for the keychain when "remember me" is on. Main process only. */
  get refreshToken(): string | undefined {
    return this.tokens?.pair.refreshToken;
  }

  /** The current access token. Main process only (the SSH service and the audit never need it). */
  get accessToken(): string | undefined {
    return this.tokens?.pair.token;
  }

  /** What may be shown about the session: no token. */
  info(): SessionInfo {
    const claims = this.tokens?.claims;
    return {
      state: this.currentState,
      username: claims?.sub,
      userId: claims?.userId,
      role: claims?.scopes[0],
      customerId: claims?.customerId ?? undefined,
      providerId: claims?.providerId ?? undefined,
      accessExpiresAt: this.tokens?.expiresAt,
    };
  }

  /** Logs in with e-mail and password. A wrong password is an ApiError with status 401. */
  async login(username: string, password: string, options: CallOptions = {}): Promise<SessionInfo> {
    const pair = await this.options.client.call(
      'login',
      { params: {}, body: { username, password } },
      options,
    );
    this.accept(pair, 'login');
    return this.info();
  }

  /** Resumes a session from a remembered refresh token; fails (ApiError 401) when it has expired. */
  async resume(refreshToken: string, options: CallOptions = {}): Promise<SessionInfo> {
    const pair = await this.options.client.call(
      'refreshToken',
      { params: {}, body: { refreshToken } },
      options,
    );
    this.accept(pair, 'refreshToken');
    return this.info();
  }

  /** Forgets the tokens. The spec has no logout endpoint: tokens simply stop being used. */
  logout(): void {
    this.tokens = undefined;
    this.refreshing = undefined;
    this.setState('loggedOut');
  }

  /** Calls an endpoint with the session's access token. */
  call<Name extends EndpointName>(
    name: Name,
    request: EndpointRequest<Name>,
    options: Omit<CallOptions, 'accessToken'> = {},
  ): Promise<EndpointResponse<Name>> {
    return this.authorized((accessToken) =>
      this.options.client.call(name, request, { ...options, accessToken }),
    );
  }

  /** Runs a gateway command with the session's access token. */
  command<Name extends CommandName>(
    gatewayId: string,
    name: Name,
    request?: CommandRequest<Name>,
    options: Omit<CallOptions, 'accessToken'> = {},
  ): Promise<CommandResponse<Name>> {
    return this.authorized((accessToken) =>
      this.options.client.command(gatewayId, name, request, { ...options, accessToken }),
    );
  }

  private async authorized<Result>(send: (accessToken: string) => Promise<Result>): Promise<Result> {
    let tokens = await this.freshTokens();
    try {
      return await send(tokens.pair.token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      // Another call may have refreshed meanwhile; otherwise refresh now. Either way: one retry, no loop.
      tokens = this.tokens && this.tokens !== tokens ? this.tokens : await this.refresh(tokens);
      return send(tokens.pair.token);
    }
  }

  private async freshTokens(): Promise<Tokens> {
    if (this.refreshing) return this.refreshing;
    const tokens = this.tokens;
    if (!tokens)
      throw this.currentState === 'expired'
        ? new SessionExpiredError()
        : new ApiError(401, 10, t('main:notSignedIn'), 'session');
    const margin = Math.max(REFRESH_MIN_LEAD_MS, Math.min(this.refreshMarginMs, tokens.lifetimeMs / 4));
    if (this.now() < tokens.expiresAt - margin) return tokens;
    return this.refresh(tokens);
  }

  /** Refreshes unless a refresh is already under way, in which case it waits for that one. */
  private refresh(stale: Tokens): Promise<Tokens> {
    if (this.refreshing) return this.refreshing;
    if (this.tokens !== stale && this.tokens) return Promise.resolve(this.tokens);
    this.setState('refreshing');
    const refreshing = this.options.client
      .call('refreshToken', { params: {}, body: { refreshToken: stale.pair.refreshToken } })
      .then(
        (pair) => {
          try {
            return this.accept(pair, 'refreshToken');
          } catch (error) {
            // The old tokens stay (the server may still take them); the caller sees why the refresh failed.
            this.setState('active');
            throw error;
          }
        },
        (error: unknown) => {
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
            this.tokens = undefined;
            this.setState('expired');
            this.emit('expired');
            throw new SessionExpiredError();
          }
          // A network failure is not an expiry: keep the tokens and let the caller see the failure.
          this.setState('active');
          throw error;
        },
      )
      .finally(() => {
        if (this.refreshing === refreshing) this.refreshing = undefined;
      });
    this.refreshing = refreshing;
    return refreshing;
  }

  /**
   * Takes a new token pair. An access token that is not a JWT whose claims hold a numeric `exp` is refused
   * (ResponseValidationError naming `token`): without it the session could not know when to refresh, and would
   * call itself active with a token of unknown lifetime.
   */
  private accept(pair: TokenPair, endpoint: string): Tokens {
    const claims = readJwtClaims(pair.token);
    if (!claims) {
      throw new ResponseValidationError(endpoint, [
        {
          path: 'token',
          message: t('main:tokenWithoutExpiry'),
        },
      ]);
    }
    const receivedAt = this.now();
    const lifetimeMs = claims.iat !== undefined ? (claims.exp - claims.iat) * 1000 : 0;
    // The server's clock may differ from ours: count the lifetime from when we received the token.
    const expiresAt = lifetimeMs > 0 ? receivedAt + lifetimeMs : claims.exp * 1000;
    const tokens: Tokens = { pair, claims, expiresAt, lifetimeMs };
    this.tokens = tokens;
    this.setState('active', true);
    this.emit('tokens', pair);
    return tokens;
  }

  private setState(state: SessionState, always = false): void {
    if (state === this.currentState && !always) return;
    this.currentState = state;
    this.emit('changed', this.info());
  }
}
