import {
  FirewallConfigurationSchema,
  IpAddressSchema,
  UPGRADE_ALL_PACKAGES,
  type FirewallConfiguration,
} from '../../shared/api';
import type { FleetChangeInput, FleetFirewallPatch } from '../../shared/ipc/domains/fleet';
import { t, type MessageKey } from '../../shared/i18n';
import { recorded, type RecordedMessage } from '../../shared/i18n/recorded-message';
import { INSTALL_STATUS } from '../commissioning/gateway-tasks';
import { describeFleetChange } from './fleet-risk';
import type { GatewayCommander } from '../commissioning/types';
import { parseFirewall } from '../commissioning/wizards/firewall';
import { describeMoves } from '../commissioning/software-versions';
import { versionsBefore, type RequestedUpgrade } from './fleet-upgrade';

/** Firewall settings to apply on every gateway: fields given replace the gateway's, the rest are kept. */
export type FirewallPatch = FleetFirewallPatch;

/** A change a fleet job applies to each gateway. Plain data, so it can cross IPC. */
export type FleetChange = FleetChangeInput;

/**
 * What applying a change to one gateway did: `changed` false when it already had the settings. `upgrade`: the
 * gateway accepted an upgrade, which holds only once followUpgrade reads the new versions back.
 */
export interface GatewayChangeOutcome {
  changed: boolean;
  before?: unknown;
  after?: unknown;
  /** What was done, as data (written in the language of whoever reads it). */
  detail: RecordedMessage;
  upgrade?: RequestedUpgrade;
}

/** What one gateway's attempts share: the upgrade the first attempt asked for, so a retry follows that one. */
export interface ChangeAttemptNotes {
  requestedUpgrade?: RequestedUpgrade;
}

/** The gateway is busy with another install or upgrade: nothing was sent. Not transient within a job. */
export class GatewayBusyError extends Error {
  override readonly name = 'GatewayBusyError';
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
        : result.error.issues.map((issue) =>
            t('fleet:problemField', { field: issue.path.join('.'), problem: issue.message }),
          );
    }
    case 'apn':
      return change.name.trim() === '' ? [t('fleet:problemApnEmpty')] : [];
    case 'pingTarget':
      return IpAddressSchema.safeParse(change.ipAddr).success
        ? []
        : [t('fleet:problemNotIp', { value: change.ipAddr })];
    case 'softwareUpgrade':
      return change.packageName !== undefined && change.packageName.trim() === ''
        ? [t('fleet:problemPackageEmpty')]
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
 * answer (each attempt starts by reading), which is what lets a fleet job retry it. An upgrade is only started
 * here: the outcome carries it in `upgrade` for the job to follow; `notes` keeps it across attempts.
 */
export async function applyChange(
  commander: GatewayCommander,
  gatewayId: string,
  change: FleetChange,
  options: { signal?: AbortSignal; timeoutMs?: number; notes?: ChangeAttemptNotes },
): Promise<GatewayChangeOutcome> {
  switch (change.kind) {
    case 'firewall': {
      const before = parseFirewall(
        await commander.command(gatewayId, 'getFirewallConfiguration', {}, options),
      );
      const wanted = mergeFirewall(before, change.patch);
      if (same(before, wanted))
        return { changed: false, before, after: before, detail: recorded('fleet:alreadySet') };
      await commander.command(gatewayId, 'setFirewallConfiguration', wanted, options);
      const after = parseFirewall(
        await commander.command(gatewayId, 'getFirewallConfiguration', {}, options),
      );
      if (!same(after, wanted)) throw new ReadBackMismatchError(t('fleet:firewallMismatch'));
      return { changed: true, before, after, detail: recorded('fleet:firewallSet') };
    }
    case 'pingTarget': {
      const before = await commander.command(gatewayId, 'getPreferredPingIpAddress', {}, options);
      if (before.ipAddr === change.ipAddr)
        return {
          changed: false,
          before: before.ipAddr,
          after: before.ipAddr,
          detail: recorded('fleet:alreadySet'),
        };
      await commander.command(gatewayId, 'setPreferredPingIpAddress', { ipAddr: change.ipAddr }, options);
      const after = await commander.command(gatewayId, 'getPreferredPingIpAddress', {}, options);
      if (after.ipAddr !== change.ipAddr)
        throw new ReadBackMismatchError(t('fleet:pingTargetMismatch', { address: after.ipAddr }));
      return {
        changed: true,
        before: before.ipAddr,
        after: after.ipAddr,
        detail: recorded('fleet:pingTargetSet'),
      };
    }
    case 'apn': {
      // The working APN is renamed (the modem uses it); a gateway without any APN gets one added.
      const { apns, workingIdx } = await commander.command(gatewayId, 'getWmApns', {}, options);
      const working = apns.find((apn) => apn.idx === workingIdx) ?? apns[0];
      if (working?.name === change.name)
        return {
          changed: false,
          before: working.name,
          after: working.name,
          detail: recorded('fleet:alreadySet'),
        };
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
        throw new ReadBackMismatchError(t('fleet:apnMismatch', { name: change.name }));
      return {
        changed: true,
        before: working?.name ?? null,
        after: change.name,
        detail: recorded('fleet:apnSet'),
      };
    }
    case 'softwareUpgrade': {
      const packageName = change.packageName ?? UPGRADE_ALL_PACKAGES;
      const notes = options.notes ?? {};
      const last = await commander.command(gatewayId, 'getLastInstallUpgradeStatus', {}, options);
      // A retry after a lost answer finds the upgrade it started under way: follow it, never start a second.
      if (last.lastStatus === INSTALL_STATUS.IN_PROGRESS) {
        if (notes.requestedUpgrade) return upgradeStarted(notes.requestedUpgrade, 'fleet:upgradeUnderWay');
        throw new GatewayBusyError(t('fleet:gatewayBusy', { operation: last.lastOperation }));
      }
      const upgradable = await commander.command(gatewayId, 'getUpgradableSoftware', {}, options);
      const relevant =
        packageName === UPGRADE_ALL_PACKAGES
          ? upgradable
          : upgradable.filter((item) => item.name === packageName);
      if (relevant.length === 0) {
        // An earlier attempt's upgrade may have finished while its answer was lost: reading versions tells.
        if (notes.requestedUpgrade) return upgradeStarted(notes.requestedUpgrade, 'fleet:upgradeSentEarlier');
        return {
          changed: false,
          detail:
            packageName === UPGRADE_ALL_PACKAGES
              ? recorded('fleet:nothingToUpgrade')
              : recorded('fleet:packageNotOffered', { packageName }),
        };
      }
      notes.requestedUpgrade ??= {
        packages: relevant.map((item) => ({ name: item.name, from: item.ver, to: item.newVer })),
        previousStatus: { lastOperation: last.lastOperation, lastStatus: last.lastStatus },
      };
      await commander.command(gatewayId, 'upgradeSoftware', { packageToUpgrade: packageName }, options);
      return upgradeStarted(notes.requestedUpgrade, 'fleet:upgradeStarted');
    }
  }
}

/** An upgrade the gateway accepted: the fleet job follows it (followUpgrade) before it says anything holds. */
function upgradeStarted(requested: RequestedUpgrade, state: MessageKey): GatewayChangeOutcome {
  return {
    changed: true,
    before: versionsBefore(requested),
    detail: recorded('fleet:upgradeInstalls', {
      state: recorded(state),
      packages: describeMoves(requested.packages),
    }),
    upgrade: requested,
  };
}

/**
 * Reads the gateway and says whether the change holds on it (true) or not (false): what a row says after a write
 * whose answer was lost. Throws when the gateway cannot be read; then nobody knows. An upgrade holds once the
 * package is no longer upgradable; one still under way is not known yet (it throws).
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
      if (last.lastStatus === INSTALL_STATUS.IN_PROGRESS) throw new Error(t('fleet:stillUnderWay'));
      const upgradable = await commander.command(gatewayId, 'getUpgradableSoftware', {}, options);
      return change.packageName === undefined
        ? upgradable.length === 0
        : !upgradable.some((item) => item.name === change.packageName);
    }
  }
}
