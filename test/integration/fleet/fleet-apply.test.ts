import { afterEach, describe, expect, it } from 'vitest';
import { parseFirewall } from '../../../electron/services/commissioning';
import { FleetJob, listGroupTargets, type FleetJobOptions } from '../../../electron/services/fleet';
import type { Session } from '../../../electron/services/session';
import type { RunningSimulator } from '../../../simulator';
import { startSimulatorSession } from '../commissioning/simulator-session';

describe('fleet apply against the simulator', () => {
  let simulator: RunningSimulator | undefined;
  afterEach(async () => {
    await simulator?.close();
    simulator = undefined;
  });

  const jobOptions = (session: Session, overrides: Partial<FleetJobOptions> = {}): FleetJobOptions => ({
    commander: session,
    profileId: 'demo',
    user: 'provider@fieldkit.demo',
    retryDelayMs: 20,
    retryMaxDelayMs: 100,
    commandTimeoutMs: 5_000,
    ...overrides,
  });

  it('accounts for every gateway under --fail-rate: changed, failed with a reason, or skipped as offline', async () => {
    const started = await startSimulatorSession({
      gateways: 80,
      failRate: 0.2,
      commandTimeoutMs: 200,
      seed: 7,
    });
    simulator = started.simulator;
    const ids = simulator.fixture.gateways.map((gateway) => gateway.id);
    const job = new FleetJob(
      { kind: 'firewall', patch: { doSPrevention: { burstLimit: 77 } } },
      ids.map((gatewayId) => ({ gatewayId })),
      jobOptions(started.session, { maxAttempts: 2 }),
    );
    // 16 commands in flight each listen for the job's cancellation: that is not a leak, and Node must not say so.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const result = await job.run().finally(() => process.off('warning', onWarning));
    expect(warnings).toEqual([]);
    expect(result.rows.map((row) => row.gatewayId)).toEqual(ids);
    const counts = result.counts;
    expect(counts.done + counts.unchanged + counts.failed + counts.skipped).toBe(ids.length);
    expect(counts.failed).toBeGreaterThan(0);
    for (const row of result.rows.filter((item) => item.status === 'failed'))
      expect(row.reason).toMatch(/^The server failed \(503\): Simulated server failure/);
    const offline = new Set(
      simulator.fixture.gateways
        .filter((gateway) => gateway.initialStatus === 'OFFLINE')
        .map((gateway) => gateway.id),
    );
    for (const row of result.rows.filter((item) => item.status === 'skipped'))
      expect(offline.has(row.gatewayId)).toBe(true);
    // What the table says was done is what the gateways hold.
    const world = simulator.world;
    for (const row of result.rows.filter((item) => item.status === 'done')) {
      const state = world.fleet.stateOf(world.fleet.entityOf(row.gatewayId));
      expect(parseFirewall(state.configuration.firewall).doSPrevention.burstLimit).toBe(77);
    }
  });

  it('re-runs exactly the gateways that failed and no other', async () => {
    const started = await startSimulatorSession({
      gateways: 30,
      failRate: 0.3,
      commandTimeoutMs: 200,
      seed: 3,
    });
    simulator = started.simulator;
    const online = simulator.fixture.gateways.filter((gateway) => gateway.initialStatus === 'ONLINE');
    const first = new FleetJob(
      { kind: 'pingTarget', ipAddr: '9.9.9.9' },
      online.map((gateway) => ({ gatewayId: gateway.id })),
      jobOptions(started.session, { maxAttempts: 1 }),
    );
    const firstResult = await first.run();
    const failed = firstResult.rows.filter((row) => row.status === 'failed').map((row) => row.gatewayId);
    expect(failed.length).toBeGreaterThan(0);
    const again = first.retryFailed();
    const secondResult = await again.run();
    expect(secondResult.rows.map((row) => row.gatewayId)).toEqual(failed);
  });

  it('expands a gateway group through the paging helpers and skips its offline gateways without sending', async () => {
    const started = await startSimulatorSession({
      gateways: 60,
      commandTimeoutMs: 200,
      offlineFraction: 0.3,
    });
    simulator = started.simulator;
    const groupId = simulator.fixture.gateways[0]!.gatewayGroupId;
    const members = simulator.fixture.gateways.filter((gateway) => gateway.gatewayGroupId === groupId);
    const targets = await listGroupTargets(started.session, groupId);
    expect(targets.map((target) => target.gatewayId).sort()).toEqual(
      members.map((gateway) => gateway.id).sort(),
    );
    const result = await new FleetJob(
      { kind: 'pingTarget', ipAddr: '1.0.0.1' },
      targets,
      jobOptions(started.session),
    ).run();
    const offline = members
      .filter((gateway) => gateway.initialStatus === 'OFFLINE')
      .map((gateway) => gateway.id);
    expect(
      result.rows
        .filter((row) => row.status === 'skipped')
        .map((row) => row.gatewayId)
        .sort(),
    ).toEqual(offline.sort());
    expect(result.counts.done).toBe(members.length - offline.length);
  });
});
