import { describe, expect, it } from 'vitest';
import { SimulatorError } from '../../../../simulator/failure';
import { NEWEST_BSP_VERSION } from '../../../../simulator/tenant';
import {
  createTestFleet,
  findGateway,
  healthyGateway,
  TEST_COMMAND_TIMEOUT_MS,
  TEST_TIMINGS,
} from '../world-factory';

describe('GatewayFleet', () => {
  it('takes a rebooted gateway offline for the reboot time, then brings it back online', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'reboot');
    expect(fleet.statusOf(gateway)).toBe('OFFLINE');
    clock.advance(TEST_TIMINGS.rebootMs);
    expect(fleet.statusOf(gateway)).toBe('ONLINE');
  });

  it('answers 408 with errorCode 2 after the command timeout when the gateway is offline', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'reboot');
    const answer = run(gateway, 'getWmApns').catch((error: unknown) => error);
    await Promise.resolve();
    clock.advance(TEST_COMMAND_TIMEOUT_MS);
    const error = await answer;
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error).toMatchObject({ status: 408, errorCode: 2 });
  });

  it('does not answer an offline gateway before the command timeout has passed', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = findGateway(tenant, (candidate) => candidate.isOfflineFromStart);
    let settled = false;
    const answer = run(gateway, 'getBackups').catch(() => (settled = true));
    await Promise.resolve();
    clock.advance(TEST_COMMAND_TIMEOUT_MS - 1);
    await Promise.resolve();
    expect(settled).toBe(false);
    clock.advance(1);
    await answer;
    expect(settled).toBe(true);
  });

  it('refuses a newest-BSP-only command on an older BSP with a 400 naming the BSP', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = findGateway(
      tenant,
      (candidate) => !candidate.isOfflineFromStart && candidate.bspVersion !== NEWEST_BSP_VERSION,
    );
    await expect(run(gateway, 'getWmNetworkInfo')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(NEWEST_BSP_VERSION),
    });
  });

  it('refuses a body that breaks the catalogue with a 400 naming each failing field', async () => {
    const { tenant, run } = createTestFleet();
    const error = await run(healthyGateway(tenant), 'ping', {
      packetsCount: 0,
      destination: 'http://x:80',
    }).catch((caught) => caught);
    expect(error).toMatchObject({ status: 400, errorCode: 30 });
    expect((error as SimulatorError).issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['packetsCount', 'destination']),
    );
  });

  it('validates the body before telling that the gateway is offline', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = findGateway(tenant, (candidate) => candidate.isOfflineFromStart);
    await expect(run(gateway, 'createBackup', { description: '' })).rejects.toMatchObject({ status: 400 });
  });

  it('takes deleteWmApn as a bare integer', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'addWmApn', { name: 'spare.example' });
    await run(gateway, 'deleteWmApn', 1);
    const { apns } = (await run(gateway, 'getWmApns')) as { apns: Array<{ name: string }> };
    expect(apns.map((apn) => apn.name)).not.toContain('spare.example');
  });
});

describe('GatewayFleet outage events', () => {
  it('raises an Offline GATEWAY_SHUTDOWN_ALARM on reboot and clears it when the gateway is back', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const rebootedAt = clock.now();
    await run(gateway, 'reboot');
    const raised = tenant.events.filter(
      (event) => event.entityId === gateway.id && event.state === 'Raised' && event.startTs === rebootedAt,
    );
    expect(raised).toEqual([
      expect.objectContaining({
        eventName: 'GATEWAY_SHUTDOWN_ALARM',
        eventType: 'Offline',
        source: 'GATEWAY',
        endTs: null,
      }),
    ]);
    clock.advance(TEST_TIMINGS.rebootMs);
    fleet.refreshOutages();
    expect(raised[0]).toMatchObject({ state: 'Clear', endTs: rebootedAt + TEST_TIMINGS.rebootMs });
  });
});
