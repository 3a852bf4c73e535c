import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/services/api';
import type { GatewayCommander } from '../../../../electron/services/commissioning';
import {
  FleetJob,
  followUpgrade,
  type FleetChange,
  type FleetJobOptions,
  type FleetTarget,
} from '../../../../electron/services/fleet';
import { interceptCommands } from '../../../helpers/commander';
import { confirmedFor } from '../../../helpers/fleet-confirmation';
import { ManualClock, SIMULATED_START_MS } from '../../../helpers/manual-clock';
import { createSimulatedFleet, createSimulatedGateway, driven } from '../../../helpers/simulated-gateway';

/**
 * The gateway of these tests: healthy but for its one upgrade (kona-pkt-forwarder 4.2.1 → 4.3.0), on its own
 * clock; an upgrade downloads and installs over four commands, then the gateway restarts for three.
 */
function staleGateway() {
  return createSimulatedGateway({ scenario: ['stale-software'] });
}

const target: FleetTarget[] = [{ gatewayId: 'gw-1', name: 'Gateway 1' }];

function upgradeJob(
  commander: GatewayCommander,
  change: FleetChange,
  overrides: Partial<FleetJobOptions> = {},
) {
  return new FleetJob(change, target, {
    commander,
    profileId: 'demo',
    user: 'tech@example.com',
    retryDelayMs: 1,
    retryMaxDelayMs: 2,
    pollIntervalMs: 1,
    random: () => 0.5,
    confirmation: confirmedFor(change, target),
    ...overrides,
  });
}

describe('FleetJob software upgrade', () => {
  it('says failed and names the old version when the gateway comes back still running it', async () => {
    const gateway = staleGateway();
    gateway.faults.failsInstalls = true;
    const result = await upgradeJob(gateway.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'failed',
      reason:
        'not upgraded: the gateway reports it failed (upgrade all) and still runs kona-pkt-forwarder 4.2.1',
      before: { 'kona-pkt-forwarder': '4.2.1' },
      after: { 'kona-pkt-forwarder': '4.2.1' },
    });
  });

  it('says partly upgraded, naming what moved and what did not, when only some packages moved', async () => {
    const gateway = staleGateway();
    gateway.offerUpgrades({ 'kona-pkt-forwarder': '4.3.0', 'lte-modem-manager': '2.6.1' });
    gateway.faults.keptPackages.add('lte-modem-manager');
    const result = await upgradeJob(gateway.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]?.status).toBe('failed');
    expect(result.rows[0]?.reason).toBe(
      'partly upgraded: kona-pkt-forwarder 4.2.1 → 4.3.0; still lte-modem-manager 2.5.0 (the gateway is back: upgrade all)',
    );
  });

  it('follows the upgrade it sent when the answer was lost, and never sends a second one', async () => {
    const gateway = staleGateway();
    // The gateway takes the upgrade; its answer is lost on the way back (the server fails after sending it on).
    interceptCommands(gateway.commander, async ({ name, forward }) => {
      const answer = await forward();
      if (name === 'upgradeSoftware') throw new ApiError(503, 0, 'The answer was lost', name);
      return answer;
    });
    const result = await upgradeJob(gateway.commander, {
      kind: 'softwareUpgrade',
      packageName: 'kona-pkt-forwarder',
    }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'done',
      reason: 'upgraded and read back: kona-pkt-forwarder 4.2.1 → 4.3.0',
    });
    expect(gateway.names().filter((name) => name === 'upgradeSoftware')).toHaveLength(1);
  });

  it('starts nothing and says why when another install is already under way on the gateway', async () => {
    const gateway = staleGateway();
    await gateway.commander.command(gateway.id, 'installSoftware', { packageToInstall: 'wireguard-tools' });
    const result = await upgradeJob(gateway.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(
        /^Not started: an install or upgrade is already under way on the gateway \(install wireguard-tools\)/,
      ),
    });
    expect(gateway.names()).not.toContain('upgradeSoftware');
  });

  it('says nothing to upgrade, and sends nothing, when every package is up to date', async () => {
    const gateway = createSimulatedGateway({ scenario: ['healthy'] });
    const result = await upgradeJob(gateway.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'unchanged',
      reason: 'nothing to upgrade: every package is up to date',
    });
    expect(gateway.names()).not.toContain('upgradeSoftware');
  });

  it('ends unknown, not cancelled or done, when following is cancelled while the gateway restarts', async () => {
    const gateway = staleGateway();
    const job = upgradeJob(gateway.commander, { kind: 'softwareUpgrade' });
    job.on('row', ({ row }) => {
      if (
        row.reason ===
        'not answering (it restarts to finish the upgrade): waiting for the gateway to answer again'
      )
        job.cancel();
    });
    const result = await job.run();
    expect(result.rows[0]?.status).toBe('unknown');
    expect(result.rows[0]?.reason).toBe(
      "upgrade started (kona-pkt-forwarder 4.2.1 → 4.3.0); following it was cancelled before the gateway finished — outcome unknown: re-read the gateway's software when it answers",
    );
  });

  it('upgrades at most a quarter of the gateways at a time when the technician does not say', async () => {
    const fleet = createSimulatedFleet(8, { scenario: ['stale-software'] });
    const commander = fleet.commander;
    const change: FleetChange = { kind: 'softwareUpgrade' };
    const gateways = fleet.gateways.map(({ id }) => ({ gatewayId: id }));
    const job = new FleetJob(change, gateways, {
      commander,
      profileId: 'demo',
      user: 'tech@example.com',
      pollIntervalMs: 1,
      confirmation: confirmedFor(change, gateways),
    });
    let mostAtOnce = 0;
    job.on('row', ({ counts }) => (mostAtOnce = Math.max(mostAtOnce, counts.running)));
    const result = await job.run();
    expect(result.counts.done).toBe(8);
    expect(mostAtOnce).toBe(2);
  });

  it('says the gateway is not answering while a progress read stays unanswered for 3 s', async () => {
    const clock = new ManualClock(SIMULATED_START_MS);
    // The gateway leaves a read unanswered for 10 s before the server gives up on it (408).
    const gateway = createSimulatedGateway({ scenario: ['stale-software'], clock, commandTimeoutMs: 10_000 });
    const { commander } = gateway;
    const previousStatus = await commander.command(gateway.id, 'getLastInstallUpgradeStatus', {});
    await commander.command(gateway.id, 'upgradeSoftware', { packageToUpgrade: 'kona-pkt-forwarder' });
    gateway.faults.unansweredCommands = 1;
    const said: string[] = [];
    const following = followUpgrade(
      commander,
      'gw-1',
      {
        packages: [{ name: 'kona-pkt-forwarder', from: '4.2.1', to: '4.3.0' }],
        previousStatus,
      },
      {
        clock,
        signal: new AbortController().signal,
        pollIntervalMs: 1_000,
        onProgress: (words) => said.push(words),
      },
    );
    clock.advance(2_999);
    expect(said).toEqual([]);
    clock.advance(1);
    expect(said).toEqual([
      'not answering (it restarts to finish the upgrade): waiting for the gateway to answer again',
    ]);
    // The read ends in 408; the gateway has meanwhile installed and restarted, and answers the next reads.
    expect(await driven(clock, following)).toMatchObject({
      status: 'done',
      reason: 'upgraded and read back: kona-pkt-forwarder 4.2.1 → 4.3.0',
    });
  });
});
