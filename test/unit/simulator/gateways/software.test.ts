import { describe, expect, it } from 'vitest';
import { INSTALL_STATUS } from '../../../../simulator/gateways/state';
import { NEWEST_BSP_VERSION } from '../../../../simulator/tenant';
import { createTestFleet, findGateway, healthyGateway, TEST_TIMINGS } from '../world-factory';

type Status = { lastOperation: string; lastStatus: number; progress?: number; phase?: string };
type Upgradable = Array<{ name: string; ver: string; newVer: string }>;

describe('simulated software', () => {
  it('shows upgrade progress over time, reboots, then reports success with the new versions', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = findGateway(
      tenant,
      (candidate) => !candidate.isOfflineFromStart && candidate.bspVersion !== NEWEST_BSP_VERSION,
    );
    await run(gateway, 'upgradeSoftware', { packageToUpgrade: 'all' });
    clock.advance(TEST_TIMINGS.downloadMs / 2);
    const early = (await run(gateway, 'getLastInstallUpgradeStatus')) as Status;
    clock.advance(TEST_TIMINGS.downloadMs);
    const later = (await run(gateway, 'getLastInstallUpgradeStatus')) as Status;
    expect(early).toMatchObject({
      lastOperation: 'upgrade all',
      lastStatus: INSTALL_STATUS.IN_PROGRESS,
      phase: 'downloading',
    });
    expect(later.phase).toBe('installing');
    expect(later.progress).toBeGreaterThan(early.progress ?? 0);
    clock.advance(TEST_TIMINGS.installMs);
    expect(fleet.statusOf(gateway)).toBe('OFFLINE');
    clock.advance(TEST_TIMINGS.rebootMs);
    expect(await run(gateway, 'getLastInstallUpgradeStatus')).toEqual({
      lastOperation: 'upgrade all',
      lastStatus: INSTALL_STATUS.SUCCEEDED,
    });
    expect(await run(gateway, 'getUpgradableSoftware')).toEqual([]);
    expect(fleet.bspVersionOf(gateway)).toBe(NEWEST_BSP_VERSION);
  });

  it('installs a package from the installable list and then lists it as installed', async () => {
    const { clock, tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const [first] = (await run(gateway, 'getInstallableSoftware')) as Array<{ name: string; ver: string }>;
    await run(gateway, 'installSoftware', { packageToInstall: first!.name });
    clock.advance(TEST_TIMINGS.downloadMs + TEST_TIMINGS.installMs + TEST_TIMINGS.rebootMs);
    const { packages } = (await run(gateway, 'getSoftwareVersions')) as { packages: Array<{ name: string }> };
    expect(packages.map((item) => item.name)).toContain(first!.name);
    expect(await run(gateway, 'getInstallableSoftware')).not.toContainEqual(first);
  });

  it('refuses a package that is not in the installable list', async () => {
    const { tenant, run } = createTestFleet();
    await expect(
      run(healthyGateway(tenant), 'installSoftware', { packageToInstall: 'no-such-package' }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('packageToInstall'),
    });
  });

  it('refuses a second operation while one is running', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    const upgradable = (await run(gateway, 'getUpgradableSoftware')) as Upgradable;
    await run(gateway, 'upgradeSoftware', { packageToUpgrade: upgradable[0]!.name });
    await expect(run(gateway, 'upgradeSoftware', { packageToUpgrade: 'all' })).rejects.toMatchObject({
      status: 400,
    });
  });
});
