import { describe, expect, it } from 'vitest';
import { MODEM_ATTACH_MS } from '../../../../simulator/gateways/state';
import { NEWEST_BSP_VERSION } from '../../../../simulator/tenant';
import { createTestFleet, findGateway, healthyGateway } from '../world-factory';

type CallStatistics = { callStatus: string; bytesReceived: number };
type Profile = { apnName: string; ipAddress: string };

describe('simulated modem', () => {
  it('has a data call with an IP address when its working APN matches the SIM', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const statistics = (await run(gateway, 'getWmCallStatistics')) as CallStatistics;
    const profile = (await run(gateway, 'getWmActiveProfileParameters')) as Profile;
    expect(statistics.callStatus).toBe('CONNECTED');
    expect(profile.apnName).toBe(gateway.simApn);
    expect(profile.ipAddress).toMatch(/^10\.64\.\d+\.\d+$/);
  });

  it('stays NOT CONNECTED with a wrong APN and connects once the right APN is added', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = findGateway(
      tenant,
      (candidate) => !candidate.isOfflineFromStart && candidate.hasEthernetLink && candidate.index % 4 === 1,
    );
    expect(((await run(gateway, 'getWmCallStatistics')) as CallStatistics).callStatus).toBe('NOT CONNECTED');
    expect(((await run(gateway, 'getWmActiveProfileParameters')) as Profile).ipAddress).toBe('0.0.0.0');
    await run(gateway, 'addWmApn', { name: gateway.simApn });
    expect(((await run(gateway, 'getWmStatusApn')) as { status: string }).status).toBe('NOT CONNECTED');
    clock.advance(MODEM_ATTACH_MS);
    expect(((await run(gateway, 'getWmCallStatistics')) as CallStatistics).callStatus).toBe('CONNECTED');
    const { workingIdx, apns } = (await run(gateway, 'getWmApns')) as {
      workingIdx: number;
      apns: Array<{ name: string; idx: number }>;
    };
    expect(apns.find((apn) => apn.idx === workingIdx)?.name).toBe(gateway.simApn);
  });

  it('loses its data call when the working APN is renamed to a wrong one', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'updateWmApn', { name: 'wrong.example', type: 0, idxModem: 1, idx: 0 });
    clock.advance(MODEM_ATTACH_MS);
    expect(((await run(gateway, 'getWmCallStatistics')) as CallStatistics).callStatus).toBe('NOT CONNECTED');
  });

  it('counts more bytes the longer the call lasts', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const before = (await run(gateway, 'getWmCallStatistics')) as CallStatistics;
    clock.advance(60_000);
    const after = (await run(gateway, 'getWmCallStatistics')) as CallStatistics;
    expect(after.bytesReceived).toBeGreaterThan(before.bytesReceived);
  });

  it('reports RF values that vary over time within plausible ranges', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const readings: Array<{ signalStrength: number; sinr: number; rsrq: number }> = [];
    for (let step = 0; step < 20; step++) {
      readings.push((await run(gateway, 'getWmRfInformation')) as (typeof readings)[number]);
      clock.advance(2_000);
    }
    expect(new Set(readings.map((reading) => reading.signalStrength)).size).toBeGreaterThan(1);
    for (const reading of readings) {
      expect(reading.signalStrength).toBeGreaterThanOrEqual(-110);
      expect(reading.signalStrength).toBeLessThanOrEqual(-60);
      expect(reading.rsrq).toBeLessThan(0);
    }
  });

  it('reports cellid only on the newest BSP', async () => {
    const { tenant, run } = createTestFleet();
    const newest = healthyGateway(tenant);
    const older = findGateway(
      tenant,
      (candidate) => !candidate.isOfflineFromStart && candidate.bspVersion !== NEWEST_BSP_VERSION,
    );
    expect(await run(newest, 'getWmRfInformation')).toHaveProperty('cellid');
    expect(await run(older, 'getWmRfInformation')).not.toHaveProperty('cellid');
  });

  it('switches the current network to the preferred one', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'setWmPreferredNetwork', { mcc: '302', mnc: '610' });
    const { availableNetworks } = (await run(gateway, 'getWmNetworkInfo')) as {
      availableNetworks: Array<{ mnc: string; active: string }>;
    };
    expect(availableNetworks.find((network) => network.active === 'Current')?.mnc).toBe('610');
  });

  it('refuses a preferred network that is not in range', async () => {
    const { tenant, run } = createTestFleet();
    await expect(
      run(healthyGateway(tenant), 'setWmPreferredNetwork', { mcc: '999', mnc: '99' }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('refuses to update or delete an APN index that does not exist', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await expect(
      run(gateway, 'updateWmApn', { name: 'x', type: 0, idxModem: 1, idx: 42 }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(run(gateway, 'deleteWmApn', 42)).rejects.toMatchObject({ status: 400 });
  });
});
