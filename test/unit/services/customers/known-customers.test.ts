import { mkdtemp, readFile, rm, stat, writeFile, mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CustomerStore,
  KnownCustomers,
  customerIdsIn,
  type CustomerReader,
} from '../../../../electron/services/customers';
import {
  MAX_NAME_LOOKUPS,
  NAME_RETRY_AFTER_MS,
} from '../../../../electron/services/customers/known-customers';
import { makeGateway } from '../../../helpers/factories';
import { ManualClock } from '../../../helpers/manual-clock';

let dataDir: string;
let clock: ManualClock;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-customers-'));
  clock = new ManualClock(1_000_000);
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** A reader of names from a table; an id missing from it is refused, as a 404 would be. Counts the reads. */
function namesReader(names: Record<string, string>) {
  const asked: string[] = [];
  const reader: CustomerReader = {
    readCustomer: (customerId) => {
      asked.push(customerId);
      const name = names[customerId];
      return name === undefined
        ? Promise.reject(new Error(`no customer ${customerId}`))
        : Promise.resolve({ name, subCustomersCount: 0 });
    },
    readEvents: () => Promise.resolve({ data: [], hasNext: false }),
  };
  return { reader, asked };
}

function service(changes: string[] = []) {
  const store = new CustomerStore({ dataDir, clock });
  return new KnownCustomers({ store, clock, onChange: (profileId) => changes.push(profileId) });
}

describe('customerIdsIn', () => {
  it('reads the customer ids of a page of gateways, devices or events, once each', () => {
    const page = {
      data: [
        makeGateway(1, { customerId: { id: 'north', entityType: 'CUSTOMER' } }),
        makeGateway(2, { customerId: { id: 'north', entityType: 'CUSTOMER' } }),
        { customerId: 'south' },
        { customerId: null },
        'not a record',
      ],
    };
    expect(customerIdsIn(page)).toEqual(['north', 'south']);
    expect(customerIdsIn({ message: 'no data' })).toEqual([]);
  });
});

describe('KnownCustomers', () => {
  it('learns customers from a gateway list answer and ignores answers that list no records of a customer', async () => {
    const changes: string[] = [];
    const customers = service(changes);
    const page = { data: [makeGateway(1, { customerId: { id: 'north', entityType: 'CUSTOMER' } })] };
    await customers.learnFrom('demo', 'getCustomer', page);
    expect(await customers.list('demo')).toEqual([]);
    await customers.learnFrom('demo', 'listCustomerGateways', page);
    expect(await customers.list('demo')).toEqual([
      { id: 'north', name: null, nameState: 'pending', origin: 'seen' },
    ]);
    await customers.learnFrom('demo', 'listCustomerGateways', page);
    expect(changes).toEqual(['demo']);
  });

  it('keeps each profile’s list in its own 0600 file that a new service reads back', async () => {
    await service().learn('demo', ['north', 'south'], 'seen');
    await service().learn('other', ['globex'], 'account');
    const path = join(dataDir, 'customers', 'demo.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, 'customers'))).mode & 0o777).toBe(0o700);
    expect((await service().list('demo')).map((customer) => customer.id)).toEqual(['north', 'south']);
    expect((await service().list('other')).map((customer) => customer.id)).toEqual(['globex']);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ version: 1, profileId: 'demo' });
  });

  it('forgets a removed profile’s list and its file', async () => {
    const customers = service();
    await customers.learn('demo', ['north'], 'seen');
    await customers.forget('demo');
    expect(await readdir(join(dataDir, 'customers'))).toEqual([]);
    expect(await service().list('demo')).toEqual([]);
  });

  it('sets a damaged file aside and starts the profile’s list again', async () => {
    await mkdir(join(dataDir, 'customers'), { recursive: true });
    await writeFile(join(dataDir, 'customers', 'demo.json'), '{ not json');
    expect(await service().list('demo')).toEqual([]);
    expect(await readdir(join(dataDir, 'customers'))).toEqual([`demo.json.corrupt-${clock.now()}`]);
  });

  it('names at most MAX_NAME_LOOKUPS customers a round, and the rest in the next', async () => {
    const customers = service();
    const ids = Array.from({ length: MAX_NAME_LOOKUPS + 5 }, (_, index) => `customer-${index}`);
    const { reader, asked } = namesReader(Object.fromEntries(ids.map((id) => [id, `Name of ${id}`])));
    await customers.learn('demo', ids, 'seen');
    await customers.nameMissing('demo', reader);
    expect(asked).toHaveLength(MAX_NAME_LOOKUPS);
    await customers.nameMissing('demo', reader);
    expect(asked).toHaveLength(ids.length);
    const listed = await customers.list('demo');
    expect(listed.every((customer) => customer.nameState === 'read')).toBe(true);
    expect(listed[0]?.name).toBe('Name of customer-0');
  });

  it('keeps a name it could not read as "not read" and asks again only after NAME_RETRY_AFTER_MS', async () => {
    const customers = service();
    const names: Record<string, string> = {};
    const { reader, asked } = namesReader(names);
    await customers.learn('demo', ['north'], 'seen');
    await customers.nameMissing('demo', reader);
    expect(await customers.list('demo')).toEqual([
      { id: 'north', name: null, nameState: 'not-read', origin: 'seen', triedAt: clock.now() },
    ]);
    names.north = 'Acme Water North';
    clock.time += NAME_RETRY_AFTER_MS - 1;
    await customers.nameMissing('demo', reader);
    expect(asked).toEqual(['north']);
    clock.time += 1;
    await customers.nameMissing('demo', reader);
    expect((await customers.list('demo'))[0]).toMatchObject({ name: 'Acme Water North', nameState: 'read' });
  });

  it('adds a customer once the server named it, and keeps nothing for one it refused', async () => {
    const customers = service();
    const { reader } = namesReader({ north: 'Acme Water North' });
    await expect(customers.add('demo', 'elsewhere', reader)).rejects.toThrow('no customer elsewhere');
    expect(await customers.list('demo')).toEqual([]);
    await customers.add('demo', 'north', reader);
    expect(await customers.list('demo')).toEqual([
      { id: 'north', name: 'Acme Water North', nameState: 'read', origin: 'added', triedAt: clock.now() },
    ]);
  });

  it('takes in a pack’s customers: new ones, and names it read that this list lacks', async () => {
    const customers = service();
    await customers.learn('demo', ['north'], 'seen');
    await customers.merge('demo', [
      { id: 'north', name: 'Acme Water North', nameState: 'read', origin: 'seen' },
      { id: 'south', name: 'Acme Water South', nameState: 'read', origin: 'seen' },
    ]);
    expect(await customers.list('demo')).toEqual([
      { id: 'north', name: 'Acme Water North', nameState: 'read', origin: 'seen' },
      { id: 'south', name: 'Acme Water South', nameState: 'read', origin: 'pack' },
    ]);
  });
});
