import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import type { RunningSimulator } from '../../../simulator';
import { startAppServices } from '../credentials/app-services';
import { customersOf, passwordOf, startTestSimulator } from '../../helpers/simulator';

// The customers channels as the renderer calls them, signed in as tech@acme.demo on the simulator: the list
// learns what api:call answers carry and finds the sub-customers by itself; adding takes an id or a link.

let simulator: RunningSimulator;
let folder: string;
let services: FieldKitServices;
let dispatch: (
  channel: string,
  input?: unknown,
) => Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
let profileId: string;

beforeAll(async () => {
  simulator = await startTestSimulator({ gateways: 60 });
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-customer-channels-'));
  ({ services, dispatch } = await startAppServices(folder, { store: new MemoryStore(), keychain: 'os' }));
  profileId = (await services.profiles.save({ name: 'Acme', baseUrl: simulator.url })).id;
  const { username, password } = passwordOf(simulator, 'acme');
  const login = await dispatch('session:login', { profileId, username, password, remember: 'none' });
  if (!login.ok) throw new Error(`sign-in failed: ${JSON.stringify(login.error)}`);
}, 60_000);

afterAll(async () => {
  await services?.close();
  await simulator?.close();
  await rm(folder, { recursive: true, force: true });
});

/** Lists the customers until the list satisfies `done`, listing again after each `customers:changed`. */
async function listUntil(done: (names: Array<string | null>) => boolean) {
  for (;;) {
    // Listening before listing: a change told while the list is read is not missed.
    let stop = () => {};
    const changed = new Promise<void>((resolve) => {
      stop = services.events.on('customers:changed', () => resolve());
    });
    const answer = await dispatch('customers:list');
    const value = answer.value as {
      customers: Array<{ name: string | null }>;
      subCustomersCount: number | null;
    };
    if (done(value.customers.map((customer) => customer.name))) {
      stop();
      return value;
    }
    await changed;
    stop();
  }
}

describe('customers channels', () => {
  it('lists the account’s customer and both its sub-customers by name, with subCustomersCount', async () => {
    const listed = await listUntil(
      (names) => names.includes('Acme Water North') && names.includes('Acme Water South'),
    );
    expect(listed.customers.map((customer) => customer.name).sort()).toEqual([
      'Acme Water',
      'Acme Water North',
      'Acme Water South',
    ]);
    const again = await dispatch('customers:list');
    expect((again.value as { subCustomersCount: number }).subCustomersCount).toBe(2);
  });

  it('adds a customer from a link of the profile’s server and refuses one of another server', async () => {
    const north = customersOf(simulator).acme.subCustomers[0]!;
    const elsewhere = await dispatch('customers:add', {
      text: `https://oam.example.com/customers/${north.id}`,
    });
    expect(elsewhere).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining("this profile's server") },
    });
    const added = await dispatch('customers:add', {
      text: `${simulator.url}/customers/${north.id}/gateways`,
    });
    expect(added).toMatchObject({ ok: true, value: { id: north.id, name: north.name, nameState: 'read' } });
  });

  it('says a customer outside the account’s scope cannot be seen', async () => {
    const { globex } = customersOf(simulator);
    const refused = await dispatch('customers:add', { text: globex.id });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: `Your account may not see customer ${globex.id}: it is not yours or one of your sub-customers.`,
      },
    });
  });
});
