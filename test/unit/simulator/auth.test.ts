import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenService } from '../../../simulator/auth';
import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { createTenant } from '../../../simulator/tenant';

function createTokens(defaults = { accessTtlSeconds: 60, refreshTtlSeconds: 600 }) {
  const clock = new ManualClock(SIMULATED_START_MS);
  const tenant = createTenant({
    seed: 3,
    gateways: 4,
    devices: 4,
    customers: 2,
    offlineFraction: 0,
    nowMs: clock.now(),
  });
  return { clock, tenant, tokens: new TokenService({ tenant, clock, defaults }) };
}

describe('TokenService', () => {
  it('issues an access token with the claims of the API assumptions', async () => {
    const { tokens, tenant } = createTokens();
    const { token } = await tokens.login('tech@acme.demo', 'demo-tech');
    const claims = decodeJwt(token);
    const user = tenant.users.find((candidate) => candidate.email === 'tech@acme.demo')!;
    expect(claims).toMatchObject({
      sub: 'tech@acme.demo',
      userId: user.userId,
      scopes: ['CUSTOMER_USER'],
      customerId: user.customerId,
    });
    expect(claims.exp! - claims.iat!).toBe(60);
  });

  it('refuses a wrong password with 401 errorCode 10', async () => {
    const { tokens } = createTokens();
    await expect(tokens.login('tech@acme.demo', 'nope')).rejects.toMatchObject({
      status: 401,
      errorCode: 10,
    });
  });

  it('answers 401 errorCode 11 once the access token has expired', async () => {
    const { tokens, clock } = createTokens();
    const { token } = await tokens.login('tech@acme.demo', 'demo-tech');
    await tokens.authenticate(`Bearer ${token}`);
    clock.advance(61_000);
    await expect(tokens.authenticate(`Bearer ${token}`)).rejects.toMatchObject({
      status: 401,
      errorCode: 11,
    });
  });

  it('rotates the refresh token: the old one is spent after one use', async () => {
    const { tokens } = createTokens();
    const first = await tokens.login('ops@globex.demo', 'demo-ops');
    const second = await tokens.refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await expect(tokens.refresh(first.refreshToken)).rejects.toMatchObject({ status: 401 });
    await expect(tokens.refresh(second.refreshToken)).resolves.toHaveProperty('token');
  });

  it('refuses an expired refresh token with 401', async () => {
    const { tokens, clock } = createTokens();
    const { refreshToken } = await tokens.login('ops@globex.demo', 'demo-ops');
    clock.advance(601_000);
    await expect(tokens.refresh(refreshToken)).rejects.toMatchObject({ status: 401, errorCode: 11 });
  });

  it("applies a customer's token lifetimes to that customer's users only", async () => {
    const { tokens, tenant } = createTokens();
    const acme = [...tenant.customers.values()].find((customer) => customer.name === 'Acme Water')!;
    acme.additionalInfo = { accessTokenTtlSeconds: 5, refreshTokenTtlSeconds: 50 };
    const acmePair = await tokens.login('tech@acme.demo', 'demo-tech');
    const globexPair = await tokens.login('ops@globex.demo', 'demo-ops');
    const lifetime = (token: string) => decodeJwt(token).exp! - decodeJwt(token).iat!;
    expect(lifetime(acmePair.token)).toBe(5);
    expect(lifetime(acmePair.refreshToken)).toBe(50);
    expect(lifetime(globexPair.token)).toBe(60);
  });

  it('refuses a refresh token used as an access token, and the reverse', async () => {
    const { tokens } = createTokens();
    const pair = await tokens.login('tech@acme.demo', 'demo-tech');
    await expect(tokens.authenticate(`Bearer ${pair.refreshToken}`)).rejects.toMatchObject({
      status: 401,
      errorCode: 10,
    });
    await expect(tokens.refresh(pair.token)).rejects.toMatchObject({ status: 401, errorCode: 10 });
  });

  it('refuses a missing header and one without the Bearer scheme', async () => {
    const { tokens } = createTokens();
    const { token } = await tokens.login('tech@acme.demo', 'demo-tech');
    await expect(tokens.authenticate(undefined)).rejects.toMatchObject({ status: 401, errorCode: 10 });
    await expect(tokens.authenticate(token)).rejects.toMatchObject({ status: 401, errorCode: 10 });
  });
});
