import {
  FirewallConfigurationSchema,
  IpAddressSchema,
  UPGRADE_ALL_PACKAGES,
  type FirewallConfiguration,
} from '../../shared/api';
import type { FleetChangeInput, FleetFirewallPatch } from '../../shared/ipc/domains/commissioning';
import { INSTALL_STATUS } from '../commissioning/gateway-tasks';
import { describeFleetChange } from '../commissioning/risk-guards';
import type { GatewayCommander } from '../commissioning/types';
import { parseFirewall } from '../commissioning/wizards/firewall';

/** Firewall settings to apply on every gateway: fields given replace the gateway's, the rest are kept. */
export type FirewallPatch = FleetFirewallPatch;

/** A change a fleet job applies to each gateway. Plain data, so it can cross IPC. */
export type FleetChange = FleetChangeInput;

/** What applying a change to one gateway did: `changed` false when it already had the settings. */
export interface GatewayChangeOutcome {
  changed: boolean;
  before?: unknown;
  after?: unknown;
  detail: string;
}

/** A change could not be confirmed by reading back. Not transient: retrying would do the same. */
export class ReadBackMismatchError extends Error {
  override readonly name = 'ReadBackMismatchError';
}

/** The change in words, for the job's title and the audit log. */
export function describeChange(change: FleetChange): string {
  return describeFleetChange(change);
}

/** Problems with the change itself, found before any gateway is touched. */
export function validateChange(change: FleetChange): string[] {
  switch (change.kind) {
    case 'firewall': {
      const merged = mergeFirewall(
        {
          enabled: true,
          doSPrevention: { enabled: true, perMinLimit: 0, burstLimit: 0 },
          ssh: { enabled: true },
          ping: { enabled: true, limit: { enabled: false, pingPerMinLimit: 0, pingBurstLimit: 0 } },
          filters: [],
        },
        change.patch,
      );
      const result = FirewallConfigurationSchema.safeParse(merged);
      return result.success
        ? []
        : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    }
    case 'apn':
      return change.name.trim() === '' ? ['The APN name is empty'] : [];
    case 'pingTarget':
      return IpAddressSchema.safeParse(change.ipAddr).success
        ? []
        : [`${change.ipAddr} is not an IP address`];
    case 'softwareUpgrade':
      return change.packageName !== undefined && change.packageName.trim() === ''
        ? ['The package name is empty']
        : [];
  }
}

/** The gateway's firewall with the patch laid over it. */
export function mergeFirewall(current: FirewallConfiguration, patch: FirewallPatch): FirewallConfiguration {
  return {
    ...current,
    ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    doSPrevention: { ...current.doSPrevention, ...patch.doSPrevention },
    ssh: { ...current.ssh, ...patch.ssh },
    ping: {
      ...current.ping,
      ...(patch.ping?.enabled === undefined ? {} : { enabled: patch.ping.enabled }),
      limit: { ...current.ping.limit, ...patch.ping?.limit },
    },
    filters: patch.filters ?? current.filters,
  };
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/**
 * Applies a change to one gateway: reads, changes only what differs, reads back. Safe to repeat after a lost
 * answer (each attempt starts by reading), which is what lets a fleet job retry it.
 */
export async function applyChange(
  commander: GatewayCommander,
  gatewayId: string,
  change: FleetChange,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<GatewayChangeOutcome> {
  switch (change.kind) {
    case 'firewall': {
      const before = parseFirewall(
        await commander.command(gatewayId, 'getFirewallConfiguration', {}, options),
      );
      const wanted = mergeFirewall(before, change.patch);
      if (same(before, wanted)) return { changed: false, before, after: before, detail: 'already set' };
      await commander.command(gatewayId, 'setFirewallConfiguration', wanted, options);
      const after = parseFirewall(
        await commander.command(gatewayId, 'getFirewallConfiguration', {}, options),
      );
      if (!same(after, wanted))
        throw new ReadBackMismatchError('The firewall read back differs from what was set');
      return { changed: true, before, after, detail: 'firewall set and read back' };
    }
    case 'pingTarget': {
      const before = await commander.command(gatewayId, 'getPreferredPingIpAddress', {}, options);
      if (before.ipAddr === change.ipAddr)
        return { changed: false, before: before.ipAddr, after: before.ipAddr, detail: 'already set' };
      await commander.command(gatewayId, 'setPreferredPingIpAddress', { ipAddr: change.ipAddr }, options);
      const after = await commander.command(gatewayId, 'getPreferredPingIpAddress', {}, options);
      if (after.ipAddr !== change.ipAddr)
        throw new ReadBackMismatchError(`The ping target reads ${after.ipAddr}`);
      return {
        changed: true,
        before: before.ipAddr,
        after: after.ipAddr,
        detail: 'ping target set and read back',
      };
    }
    case 'apn': {
      // The working APN is renamed (the modem uses it); a gateway without any APN gets one added.
      const { apns, workingIdx } = await commander.command(gatewayId, 'getWmApns', {}, options);
      const working = apns.find((apn) => apn.idx === workingIdx) ?? apns[0];
      if (working?.name === change.name)
        return { changed: false, before: working.name, after: working.name, detail: 'already set' };
      if (working)
        await commander.command(
          gatewayId,
          'updateWmApn',
          { name: change.name, type: working.type, idxModem: working.idxModem, idx: working.idx },
          options,
        );
      else await commander.command(gatewayId, 'addWmApn', { name: change.name }, options);
      const after = await commander.command(gatewayId, 'getWmApns', {}, options);
      if (!after.apns.some((apn) => apn.name === change.name))
        throw new ReadBackMismatchError(`APN ${change.name} is not in the list read back`);
      return {
        changed: true,
        before: working?.name ?? null,
        after: change.name,
        detail: 'APN set and read back (the modem re-attaches)',
      };
    }
    case 'softwareUpgrade': {
      const packageName = change.packageName ?? UPGRADE_ALL_PACKAGES;
      // A retry after a lost answer finds the upgrade it started under way: that is not a second upgrade.
      const last = await commander.command(gatewayId, 'getLastInstallUpgradeStatus', {}, options);
      if (last.lastStatus === INSTALL_STATUS.IN_PROGRESS)
        return {
          changed: false,
          detail: `an install or upgrade is already under way (${last.lastOperation})`,
        };
      const upgradable = await commander.command(gatewayId, 'getUpgradableSoftware', {}, options);
      const relevant =
        packageName === UPGRADE_ALL_PACKAGES
          ? upgradable
          : upgradable.filter((item) => item.name === packageName);
      if (relevant.length === 0) return { changed: false, detail: 'nothing to upgrade' };
      await commander.command(gatewayId, 'upgradeSoftware', { packageToUpgrade: packageName }, options);
      return {
        changed: true,
        before: relevant.map((item) => `${item.name} ${item.ver}`),
        after: relevant.map((item) => `${item.name} ${item.newVer}`),
        detail: 'upgrade started (the gateway installs it and restarts)',
      };
    }
  }
}

/**
 * Reads the gateway and says whether the change holds on it (true) or not (false): what a row says after a write
 * whose answer was lost. Throws when the gateway cannot be read; then nobody knows. An upgrade holds once it is
 * under way or the package is no longer upgradable.
 */
export async function isChangeApplied(
  commander: GatewayCommander,
  gatewayId: string,
  change: FleetChange,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<boolean> {
  switch (change.kind) {
    case 'firewall': {
      const now = parseFirewall(await commander.command(gatewayId, 'getFirewallConfiguration', {}, options));
      return same(mergeFirewall(now, change.patch), now);
    }
    case 'pingTarget':
      return (
        (await commander.command(gatewayId, 'getPreferredPingIpAddress', {}, options)).ipAddr ===
        change.ipAddr
      );
    case 'apn': {
      const { apns } = await commander.command(gatewayId, 'getWmApns', {}, options);
      return apns.some((apn) => apn.name === change.name);
    }
    case 'softwareUpgrade': {
      const last = await commander.command(gatewayId, 'getLastInstallUpgradeStatus', {}, options);
      if (last.lastStatus === INSTALL_STATUS.IN_PROGRESS) return true;
      const upgradable = await commander.command(gatewayId, 'getUpgradableSoftware', {}, options);
      return change.packageName === undefined
        ? upgradable.length === 0
        : !upgradable.some((item) => item.name === change.packageName);
    }
  }
}
