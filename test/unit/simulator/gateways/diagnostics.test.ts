import { describe, expect, it, vi } from 'vitest';
import { SPECTRAL_SCAN_DURATION_MS } from '../../../../simulator/gateways/diagnostics';
import type { ReverseTunnels } from '../../../../simulator/tunnels';
import { makeReverseSshRequest } from '../../../helpers/factories';
import { createTestFleet, healthyGateway, TEST_COMMAND_TIMEOUT_MS, TEST_TIMINGS } from '../world-factory';

type Counters = {
  numRxPackets: number;
  numTxPackets: number;
  rxCrcOkPackets: number;
  rxCrcErrPackets: number;
};

describe('simulated diagnostics', () => {
  it('grows the radio counters with time and resets them to zero', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const before = (await run(gateway, 'getRadioStatistics', { index: 0 })) as Counters;
    clock.advance(60_000);
    const after = (await run(gateway, 'getRadioStatistics', { index: 0 })) as Counters;
    expect(after.numRxPackets).toBeGreaterThan(before.numRxPackets);
    expect(after.rxCrcOkPackets + after.rxCrcErrPackets).toBe(after.numRxPackets);
    await run(gateway, 'resetRadioStatisticsCounters', undefined);
    expect(((await run(gateway, 'getRadioStatistics', { index: 0 })) as Counters).numRxPackets).toBe(0);
  });

  it('refuses a radio index the gateway does not have', async () => {
    const { tenant, run } = createTestFleet();
    await expect(run(healthyGateway(tenant), 'getRadioStatistics', { index: 7 })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('runs a spectral scan after boot whose progress grows, then offers its results', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'reboot');
    clock.advance(TEST_TIMINGS.rebootMs + SPECTRAL_SCAN_DURATION_MS / 4);
    const early = (await run(gateway, 'getSpectralScanProgress')) as { status: string; progress: number };
    clock.advance(SPECTRAL_SCAN_DURATION_MS / 2);
    const later = (await run(gateway, 'getSpectralScanProgress')) as { status: string; progress: number };
    expect(early.status).toBe('IN_PROGRESS');
    expect(later.progress).toBeGreaterThan(early.progress);
    expect(((await run(gateway, 'getSpectralScanResults')) as { channels: unknown[] }).channels).toEqual([]);
    clock.advance(SPECTRAL_SCAN_DURATION_MS);
    expect(await run(gateway, 'getSpectralScanProgress')).toMatchObject({
      status: 'COMPLETED',
      progress: 100,
    });
    const results = (await run(gateway, 'getSpectralScanResults')) as {
      channels: Array<{ frequency: number; rssiMax: number }>;
    };
    expect(results.channels.length).toBeGreaterThan(0);
  });

  it('moves the GPS fix by a few metres at most', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const first = (await run(gateway, 'getGpsCoordinates')) as { latitude: number; longitude: number };
    clock.advance(10_000);
    const second = (await run(gateway, 'getGpsCoordinates')) as { latitude: number; longitude: number };
    expect(Math.abs(first.latitude - second.latitude)).toBeLessThan(0.0001);
    expect(Math.abs(first.latitude - gateway.latitude)).toBeLessThan(0.0001);
  });

  it('opens a reverse tunnel through the hook with the validated request', async () => {
    const tunnels: ReverseTunnels = {
      openReverseTunnel: vi.fn(async () => undefined),
      closeTunnels: vi.fn(async () => undefined),
    };
    const { tenant, run } = createTestFleet({ tunnels });
    const gateway = healthyGateway(tenant);
    const request = makeReverseSshRequest();
    await run(gateway, 'reverseSsh', request);
    await run(gateway, 'stopReverseSsh');
    expect(tunnels.openReverseTunnel).toHaveBeenCalledWith(gateway.id, request);
    expect(tunnels.closeTunnels).toHaveBeenCalledWith(gateway.id);
  });

  it('refuses a reverse tunnel to a host that is not loopback', async () => {
    const { tenant, run } = createTestFleet();
    const request = makeReverseSshRequest({ sshHost: 'relay.example.com', sshPort: 22 });
    await expect(run(healthyGateway(tenant), 'reverseSsh', request)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('sshHost'),
    });
  });

  it('answers 400 with the hook message when the tunnel cannot be opened', async () => {
    const tunnels: ReverseTunnels = {
      openReverseTunnel: async () => {
        throw new Error('relay refused the password');
      },
      closeTunnels: async () => undefined,
    };
    const { tenant, run } = createTestFleet({ tunnels });
    const request = makeReverseSshRequest({ password: 'bad' });
    await expect(run(healthyGateway(tenant), 'reverseSsh', request)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('relay refused the password'),
    });
  });
});

describe('reverse SSH hook bounds', () => {
  it('answers 408 when the tunnel hook does not finish within the command timeout', async () => {
    const tunnels: ReverseTunnels = {
      openReverseTunnel: () => new Promise(() => undefined),
      closeTunnels: async () => undefined,
    };
    const { clock, tenant, run } = createTestFleet({ tunnels });
    const request = makeReverseSshRequest();
    const answer = run(healthyGateway(tenant), 'reverseSsh', request).catch((error: unknown) => error);
    await Promise.resolve();
    clock.advance(TEST_COMMAND_TIMEOUT_MS);
    expect(await answer).toMatchObject({ status: 408, errorCode: 2 });
  });
});
