import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { MAX_ACCESS_TOKEN_LIFETIME_S, readJwtClaims } from '../../../../electron/services/session/jwt';

const ISSUED_AT_S = Date.UTC(2026, 10, 27, 9, 30) / 1000;
const KEY = new TextEncoder().encode('a test key of thirty-two bytes!!');

/** A signed access token as a server would issue it, with the given times (leave one out with undefined). */
function makeToken(times: { iat?: number; exp?: number }): Promise<string> {
  return new SignJWT({ sub: 'tech@acme.test', scopes: ['CUSTOMER_USER'], ...times })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(KEY);
}

describe('readJwtClaims', () => {
  it('reads a token valid for an hour', async () => {
    const token = await makeToken({ iat: ISSUED_AT_S, exp: ISSUED_AT_S + 3600 });
    expect(readJwtClaims(token)).toMatchObject({
      sub: 'tech@acme.test',
      iat: ISSUED_AT_S,
      exp: ISSUED_AT_S + 3600,
    });
  });

  it('reads a token without an issue time whose expiry is a plausible date', async () => {
    expect(readJwtClaims(await makeToken({ exp: ISSUED_AT_S + 3600 }))).toMatchObject({
      exp: ISSUED_AT_S + 3600,
    });
  });

  it.each([
    ['an expiry of 1 (1970)', { iat: ISSUED_AT_S, exp: 1 }],
    ['an expiry of 1 and no issue time', { exp: 1 }],
    ['an expiry of 1e300', { iat: ISSUED_AT_S, exp: 1e300 }],
    ['an expiry of 1e300 and no issue time', { exp: 1e300 }],
    ['an expiry past 2100', { exp: Date.UTC(2100, 0, 2) / 1000 }],
    ['an expiry before its issue time', { iat: ISSUED_AT_S, exp: ISSUED_AT_S - 1 }],
    ['an expiry at its issue time', { iat: ISSUED_AT_S, exp: ISSUED_AT_S }],
    [
      'a lifetime longer than the most allowed',
      { iat: ISSUED_AT_S, exp: ISSUED_AT_S + MAX_ACCESS_TOKEN_LIFETIME_S + 1 },
    ],
    ['an issue time of -1', { iat: -1, exp: ISSUED_AT_S }],
    ['an issue time of 1e300', { iat: 1e300, exp: ISSUED_AT_S }],
  ])('refuses a token with %s', async (_name, times) => {
    expect(readJwtClaims(await makeToken(times))).toBeUndefined();
  });
});
