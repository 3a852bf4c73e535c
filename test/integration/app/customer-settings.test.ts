import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerSettingsHandlers } from '../../../electron/app/domains/customer-settings';
import type { Session } from '../../../electron/services/session';
import type { RunningSimulator } from '../../../simulator';
import { loginAs, startTestSimulator } from '../../helpers/simulator';

// The token lifetimes of a customer through the channels' handlers, against the simulator.

let simulator: RunningSimulator;
let session: Session;
let customerId: string;

beforeAll(async () => {
  simulator = await startTestSimulator();
  session = await loginAs(simulator, 'acme');
  customerId = session.info().customerId!;
});

afterAll(async () => {
  session.logout();
  await simulator.close();
});

const handlers = createCustomerSettingsHandlers({ sessions: { requireSession: () => session } });
const read = (input: { customerId: string }) =>
  handlers['customer:token-lifetimes-read'](input, { channel: 'customer:token-lifetimes-read' });
const save = (input: { customerId: string; accessTokenTtlSeconds: number; refreshTokenTtlSeconds: number }) =>
  handlers['customer:token-lifetimes-save'](input, { channel: 'customer:token-lifetimes-save' });

describe('customer token lifetimes', () => {
  it('saves both lifetimes, keeps the other keys of additionalInfo, and answers what it read back', async () => {
    const customer = await session.call('getCustomer', { params: { customerId } });
    await session.call('saveCustomer', {
      params: {},
      body: { ...customer, additionalInfo: JSON.stringify({ installer: 'Bob', accessTokenTtlSeconds: 60 }) },
    });

    const before = await read({ customerId });
    expect(before).toMatchObject({ customerId, accessTokenTtlSeconds: 60 });
    expect(before.refreshTokenTtlSeconds).toBeUndefined();

    const saved = await save({
      customerId,
      accessTokenTtlSeconds: 1_800,
      refreshTokenTtlSeconds: 172_800,
    });
    expect(saved).toEqual({
      customerId,
      name: before.name,
      accessTokenTtlSeconds: 1_800,
      refreshTokenTtlSeconds: 172_800,
    });
    const stored = await session.call('getCustomer', { params: { customerId } });
    const info: unknown =
      typeof stored.additionalInfo === 'string' ? JSON.parse(stored.additionalInfo) : stored.additionalInfo;
    expect(info).toMatchObject({ installer: 'Bob', accessTokenTtlSeconds: 1_800 });
  });

  it('says in words when the customer is not one the user may read', async () => {
    await expect(read({ customerId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({
      code: expect.any(String),
      message: expect.stringMatching(/\w+ \w+/),
    });
  });
});
