import { JwtClaimsSchema, type JwtClaims } from '../../shared/api';

/**
 * Reads a JWT's claims without checking its signature: the client uses them for refresh timing and
 * navigation only (docs/api.md), never to decide what the user may do — the server does that.
 */
export function readJwtClaims(token: string): JwtClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = Buffer.from(payload, 'base64url').toString('utf8');
    const result = JwtClaimsSchema.safeParse(JSON.parse(json));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
