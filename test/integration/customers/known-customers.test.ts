import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator';
import { sessionCustomerReader } from '../../../electron/app/domains/customers';
import { CustomerStore, KnownCustomers } from '../../../electron/services/customers';
import type { Session } from '../../../electron/services/session';
import { customersOf, loginAs, startTestSimulator } from '../../helpers/simulator';

// The first look for sub-customers against the simulator: a customer user with two sub-customers learns both,
// by name, from its events; a customer outside its scope cannot be added.

let simulator: RunningSimulator;
let session: Session;
let dataDir: string;

beforeAll(async () => {
  simulator = await startTestSimulator({ gateways: 60 });
  session = await loginAs(simulator, 'acme');
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-customers-'));
}, 60_000);

afterAll(async () => {
  await simulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function reader() {
  return sessionCustomerReader({ requireSession: () => session }, { now: () => simulator.clock.now() });
}

describe('KnownCustomers against the simulator', () => {
  it("finds the account's sub-customers from its events and names them", async () => {
    const customers = new KnownCustomers({ store: new CustomerStore({ dataDir }) });
    const { acme } = customersOf(simulator);
    const count = await customers.discover('sign-in', 'demo', acme.id, reader());
    expect(count).toBe(2);
    await customers.nameMissing('demo', reader());
    const names = (await customers.list('demo')).map((customer) => customer.name).sort();
    expect(names).toEqual(['Acme Water', 'Acme Water North', 'Acme Water South']);
  });

  it("refuses to add a customer outside the account's scope and keeps nothing", async () => {
    const customers = new KnownCustomers({ store: new CustomerStore({ dataDir }) });
    const { globex } = customersOf(simulator);
    await expect(customers.add('refused', globex.id, reader())).rejects.toMatchObject({ status: 403 });
    expect(await customers.list('refused')).toEqual([]);
  });
});
