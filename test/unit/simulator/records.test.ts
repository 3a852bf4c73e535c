import { describe, expect, it } from 'vitest';
import { GatewayJsonCache, renderGateway } from '../../../simulator/records';
import { createTestFleet, healthyGateway, TEST_TIMINGS } from './world-factory';

describe('GatewayJsonCache', () => {
  it('serializes a gateway exactly as its record, also after its status changes', () => {
    const { clock, tenant, fleet } = createTestFleet();
    const cache = new GatewayJsonCache(tenant, fleet);
    const gateway = healthyGateway(tenant);
    expect(cache.jsonOf(gateway)).toBe(JSON.stringify(renderGateway(tenant, fleet, gateway)));
    fleet.reboot(gateway);
    expect(JSON.parse(cache.jsonOf(gateway)).status).toBe('OFFLINE');
    clock.advance(TEST_TIMINGS.rebootMs + 60_000);
    expect(cache.jsonOf(gateway)).toBe(JSON.stringify(renderGateway(tenant, fleet, gateway)));
    expect(JSON.parse(cache.jsonOf(gateway))).toMatchObject({
      status: 'ONLINE',
      lastSeenTime: expect.any(Number),
    });
  });
});
