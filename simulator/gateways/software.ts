import { UPGRADE_ALL_PACKAGES } from '../../electron/shared/api/assumptions';
import { badArgument } from '../failure';
import type { CommandHandlers } from './context';
import { INSTALL_STATUS, type GatewayState } from './state';

/** Software commands: versions, upgradable and installable lists, install/upgrade with progress, BSP status. */
export const softwareCommands: CommandHandlers<
  | 'getSoftwareVersions'
  | 'getUpgradableSoftware'
  | 'getInstallableSoftware'
  | 'upgradeSoftware'
  | 'installSoftware'
  | 'getLastInstallUpgradeStatus'
  | 'getBspStatus'
> = {
  getSoftwareVersions({ state }) {
    return { bspVersion: state.bspVersion, packages: state.packages.map(({ name, ver }) => ({ name, ver })) };
  },

  getUpgradableSoftware({ state }) {
    return state.packages
      .filter((item) => item.newVer !== undefined)
      .map(({ name, ver, newVer, special }) => ({
        name,
        ver,
        newVer: newVer as string,
        special: special ?? 0,
      }));
  },

  getInstallableSoftware({ state }) {
    return state.installable.map(({ name, ver }) => ({ name, ver }));
  },

  upgradeSoftware({ state, now, timings }, { packageToUpgrade }) {
    refuseWhileBusy(state);
    const upgradable = state.packages.filter((item) => item.newVer !== undefined);
    const isAll = packageToUpgrade.toLowerCase() === UPGRADE_ALL_PACKAGES;
    const chosen = isAll ? upgradable : upgradable.filter((item) => item.name === packageToUpgrade);
    if (chosen.length === 0) {
      throw badArgument(
        isAll
          ? 'Nothing to upgrade: every package is up to date'
          : `packageToUpgrade: ${packageToUpgrade} is not in the upgradable list`,
      );
    }
    startJob(
      state,
      now,
      timings,
      `upgrade ${isAll ? 'all' : packageToUpgrade}`,
      chosen.map((item) => ({ name: item.name, version: item.newVer as string })),
    );
    return { status: 'STARTED' };
  },

  installSoftware({ state, now, timings }, { packageToInstall }) {
    refuseWhileBusy(state);
    const item = state.installable.find((candidate) => candidate.name === packageToInstall);
    if (!item) throw badArgument(`packageToInstall: ${packageToInstall} is not in the installable list`);
    startJob(state, now, timings, `install ${packageToInstall}`, [{ name: item.name, version: item.ver }]);
    return { status: 'STARTED' };
  },

  getLastInstallUpgradeStatus({ state, now }) {
    const job = state.job;
    if (!job) return { ...state.lastInstall };
    const elapsed = now - job.startedAt;
    const phase = elapsed < job.downloadMs ? 'downloading' : 'installing';
    const progress = Math.min(99, Math.floor((elapsed / (job.downloadMs + job.installMs)) * 100));
    return { lastOperation: job.operation, lastStatus: INSTALL_STATUS.IN_PROGRESS, phase, progress };
  },

  getBspStatus({ state, now }) {
    return {
      bspVersion: state.bspVersion,
      status: 'OK',
      uptimeSeconds: Math.floor((now - state.bootedAt) / 1000),
      model: state.entity.gatewayModelName,
    };
  },
};

function refuseWhileBusy(state: GatewayState): void {
  if (state.job)
    throw badArgument(`An operation is in progress (${state.job.operation}); wait for it to finish`);
}

function startJob(
  state: GatewayState,
  now: number,
  timings: { downloadMs: number; installMs: number },
  operation: string,
  packages: Array<{ name: string; version: string }>,
): void {
  state.job = {
    operation,
    packages,
    startedAt: now,
    downloadMs: timings.downloadMs,
    installMs: timings.installMs,
  };
  state.lastInstall = { lastOperation: operation, lastStatus: INSTALL_STATUS.IN_PROGRESS };
}
