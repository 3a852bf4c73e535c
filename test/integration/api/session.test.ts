import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type Fetch } from '../../../electron/services/api';
import { Session, SessionExpiredError } from '../../../electron/services/session';
import { type RunningSimulator } from '../../../simulator';
import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { customersOf, passwordOf, startTestSimulator } from '../../helpers/simulator';

/** A fetch that counts the refresh calls that reach the server. */
function countingFetch() {
  const counts = { refresh: 0, total: 0 };
  const fetch: Fetch = (url, init) => {
    counts.total++;
    if (url.endsWith('/api/auth/token')) counts.refresh++;
    return globalThis.fetch(url, init);
  };
  return { fetch, counts };
}

describe('session token lifecycle (--access-ttl 2, --refresh-ttl 6)', () => {
  let simulator: RunningSimulator;
  const clock = new ManualClock(SIMULATED_START_MS);

  beforeAll(async () => {
    simulator = await startTestSimulator({ clock, accessTtl: 2, refreshTtl: 6 });
  });
  afterAll(() => simulator.close());

  async function newSession() {
    const { fetch, counts } = countingFetch();
    const session = new Session({
      client: new ApiClient({ baseUrl: simulator.url, fetch }),
      clock,
    });
    const { username, password } = passwordOf(simulator, 'acme');
    await session.login(username, password);
    return { session, counts, customerId: customersOf(simulator).acme.id };
  }

  it('refreshes silently ahead of expiry and rotates the refresh token', async () => {
    const { session, counts, customerId } = await newSession();
    const firstRefreshToken = session.refreshToken!;
    clock.advance(1_800); // inside the refresh margin of a 2 s token
    await session.call('listCustomerDevices', { params: { customerId } });
    expect(counts.refresh).toBe(1);
    expect(session.refreshToken).not.toBe(firstRefreshToken);
    // The spent refresh token is refused by the server.
    const client = new ApiClient({ baseUrl: simulator.url });
    const reuse = await client
      .call('refreshToken', { params: {}, body: { refreshToken: firstRefreshToken } })
      .catch((error: unknown) => error);
    expect(reuse).toMatchObject({ status: 401 });
  });

  it('refreshes exactly once when 50 calls hit an expired token', async () => {
    const { session, counts, customerId } = await newSession();
    clock.advance(2_500);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => session.call('listCustomerDevices', { params: { customerId } })),
    );
    expect(answers).toHaveLength(50);
    expect(counts.refresh).toBe(1);
  });

  it('refreshes once and retries once when the server answers 401 to a token the client thought valid', async () => {
    const customerId = customersOf(simulator).acme.id;
    // The client's clock stands still, so it believes its token fresh while the server's clock moves on.
    const frozen = clock.now();
    const { fetch, counts } = countingFetch();
    const stale = new Session({
      client: new ApiClient({ baseUrl: simulator.url, fetch }),
      clock: { now: () => frozen },
    });
    const { username, password } = passwordOf(simulator, 'acme');
    await stale.login(username, password);
    clock.advance(2_500);
    const devices = await stale.call('listCustomerDevices', { params: { customerId } });
    expect(devices.totalElements).toBeGreaterThan(0);
    expect(counts).toEqual({ refresh: 1, total: 4 }); // login, the refused call, the refresh, the retry
    expect(stale.state).toBe('active');
  });

  it('ends in expired, once, when the refresh token has expired — and never loops', async () => {
    const { session, counts, customerId } = await newSession();
    const expired: number[] = [];
    session.on('expired', () => expired.push(clock.now()));
    clock.advance(7_000);
    const calls = await Promise.all(
      Array.from({ length: 5 }, () =>
        session.call('listCustomerDevices', { params: { customerId } }).catch((error: unknown) => error),
      ),
    );
    for (const error of calls) expect(error).toBeInstanceOf(SessionExpiredError);
    expect(session.state).toBe('expired');
    expect(expired).toHaveLength(1);
    expect(counts.refresh).toBe(1);
    await expect(session.call('listCustomerDevices', { params: { customerId } })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    expect(counts.refresh).toBe(1);
  });

  it('refuses a wrong password with 401 and errorCode 10', async () => {
    const client = new ApiClient({ baseUrl: simulator.url });
    const error = await client
      .call('login', { params: {}, body: { username: 'tech@acme.demo', password: 'wrong' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, errorCode: 10 });
  });
});
