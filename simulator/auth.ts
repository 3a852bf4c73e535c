import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '../electron/shared/api/errors';
import type { Clock } from '../electron/shared/clock';
import { unauthorized } from './failure';
import { Random } from './random';
import type { Tenant, UserAccount } from './tenant';

/** What the simulator knows about the caller of a request. */
export interface Principal {
  user: UserAccount;
}

/** Token lifetimes used when a customer sets none. */
export interface TokenDefaults {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

/** A token pair, as login and refresh answer it. */
export interface IssuedTokens {
  token: string;
  refreshToken: string;
}

const REFRESH_SCOPE = 'REFRESH_TOKEN';
const VERIFIED_CACHE_LIMIT = 10_000;

interface AccessClaims {
  sub: string;
  userId: string;
  exp: number;
}

/**
 * Issues and checks JWTs (HS256, a secret per run): access tokens with the claims of docs/api.md, refresh tokens
 * that rotate — each refresh token works once; using it again answers 401. Per-customer token lifetimes
 * (customer additionalInfo accessTokenTtlSeconds / refreshTokenTtlSeconds) apply to that customer's users.
 */
export class TokenService {
  private readonly secret: Uint8Array;
  private readonly liveRefreshTokens = new Set<string>();
  private readonly verified = new Map<string, AccessClaims>();
  private readonly ids: Random;

  constructor(
    private readonly deps: { tenant: Tenant; clock: Clock; defaults: TokenDefaults; secret?: Uint8Array },
  ) {
    this.secret = deps.secret ?? randomBytes(32);
    this.ids = new Random(deps.tenant.seed).fork('token-ids');
  }

  /** Checks e-mail and password; 401 (errorCode 10) when they do not match an account. */
  async login(username: string, password: string): Promise<IssuedTokens> {
    const user = this.deps.tenant.users.find(
      (candidate) => candidate.email.toLowerCase() === username.trim().toLowerCase(),
    );
    if (!user || user.password !== password) throw unauthorized('Invalid username or password');
    return this.issue(user);
  }

  /** Trades a live refresh token for a new pair and spends the old one. */
  async refresh(refreshToken: string): Promise<IssuedTokens> {
    const claims = await this.verify(refreshToken, 'refresh token');
    const jti = typeof claims.jti === 'string' ? claims.jti : '';
    const scopes = Array.isArray(claims.scopes) ? claims.scopes : [];
    if (!scopes.includes(REFRESH_SCOPE))
      throw unauthorized('Invalid refresh token: an access token was given');
    if (!this.liveRefreshTokens.delete(jti)) throw unauthorized('Refresh token has already been used');
    const user = this.userById(String(claims.userId));
    if (!user) throw unauthorized('Invalid refresh token: unknown user');
    return this.issue(user);
  }

  /** The caller of a request from its X-Authorization header; 401 errorCode 10 or 11 otherwise. */
  async authenticate(header: string | undefined): Promise<Principal> {
    if (!header) throw unauthorized('Authentication failed: the X-Authorization header is missing');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('Authentication failed: X-Authorization must be "Bearer <token>"');
    const token = match[1] as string;
    let claims = this.verified.get(token);
    if (!claims) {
      const payload = await this.verify(token, 'token');
      const scopes = Array.isArray(payload.scopes) ? payload.scopes : [];
      if (scopes.includes(REFRESH_SCOPE))
        throw unauthorized('Authentication failed: a refresh token was given');
      claims = { sub: String(payload.sub), userId: String(payload.userId), exp: Number(payload.exp) };
      if (this.verified.size >= VERIFIED_CACHE_LIMIT) this.verified.clear();
      this.verified.set(token, claims);
    }
    if (this.deps.clock.now() >= claims.exp * 1000) {
      throw unauthorized('Token has expired', ERROR_CODES.ACCESS_TOKEN_EXPIRED);
    }
    const user = this.userById(claims.userId);
    if (!user) throw unauthorized('Authentication failed: unknown user');
    return { user };
  }

  /** The lifetimes (seconds) that apply to a user now: the customer's override, else the defaults. */
  lifetimesOf(user: UserAccount): TokenDefaults {
    const customer = user.customerId ? this.deps.tenant.customers.get(user.customerId) : undefined;
    const info = customer?.additionalInfo;
    const override = typeof info === 'object' && info !== null ? info : {};
    const pick = (key: string, fallback: number) => {
      const value = override[key];
      return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
    };
    return {
      accessTtlSeconds: pick('accessTokenTtlSeconds', this.deps.defaults.accessTtlSeconds),
      refreshTtlSeconds: pick('refreshTokenTtlSeconds', this.deps.defaults.refreshTtlSeconds),
    };
  }

  private async issue(user: UserAccount): Promise<IssuedTokens> {
    const issuedAt = Math.floor(this.deps.clock.now() / 1000);
    const lifetimes = this.lifetimesOf(user);
    const claims = {
      userId: user.userId,
      scopes: [user.authority],
      providerId: user.providerId,
      ...(user.customerId ? { customerId: user.customerId } : {}),
      firstName: user.firstName,
      lastName: user.lastName,
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.email)
      .setJti(this.ids.uuid())
      .setIssuer('oam-simulator')
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetimes.accessTtlSeconds)
      .sign(this.secret);
    const refreshId = this.ids.uuid();
    const refreshToken = await new SignJWT({ userId: user.userId, scopes: [REFRESH_SCOPE] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.email)
      .setJti(refreshId)
      .setIssuer('oam-simulator')
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetimes.refreshTtlSeconds)
      .sign(this.secret);
    this.liveRefreshTokens.add(refreshId);
    return { token, refreshToken };
  }

  private async verify(token: string, what: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: 'oam-simulator',
        currentDate: new Date(this.deps.clock.now()),
      });
      return payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw unauthorized(`${capitalize(what)} has expired`, ERROR_CODES.ACCESS_TOKEN_EXPIRED);
      }
      throw unauthorized(`Authentication failed: invalid ${what}`);
    }
  }

  private userById(userId: string): UserAccount | undefined {
    return this.deps.tenant.users.find((user) => user.userId === userId);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
