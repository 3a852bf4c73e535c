import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/services/api';
import type { GatewayCommander } from '../../../../electron/services/commissioning';
import { INSTALL_STATUS } from '../../../../electron/services/commissioning/gateway-tasks';
import {
  FleetJob,
  followUpgrade,
  type FleetChange,
  type FleetJobOptions,
  type FleetTarget,
} from '../../../../electron/services/fleet';
import { gatewayCommands } from '../../../../electron/shared/api/commands';
import { commanderAnswering } from '../../../helpers/commander';
import { confirmedFor } from '../../../helpers/fleet-confirmation';
import { ManualClock } from '../../../helpers/manual-clock';

interface FakeSoftwareOptions {
  /** Package versions installed, by name. */
  installed?: Record<string, string>;
  /** Newer versions offered, by name. */
  offered?: Record<string, string>;
  /** How the upgrade ends: every package moves, none moves (FAILED), or only the first offered moves. */
  ending?: 'succeeded' | 'failed' | 'partly';
  /** Status reads answered "in progress", then reads unanswered (restarting), after the upgrade starts. */
  installingReads?: number;
  awayReads?: number;
  /** An install already running on the gateway when the job starts (not the job's). */
  isBusy?: boolean;
  /** The answer to upgradeSoftware is lost (503) after the gateway took it. */
  losesUpgradeAnswer?: boolean;
}

/** One gateway's software as the fleet job sees it: an upgrade installs, restarts, then reads back. */
function createFakeSoftware(options: FakeSoftwareOptions = {}) {
  const installed = { ...(options.installed ?? { 'kona-pkt-forwarder': '4.2.1', 'gps-daemon': '1.0.4' }) };
  const offered = { ...(options.offered ?? { 'kona-pkt-forwarder': '4.3.0' }) };
  let status: { lastOperation: string; lastStatus: number } = options.isBusy
    ? { lastOperation: 'install wireguard-tools', lastStatus: INSTALL_STATUS.IN_PROGRESS }
    : { lastOperation: 'install gps-daemon', lastStatus: INSTALL_STATUS.SUCCEEDED };
  let reads = -1;
  const sent: string[] = [];
  const finish = () => {
    const ending = options.ending ?? 'succeeded';
    const moving =
      ending === 'failed' ? [] : Object.keys(offered).slice(0, ending === 'partly' ? 1 : undefined);
    for (const name of moving) {
      installed[name] = offered[name] as string;
      delete offered[name];
    }
    status = {
      lastOperation: status.lastOperation,
      lastStatus: ending === 'failed' ? INSTALL_STATUS.FAILED : INSTALL_STATUS.SUCCEEDED,
    };
    reads = -1;
  };
  const commander = commanderAnswering(async ({ gatewayId, name, request }) => {
    await Promise.resolve();
    sent.push(name);
    switch (name) {
      case 'getLastInstallUpgradeStatus': {
        if (reads < 0) return status;
        reads++;
        const installing = options.installingReads ?? 2;
        if (reads <= installing)
          return { ...status, phase: 'installing', progress: (reads * 100) / (installing + 1) };
        if (reads <= installing + (options.awayReads ?? 2))
          throw new ApiError(408, 2, 'The gateway did not answer', name);
        finish();
        return status;
      }
      case 'getUpgradableSoftware':
        return Object.entries(offered).map(([item, newVer]) => ({
          name: item,
          ver: installed[item],
          newVer,
          special: 0,
        }));
      case 'getSoftwareVersions':
        return {
          bspVersion: '6.0.2',
          packages: Object.entries(installed).map(([item, ver]) => ({ name: item, ver })),
        };
      case 'upgradeSoftware':
        if (status.lastStatus === INSTALL_STATUS.IN_PROGRESS)
          throw new ApiError(400, 1, 'An operation is in progress', name);
        status = {
          lastOperation: `upgrade ${gatewayCommands.upgradeSoftware.request.parse(request).packageToUpgrade}`,
          lastStatus: INSTALL_STATUS.IN_PROGRESS,
        };
        reads = 0;
        if (options.losesUpgradeAnswer) throw new ApiError(503, 0, 'The answer was lost', name);
        return { status: 'STARTED' };
      default:
        throw new ApiError(404, 32, `unexpected ${name} on ${gatewayId}`, name);
    }
  });
  return { commander, installed, sent };
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
    const software = createFakeSoftware({ ending: 'failed' });
    const result = await upgradeJob(software.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'failed',
      reason:
        'not upgraded: the gateway reports it failed (upgrade all) and still runs kona-pkt-forwarder 4.2.1',
      before: { 'kona-pkt-forwarder': '4.2.1' },
      after: { 'kona-pkt-forwarder': '4.2.1' },
    });
  });

  it('says partly upgraded, naming what moved and what did not, when only some packages moved', async () => {
    const software = createFakeSoftware({
      ending: 'partly',
      installed: { 'kona-pkt-forwarder': '4.2.1', 'lte-modem-manager': '2.5.0' },
      offered: { 'kona-pkt-forwarder': '4.3.0', 'lte-modem-manager': '2.6.1' },
    });
    const result = await upgradeJob(software.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]?.status).toBe('failed');
    expect(result.rows[0]?.reason).toBe(
      'partly upgraded: kona-pkt-forwarder 4.2.1 → 4.3.0; still lte-modem-manager 2.5.0 (the gateway is back: upgrade all)',
    );
  });

  it('follows the upgrade it sent when the answer was lost, and never sends a second one', async () => {
    const software = createFakeSoftware({ losesUpgradeAnswer: true });
    const result = await upgradeJob(software.commander, {
      kind: 'softwareUpgrade',
      packageName: 'kona-pkt-forwarder',
    }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'done',
      reason: 'upgraded and read back: kona-pkt-forwarder 4.2.1 → 4.3.0',
    });
    expect(software.sent.filter((name) => name === 'upgradeSoftware')).toHaveLength(1);
  });

  it('starts nothing and says why when another install is already under way on the gateway', async () => {
    const software = createFakeSoftware({ isBusy: true });
    const result = await upgradeJob(software.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(
        /^Not started: an install or upgrade is already under way on the gateway \(install wireguard-tools\)/,
      ),
    });
    expect(software.sent).not.toContain('upgradeSoftware');
  });

  it('says nothing to upgrade, and sends nothing, when every package is up to date', async () => {
    const software = createFakeSoftware({ offered: {} });
    const result = await upgradeJob(software.commander, { kind: 'softwareUpgrade' }).run();
    expect(result.rows[0]).toMatchObject({
      status: 'unchanged',
      reason: 'nothing to upgrade: every package is up to date',
    });
    expect(software.sent).not.toContain('upgradeSoftware');
  });

  it('ends unknown, not cancelled or done, when following is cancelled while the gateway restarts', async () => {
    const software = createFakeSoftware({ awayReads: 1_000 });
    const job = upgradeJob(software.commander, { kind: 'softwareUpgrade' });
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
    const fleet = new Map(
      Array.from({ length: 8 }, (_, index): [string, ReturnType<typeof createFakeSoftware>] => [
        `gw-${index}`,
        createFakeSoftware(),
      ]),
    );
    const commander: GatewayCommander = {
      command: (gatewayId, name, request, options) => {
        const gateway = fleet.get(gatewayId);
        if (!gateway) throw new ApiError(404, 32, `There is no gateway ${gatewayId}.`, name);
        return gateway.commander.command(gatewayId, name, request, options);
      },
    };
    const change: FleetChange = { kind: 'softwareUpgrade' };
    const gateways = [...fleet.keys()].map((gatewayId) => ({ gatewayId }));
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
    const clock = new ManualClock(1_000);
    let answer: (status: unknown) => void = () => undefined;
    const versions = { 'kona-pkt-forwarder': '4.2.1' };
    const commander = commanderAnswering(({ name }) => {
      if (name === 'getLastInstallUpgradeStatus') return new Promise((resolve) => (answer = resolve));
      if (name === 'getSoftwareVersions')
        return { packages: Object.entries(versions).map(([item, ver]) => ({ name: item, ver })) };
      return [];
    });
    const said: string[] = [];
    const following = followUpgrade(
      commander,
      'gw-1',
      {
        packages: [{ name: 'kona-pkt-forwarder', from: '4.2.1', to: '4.3.0' }],
        previousStatus: { lastOperation: 'install gps-daemon', lastStatus: INSTALL_STATUS.SUCCEEDED },
      },
      { clock, signal: new AbortController().signal, onProgress: (words) => said.push(words) },
    );
    clock.advance(2_999);
    expect(said).toEqual([]);
    clock.advance(1);
    expect(said).toEqual([
      'not answering (it restarts to finish the upgrade): waiting for the gateway to answer again',
    ]);
    versions['kona-pkt-forwarder'] = '4.3.0';
    answer({ lastOperation: 'upgrade all', lastStatus: INSTALL_STATUS.SUCCEEDED });
    expect(await following).toMatchObject({
      status: 'done',
      reason: 'upgraded and read back: kona-pkt-forwarder 4.2.1 → 4.3.0',
    });
  });
});
