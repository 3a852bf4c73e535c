import { describe, expect, it } from 'vitest';
import { SimulatorError } from '../../../../simulator/failure';
import { INSTALL_STATUS } from '../../../../simulator/gateways/state';
import { createTestFleet, healthyGateway, TEST_COMMAND_TIMEOUT_MS, TEST_TIMINGS } from '../world-factory';

type Versions = { packages: Array<{ name: string; ver: string }> };

describe('gateway fault switches', () => {
  it('leaves the next commands unanswered (408 after the command timeout) while online, then answers', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    fleet.faultsOf(gateway).unansweredCommands = 2;
    for (const command of ['getBspStatus', 'getWmApns']) {
      const answer = run(gateway, command).catch((error: unknown) => error);
      await Promise.resolve();
      clock.advance(TEST_COMMAND_TIMEOUT_MS);
      const error = await answer;
      expect(error).toBeInstanceOf(SimulatorError);
      expect(error).toMatchObject({ status: 408, errorCode: 2 });
      expect((error as Error).message).toMatch(new RegExp(`did not answer ${command} within`));
      expect((error as Error).message).not.toContain('offline');
    }
    expect(fleet.statusOf(gateway)).toBe('ONLINE');
    expect(await run(gateway, 'getBspStatus')).toMatchObject({ status: 'OK' });
  });

  it('refuses the commands it is told to with 400, errorCode 30, and carries out none of them', async () => {
    const { tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    fleet.faultsOf(gateway).refusedCommands.add('setPreferredPingIpAddress');
    await expect(run(gateway, 'setPreferredPingIpAddress', { ipAddr: '1.1.1.1' })).rejects.toMatchObject({
      status: 400,
      errorCode: 30,
      message: 'setPreferredPingIpAddress refused',
    });
    expect(await run(gateway, 'getPreferredPingIpAddress')).toEqual({ ipAddr: '8.8.8.8' });
  });

  it('answers OK to an ignored change and keeps the value it had', async () => {
    const { tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const faults = fleet.faultsOf(gateway);
    faults.ignoredChanges.add('setPreferredPingIpAddress');
    faults.ignoredChanges.add('getPreferredPingIpAddress');
    expect(await run(gateway, 'setPreferredPingIpAddress', { ipAddr: '1.1.1.1' })).toEqual({ status: 'OK' });
    // A read is never "ignored": it answers what the gateway has.
    expect(await run(gateway, 'getPreferredPingIpAddress')).toEqual({ ipAddr: '8.8.8.8' });
    faults.ignoredChanges.clear();
    await run(gateway, 'setPreferredPingIpAddress', { ipAddr: '1.1.1.1' });
    expect(await run(gateway, 'getPreferredPingIpAddress')).toEqual({ ipAddr: '1.1.1.1' });
  });

  it('runs an upgrade to "succeeded" through its reboot without moving any version when it keeps versions', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    fleet.faultsOf(gateway).keepsVersions = true;
    const before = (await run(gateway, 'getSoftwareVersions')) as Versions;
    await run(gateway, 'upgradeSoftware', { packageToUpgrade: 'kona-pkt-forwarder' });
    clock.advance(TEST_TIMINGS.downloadMs + TEST_TIMINGS.installMs);
    expect(fleet.statusOf(gateway)).toBe('OFFLINE');
    clock.advance(TEST_TIMINGS.rebootMs);
    expect(await run(gateway, 'getLastInstallUpgradeStatus')).toEqual({
      lastOperation: 'upgrade kona-pkt-forwarder',
      lastStatus: INSTALL_STATUS.SUCCEEDED,
    });
    expect(await run(gateway, 'getSoftwareVersions')).toEqual(before);
    expect(before.packages).toContainEqual({ name: 'kona-pkt-forwarder', ver: '4.2.1' });
  });

  it('runs an upgrade to "failed" through its reboot without moving any version when it fails installs', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    fleet.faultsOf(gateway).failsInstalls = true;
    const before = (await run(gateway, 'getSoftwareVersions')) as Versions;
    await run(gateway, 'upgradeSoftware', { packageToUpgrade: 'kona-pkt-forwarder' });
    clock.advance(TEST_TIMINGS.downloadMs + TEST_TIMINGS.installMs + TEST_TIMINGS.rebootMs);
    expect(await run(gateway, 'getLastInstallUpgradeStatus')).toEqual({
      lastOperation: 'upgrade kona-pkt-forwarder',
      lastStatus: INSTALL_STATUS.FAILED,
    });
    expect(await run(gateway, 'getSoftwareVersions')).toEqual(before);
  });

  it('moves every package of an upgrade but the kept ones, and says "succeeded"', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    fleet.faultsOf(gateway).keptPackages.add('lte-modem-manager');
    const offered = fleet.stateOf(gateway).packages;
    for (const item of offered)
      if (item.name === 'kona-pkt-forwarder' || item.name === 'lte-modem-manager')
        Object.assign(item, { newVer: item.name === 'lte-modem-manager' ? '2.6.1' : '4.3.0', special: 0 });
    await run(gateway, 'upgradeSoftware', { packageToUpgrade: 'all' });
    clock.advance(TEST_TIMINGS.downloadMs + TEST_TIMINGS.installMs + TEST_TIMINGS.rebootMs);
    expect(await run(gateway, 'getLastInstallUpgradeStatus')).toEqual({
      lastOperation: 'upgrade all',
      lastStatus: INSTALL_STATUS.SUCCEEDED,
    });
    const after = (await run(gateway, 'getSoftwareVersions')) as Versions;
    expect(after.packages).toContainEqual({ name: 'kona-pkt-forwarder', ver: '4.3.0' });
    expect(after.packages).toContainEqual({ name: 'lte-modem-manager', ver: '2.5.0' });
  });
});
