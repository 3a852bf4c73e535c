import { describe, expect, it } from 'vitest';
import { createTestFleet, findGateway, healthyGateway, TEST_TIMINGS } from '../world-factory';

type Ping = { packets_sent: number; packets_recv: number };

describe('simulated WAN links', () => {
  it('lists Ethernet preferred and Cellular fallback by default', async () => {
    const { tenant, run } = createTestFleet();
    expect(await run(healthyGateway(tenant), 'getConnectivityTypes')).toEqual([
      { index: 0, type: 'Ethernet', preferred: true, fallback: false },
      { index: 1, type: 'Cellular', preferred: false, fallback: true },
    ]);
  });

  it('answers every ping packet over a working link', async () => {
    const { tenant, run } = createTestFleet();
    expect(await run(healthyGateway(tenant), 'ping', { packetsCount: 3, destination: '8.8.8.8' })).toEqual({
      packets_sent: 3,
      packets_recv: 3,
    });
  });

  it('receives no ping packets from an unreachable destination', async () => {
    const { tenant, run } = createTestFleet();
    const ping = (await run(healthyGateway(tenant), 'ping', {
      packetsCount: 4,
      destination: '192.0.2.1',
    })) as Ping;
    expect(ping.packets_recv).toBe(0);
  });

  it('pings over the cellular fallback when the Ethernet link is down', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = findGateway(
      tenant,
      (candidate) => !candidate.isOfflineFromStart && !candidate.hasEthernetLink,
    );
    const ping = (await run(gateway, 'ping', { packetsCount: 2, destination: 'example.com' })) as Ping;
    expect(ping.packets_recv).toBe(2);
  });

  it('reboots itself and restores its links when a change leaves no working link', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = findGateway(
      tenant,
      (candidate) => !candidate.isOfflineFromStart && !candidate.hasEthernetLink,
    );
    const answer = (await run(gateway, 'setPreferredFallbackConnectivityType', {
      preferredIdx: 0,
      fallbackIdx: 0,
    })) as { status: string };
    expect(answer.status).toContain('rebooting');
    expect(fleet.statusOf(gateway)).toBe('OFFLINE');
    clock.advance(TEST_TIMINGS.rebootMs);
    expect(fleet.statusOf(gateway)).toBe('ONLINE');
    const types = (await run(gateway, 'getConnectivityTypes')) as Array<{ index: number; fallback: boolean }>;
    expect(types.find((type) => type.fallback)?.index).toBe(1);
  });

  it('stores the preferred ping address', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'setPreferredPingIpAddress', { ipAddr: '1.1.1.1' });
    expect(await run(gateway, 'getPreferredPingIpAddress')).toEqual({ ipAddr: '1.1.1.1' });
  });

  it('refuses a connectivity index that is not a link', async () => {
    const { tenant, run } = createTestFleet();
    await expect(
      run(healthyGateway(tenant), 'setPreferredFallbackConnectivityType', {
        preferredIdx: 5,
        fallbackIdx: 0,
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('preferredIdx') });
  });

  it('keeps the firewall configuration it was given', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const configuration = {
      enabled: true,
      doSPrevention: { enabled: false, perMinLimit: 10, burstLimit: 20 },
      ssh: { enabled: false },
      ping: { enabled: true, limit: { enabled: true, pingPerMinLimit: 5, pingBurstLimit: 2 } },
      filters: [{ port: 22, action: 'DROP' }],
    };
    await run(gateway, 'setFirewallConfiguration', configuration);
    expect(await run(gateway, 'getFirewallConfiguration')).toEqual(configuration);
  });
});
