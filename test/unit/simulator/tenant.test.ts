import { describe, expect, it } from 'vitest';
import { EVENT_NAMES as SPEC_EVENT_NAMES } from '../../../electron/shared/api/events';
import { describeFixture as describeWithRelay } from '../../../simulator/fixture';
import { describeRelay } from '../../../simulator/index';
import {
  BSP_VERSIONS,
  createTenant,
  EVENT_SEVERITIES,
  EVENT_SOURCES,
  EVENT_STATES,
  EVENT_TYPES,
  NEWEST_BSP_VERSION,
  type TenantOptions,
} from '../../../simulator/tenant';

const describeFixture = (tenant: ReturnType<typeof createTenant>) =>
  describeWithRelay(tenant, describeRelay(null));

const OPTIONS: TenantOptions = {
  seed: 1,
  gateways: 24,
  devices: 200,
  customers: 2,
  offlineFraction: 0.1,
  nowMs: Date.UTC(2026, 0, 1),
};

describe('demo tenant', () => {
  it('is the same for the same seed', () => {
    expect(describeFixture(createTenant(OPTIONS))).toEqual(describeFixture(createTenant(OPTIONS)));
  });

  it('has different ids for a different seed', () => {
    const first = describeFixture(createTenant(OPTIONS));
    const second = describeFixture(createTenant({ ...OPTIONS, seed: 2 }));
    expect(second.gateways[0]!.id).not.toBe(first.gateways[0]!.id);
  });

  it('has Acme Water with two sub-customers and Globex Energy, each with a demo account', () => {
    const fixture = describeFixture(createTenant(OPTIONS));
    const acme = fixture.customers.find((customer) => customer.name === 'Acme Water');
    const globex = fixture.customers.find((customer) => customer.name === 'Globex Energy');
    expect(acme?.subCustomers).toHaveLength(2);
    expect(fixture.accounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          username: 'provider@fieldkit.demo',
          password: 'demo-provider',
          role: 'PROVIDER_USER',
        }),
        expect.objectContaining({ username: 'tech@acme.demo', password: 'demo-tech', customerId: acme?.id }),
        expect.objectContaining({
          username: 'ops@globex.demo',
          password: 'demo-ops',
          customerId: globex?.id,
        }),
      ]),
    );
  });

  it('adds more customers when asked', () => {
    expect(describeFixture(createTenant({ ...OPTIONS, customers: 4 })).customers).toHaveLength(4);
  });

  it('has gateways on the newest and on older BSPs, and converters of both versions', () => {
    const fixture = describeFixture(createTenant(OPTIONS));
    const versions = new Set(fixture.gateways.map((gateway) => gateway.bspVersion));
    expect(versions).toContain(NEWEST_BSP_VERSION);
    const known = new Set<string>(BSP_VERSIONS);
    expect([...versions].some((version) => version !== NEWEST_BSP_VERSION && known.has(version))).toBe(true);
    expect(new Set(fixture.converters.map((converter) => converter.version))).toEqual(new Set([1, 2]));
  });

  it('gives every gateway a label password', () => {
    const fixture = describeFixture(createTenant(OPTIONS));
    expect(fixture.gateways.every((gateway) => gateway.rootPassword.length >= 12)).toBe(true);
  });

  it('has events of every name, source, type, severity and state of the spec', () => {
    const { events } = createTenant(OPTIONS);
    expect(new Set(events.map((event) => event.eventName))).toEqual(new Set(SPEC_EVENT_NAMES));
    expect(new Set(events.map((event) => event.source))).toEqual(new Set(EVENT_SOURCES));
    expect(new Set(events.map((event) => event.eventType))).toEqual(new Set(EVENT_TYPES));
    expect(new Set(events.map((event) => event.severity))).toEqual(new Set(EVENT_SEVERITIES));
    expect(new Set(events.map((event) => event.state))).toEqual(new Set(EVENT_STATES));
  });

  it('builds 10,000 gateways and 100,000 devices in seconds', () => {
    const started = performance.now();
    const tenant = createTenant({ ...OPTIONS, gateways: 10_000, devices: 100_000 });
    expect(tenant.devices).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
