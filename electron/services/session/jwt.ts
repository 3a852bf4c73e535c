import { JwtClaimsSchema, type JwtClaims } from '../../shared/api';

/** The earliest `iat` or `exp` (seconds) a token may carry: 2000-01-01. Earlier is a broken or hostile server. */
export const EARLIEST_TOKEN_TIME_S = Date.UTC(2000, 0, 1) / 1000;
/** The latest `iat` or `exp` (seconds) a token may carry: 2100-01-01, well inside what a `Date` can show. */
export const LATEST_TOKEN_TIME_S = Date.UTC(2100, 0, 1) / 1000;
/** The longest access-token lifetime (`exp - iat`) taken: 30 days (OAM's are hours). */
export const MAX_ACCESS_TOKEN_LIFETIME_S = 30 * 24 * 60 * 60;

/**
 * Reads a JWT's claims without checking its signature: the client uses them for refresh timing and
 * navigation only (docs/api.md), never to decide what the user may do — the server does that. Returns undefined
 * for anything it cannot time: not a JWT, no numeric `exp`, or times out of range — `iat` or `exp` outside
 * 2000–2100, an `exp` not after `iat` (expired when issued), or a lifetime over MAX_ACCESS_TOKEN_LIFETIME_S.
 */
export function readJwtClaims(token: string): JwtClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = Buffer.from(payload, 'base64url').toString('utf8');
    const result = JwtClaimsSchema.safeParse(JSON.parse(json));
    return result.success && hasPlausibleTimes(result.data) ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** True when the token's times are dates a server could mean and its lifetime one the session can count down. */
function hasPlausibleTimes({ iat, exp }: JwtClaims): boolean {
  const isPlausible = (seconds: number) => seconds >= EARLIEST_TOKEN_TIME_S && seconds <= LATEST_TOKEN_TIME_S;
  if (!isPlausible(exp)) return false;
  if (iat === undefined) return true;
  return isPlausible(iat) && exp > iat && exp - iat <= MAX_ACCESS_TOKEN_LIFETIME_S;
}
