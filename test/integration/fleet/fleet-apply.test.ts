import { afterEach, describe, expect, it } from 'vitest';
import { parseFirewall } from '../../../electron/services/commissioning';
import {
  FleetJob,
  listGroupTargets,
  type FleetChange,
  type FleetJobOptions,
  type FleetTarget,
} from '../../../electron/services/fleet';
import { MemoryAuditSink } from '../../../electron/services/audit';
import { buildSiteReportHtml } from '../../../electron/services/reports';
import type { GatewayCommander } from '../../../electron/services/commissioning';
import type { Session } from '../../../electron/services/session';
import type { RunningSimulator } from '../../../simulator';
import { confirmedFor } from '../../helpers/fleet-confirmation';
import { startSimulatorSession } from '../commissioning/simulator-session';

/** A job the technician confirmed for exactly its gateways. */
function confirmedJob(change: FleetChange, targets: FleetTarget[], options: FleetJobOptions): FleetJob {
  return new FleetJob(change, targets, { confirmation: confirmedFor(change, targets), ...options });
}

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
    const job = confirmedJob(
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
    expect(counts.done + counts.unchanged + counts.failed + counts.unknown + counts.skipped).toBe(ids.length);
    expect(counts.failed).toBeGreaterThan(0);
    for (const row of result.rows.filter((item) => item.status === 'failed'))
      expect(row.reason).toMatch(
        /^(not applied \(reading back shows the previous value\): )?The server failed \(503\): Simulated server failure/,
      );
    const offline = new Set(
      simulator.fixture.gateways
        .filter((gateway) => gateway.initialStatus === 'OFFLINE')
        .map((gateway) => gateway.id),
    );
    for (const row of result.rows.filter((item) => item.status === 'skipped'))
      expect(offline.has(row.gatewayId)).toBe(true);
    // What the table says was done is what the gateways hold.
    const world = simulator.world;
    const burstLimit = (gatewayId: string) =>
      parseFirewall(world.fleet.stateOf(world.fleet.entityOf(gatewayId)).configuration.firewall).doSPrevention
        .burstLimit;
    for (const row of result.rows.filter((item) => item.status === 'done'))
      expect(burstLimit(row.gatewayId)).toBe(77);
    for (const row of result.rows.filter((item) => item.status === 'failed'))
      expect(burstLimit(row.gatewayId)).not.toBe(77);
  });

  it('re-runs exactly the gateways that failed or are unknown and no other', async () => {
    const started = await startSimulatorSession({
      gateways: 30,
      failRate: 0.3,
      commandTimeoutMs: 200,
      seed: 3,
    });
    simulator = started.simulator;
    const online = simulator.fixture.gateways.filter((gateway) => gateway.initialStatus === 'ONLINE');
    const first = confirmedJob(
      { kind: 'pingTarget', ipAddr: '9.9.9.9' },
      online.map((gateway) => ({ gatewayId: gateway.id })),
      jobOptions(started.session, { maxAttempts: 1 }),
    );
    const firstResult = await first.run();
    // A gateway whose change went out unconfirmed is "unknown": it is re-run too (each run reads first).
    const failed = firstResult.rows
      .filter((row) => row.status === 'failed' || row.status === 'unknown')
      .map((row) => row.gatewayId);
    expect(failed.length).toBeGreaterThan(0);
    const again = first.retryFailed({ confirmation: { gatewayCount: failed.length } });
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
    const result = await confirmedJob(
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

  it('with --drop-after-rate 1 reports every gateway applied and verified by reading back', async () => {
    const started = await startSimulatorSession({ gateways: 12, dropAfterRate: 1, commandTimeoutMs: 200 });
    simulator = started.simulator;
    const online = simulator.fixture.gateways.filter((gateway) => gateway.initialStatus === 'ONLINE');
    const change: FleetChange = { kind: 'pingTarget', ipAddr: '9.9.9.9' };
    const targets = online.map((gateway) => ({ gatewayId: gateway.id }));
    const result = await confirmedJob(change, targets, jobOptions(started.session)).run();
    expect(result.rows.map((row) => row.status)).toEqual(online.map(() => 'done'));
    for (const row of result.rows) expect(row.reason).toMatch(/reading back .*shows the change/);
    const world = simulator.world;
    for (const gateway of online)
      expect(world.fleet.stateOf(world.fleet.entityOf(gateway.id)).configuration.preferredPingIp).toBe(
        '9.9.9.9',
      );
  });

  it('with --drop-after-rate 1 and the gateway gone offline after the change says "unknown", never "failed"', async () => {
    const started = await startSimulatorSession({
      gateways: 6,
      dropAfterRate: 1,
      commandTimeoutMs: 200,
      rebootMs: 600_000,
    });
    simulator = started.simulator;
    const world = simulator.world;
    const online = simulator.fixture.gateways.filter((gateway) => gateway.initialStatus === 'ONLINE');
    // The gateway restarts right after it took the change (its answer already lost to the cut connection).
    const commander: GatewayCommander = {
      command: async (gatewayId, name, request, options) => {
        try {
          return await started.session.command(gatewayId, name, request, options);
        } finally {
          if (name === 'setPreferredPingIpAddress') world.fleet.reboot(world.fleet.entityOf(gatewayId));
        }
      },
    };
    const change: FleetChange = { kind: 'pingTarget', ipAddr: '9.9.9.9' };
    const targets = online.map((gateway) => ({ gatewayId: gateway.id }));
    const audit = new MemoryAuditSink();
    const result = await confirmedJob(
      change,
      targets,
      jobOptions(started.session, { commander, audit }),
    ).run();
    expect(result.rows.map((row) => row.status)).toEqual(online.map(() => 'unknown'));
    for (const row of result.rows)
      expect(row.reason).toMatch(/^sent; the gateway did not confirm — re-read it/);
    expect(result.counts.failed).toBe(0);
    expect(audit.entries.map((entry) => entry.outcome)).toEqual(online.map(() => 'unknown'));
    // The site report says what the table and the audit log say.
    const html = await buildSiteReportHtml({
      technician: 'provider@fieldkit.demo',
      profileId: 'demo',
      gateways: [],
      startedAt: 0,
      endedAt: Date.now(),
      entries: audit.entries,
    });
    // Each gateway's outcome is said twice: on page one and in its own section.
    expect(html.match(/<span class="unknown">unknown<\/span>/g)).toHaveLength(2 * online.length);
    expect(html).toContain('sent; the gateway did not confirm — re-read it');
    expect(html).not.toContain('class="failed"');
  });

  it('follows a software upgrade through each restart and says done only once the new versions read back', async () => {
    const started = await startSimulatorSession({
      gateways: 12,
      upgradeMs: 300,
      rebootMs: 800,
      commandTimeoutMs: 100,
      offlineFraction: 0,
    });
    simulator = started.simulator;
    const world = simulator.world;
    const online = simulator.fixture.gateways
      .filter((gateway) => gateway.initialStatus === 'ONLINE')
      .slice(0, 6);
    const change: FleetChange = { kind: 'softwareUpgrade', packageName: 'kona-pkt-forwarder' };
    const targets = online.map((gateway) => ({ gatewayId: gateway.id, name: gateway.name }));
    const audit = new MemoryAuditSink();
    const job = confirmedJob(change, targets, jobOptions(started.session, { audit, pollIntervalMs: 50 }));
    const runningWords = new Set<string>();
    const doneWhileOffline: string[] = [];
    job.on('row', ({ row }) => {
      if (row.status === 'running' && row.reason) runningWords.add(row.reason);
      if (row.status === 'done' && world.fleet.statusOf(world.fleet.entityOf(row.gatewayId)) !== 'ONLINE')
        doneWhileOffline.push(row.gatewayId);
    });
    const result = await job.run();
    expect(doneWhileOffline).toEqual([]);
    expect(result.rows.map((row) => row.status)).toEqual(online.map(() => 'done'));
    for (const row of result.rows) {
      expect(row.reason).toBe('upgraded and read back: kona-pkt-forwarder 4.2.1 → 4.3.0');
      expect(row.before).toEqual({ 'kona-pkt-forwarder': '4.2.1' });
      expect(row.after).toEqual({ 'kona-pkt-forwarder': '4.3.0' });
    }
    // While it ran, each row said what the gateway was doing: installing, then restarting.
    expect([...runningWords]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^upgrading: (downloading|installing) \d+ %$/),
        'not answering (it restarts to finish the upgrade): waiting for the gateway to answer again',
      ]),
    );
    for (const gateway of online) {
      const state = world.fleet.stateOf(world.fleet.entityOf(gateway.id));
      expect(state.packages.find((item) => item.name === 'kona-pkt-forwarder')?.ver).toBe('4.3.0');
    }
    expect(audit.entries.map((entry) => entry.outcome)).toEqual(online.map(() => 'ok'));
    const html = await buildSiteReportHtml({
      technician: 'provider@fieldkit.demo',
      profileId: 'demo',
      gateways: [],
      startedAt: 0,
      endedAt: Date.now(),
      entries: audit.entries,
    });
    // The report names the change in words, and each package with its versions before and after, as read back.
    expect(html).toContain('Fleet: software upgrade');
    expect(html).not.toContain('softwareUpgrade');
    expect(
      html.match(
        /<tr><td>kona-pkt-forwarder<\/td><td><code>4\.2\.1<\/code> → <code>4\.3\.0<\/code><\/td><td><span class="verified">/g,
      ),
    ).toHaveLength(online.length);
  });

  it('says "unknown", never done, for an upgraded gateway that does not answer again in time', async () => {
    const started = await startSimulatorSession({
      gateways: 6,
      upgradeMs: 200,
      rebootMs: 600_000,
      commandTimeoutMs: 100,
      offlineFraction: 0,
    });
    simulator = started.simulator;
    const online = simulator.fixture.gateways
      .filter((gateway) => gateway.initialStatus === 'ONLINE')
      .slice(0, 3);
    const change: FleetChange = { kind: 'softwareUpgrade' };
    const targets = online.map((gateway) => ({ gatewayId: gateway.id }));
    const audit = new MemoryAuditSink();
    const result = await confirmedJob(
      change,
      targets,
      jobOptions(started.session, { audit, pollIntervalMs: 50, gatewayReturnTimeoutMs: 1_500 }),
    ).run();
    expect(result.rows.map((row) => row.status)).toEqual(online.map(() => 'unknown'));
    for (const row of result.rows) {
      expect(row.reason).toMatch(
        /^upgrade started \(.*kona-pkt-forwarder 4\.2\.1 → 4\.3\.0.*\); the gateway did not answer again within 2 sec .*— outcome unknown: re-read the gateway's software when it answers$/,
      );
    }
    expect(result.counts.done).toBe(0);
    expect(result.message).toContain('3 unknown (sent, not confirmed: re-read)');
    expect(audit.entries.map((entry) => entry.outcome)).toEqual(online.map(() => 'unknown'));
  });
});
