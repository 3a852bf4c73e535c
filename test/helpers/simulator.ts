import { ApiClient, type Fetch } from '../../electron/services/api';
import { Session } from '../../electron/services/session';
import type { Clock } from '../../electron/shared/clock';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../simulator';

/** The demo accounts by what they are for in tests. */
export type DemoRole = 'provider' | 'acme' | 'globex';

const USERNAMES: Record<DemoRole, string> = {
  provider: 'provider@fieldkit.demo',
  acme: 'tech@acme.demo',
  globex: 'ops@globex.demo',
};

/** Starts the simulator on 127.0.0.1 with a free port. Close it in afterAll. */
export function startTestSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, host: '127.0.0.1', ...options });
}

/** The password of a demo account, from the simulator's fixture. */
export function passwordOf(
  simulator: RunningSimulator,
  role: DemoRole,
): { username: string; password: string } {
  const account = simulator.fixture.accounts.find((candidate) => candidate.username === USERNAMES[role]);
  if (!account) throw new Error(`demo account ${USERNAMES[role]} missing from the fixture`);
  return { username: account.username, password: account.password };
}

/** A session logged in as a demo account; `fetch` and `now` may be swapped to count calls or move time. */
export async function loginAs(
  simulator: RunningSimulator,
  role: DemoRole,
  options: { fetch?: Fetch; clock?: Pick<Clock, 'now'> } = {},
): Promise<Session> {
  const client = new ApiClient({ baseUrl: simulator.url, fetch: options.fetch });
  const session = new Session({ client, clock: options.clock ?? simulator.clock });
  const { username, password } = passwordOf(simulator, role);
  await session.login(username, password);
  return session;
}

/** The customer id of Acme Water and Globex Energy, and their sub-customers. */
export function customersOf(simulator: RunningSimulator) {
  const byName = (name: string) => {
    const customer = simulator.fixture.customers.find((candidate) => candidate.name === name);
    if (!customer) throw new Error(`customer ${name} missing from the fixture`);
    return customer;
  };
  return { acme: byName('Acme Water'), globex: byName('Globex Energy') };
}
