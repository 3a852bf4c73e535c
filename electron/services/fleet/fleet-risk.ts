import type {
  FleetChangeInput as FleetChange,
  FleetFirewallPatch as FirewallPatch,
} from '../../shared/ipc/domains/fleet';
import { t, type MessageKey } from '../../shared/i18n';
import { firewallGuards, type RiskAssessment } from '../commands/risk-guards';

/** The words of a firewall patch, field by field ("SSH refused, ping blocked, DoS burst limit 77"). */
export function describeFirewallPatch(patch: FirewallPatch): string {
  const words: string[] = [];
  const onOff = (value: boolean | undefined, on: MessageKey, off: MessageKey) => {
    if (value !== undefined) words.push(t(value ? on : off));
  };
  const number = (value: number | undefined, label: MessageKey) => {
    if (value !== undefined) words.push(t('fleet:patchNumber', { label: t(label), value }));
  };
  onOff(patch.enabled, 'fleet:patchFirewallOn', 'fleet:patchFirewallOff');
  onOff(patch.ssh?.enabled, 'fleet:patchSshAllowed', 'fleet:patchSshRefused');
  onOff(patch.ping?.enabled, 'fleet:patchPingAllowed', 'fleet:patchPingBlocked');
  onOff(patch.doSPrevention?.enabled, 'fleet:patchDosOn', 'fleet:patchDosOff');
  number(patch.doSPrevention?.perMinLimit, 'wizards:dosPerMinute');
  number(patch.doSPrevention?.burstLimit, 'wizards:dosBurst');
  onOff(patch.ping?.limit?.enabled, 'fleet:patchPingLimitOn', 'fleet:patchPingLimitOff');
  number(patch.ping?.limit?.pingPerMinLimit, 'fleet:patchPingsPerMinute');
  number(patch.ping?.limit?.pingBurstLimit, 'fleet:patchPingBurst');
  if (patch.filters !== undefined) words.push(t('fleet:patchFilters', { count: patch.filters.length }));
  return words.length === 0 ? t('fleet:patchEmpty') : words.join(', ');
}

/**
 * How many of `gatewayCount` gateways restart at the same time, in words: all at once leaves the site without
 * their coverage; fewer at once go in rounds, each gateway followed until it answers again before the next.
 */
function describeRestartsAtOnce(gatewayCount: number, concurrency: number): string | null {
  if (gatewayCount <= 1) return null;
  if (concurrency >= gatewayCount) return t('fleet:restartAllAtOnce', { count: gatewayCount });
  const rounds = Math.ceil(gatewayCount / concurrency);
  if (concurrency === 1) return t('fleet:restartOneAtATime', { count: gatewayCount, rounds });
  return t('fleet:restartSomeAtOnce', { count: gatewayCount, concurrency, rounds });
}

/** The disruptive part of a fleet change on each gateway, in words (empty when it has none). */
function fleetDisruptions(change: FleetChange, gatewayCount: number, concurrency?: number): string[] {
  const count = gatewayCount;
  switch (change.kind) {
    case 'softwareUpgrade': {
      const atOnce = concurrency === undefined ? null : describeRestartsAtOnce(gatewayCount, concurrency);
      return [
        change.packageName === undefined
          ? t('fleet:disruptionUpgradeAll', { count })
          : t('fleet:disruptionUpgrade', { count, packageName: change.packageName }),
        ...(atOnce ? [atOnce] : []),
      ];
    }
    case 'firewall':
      return [
        ...(change.patch.enabled === false ? [t('fleet:disruptionFirewallOff', { count })] : []),
        ...(change.patch.filters === undefined ? [] : [t('fleet:disruptionFilters', { count })]),
      ];
    case 'apn':
      return [t('fleet:disruptionApn', { count })];
    case 'pingTarget':
      return [];
  }
}

/** Fleet changes in words, for the question and the job's title. */
export function describeFleetChange(change: FleetChange): string {
  switch (change.kind) {
    case 'firewall':
      return t('fleet:changeFirewall', { fields: describeFirewallPatch(change.patch) });
    case 'apn':
      return t('fleet:changeApn', { name: change.name });
    case 'pingTarget':
      return t('fleet:changePingTarget', { address: change.ipAddr });
    case 'softwareUpgrade':
      return change.packageName === undefined
        ? t('fleet:changeUpgradeAll')
        : t('fleet:changeUpgrade', { packageName: change.packageName });
  }
}

/**
 * The risk of a fleet change on `gatewayCount` gateways and the question put before it: "Apply ping target
 * 8.8.8.8 to 75 gateways?" (and how many of them the list says are offline: those are skipped, nothing sent).
 * Firewall lockouts carry the wizard's typed confirmations. Given `concurrency` (gateways worked on at once), an
 * upgrade also says how many restart at the same time.
 */
export function assessFleetChange(
  change: FleetChange,
  gatewayCount: number,
  offlineCount = 0,
  concurrency?: number,
): RiskAssessment & { question: string } {
  // Gateways the list says are offline are skipped: the question and its risks count only those that get it.
  const reachable = Math.max(0, gatewayCount - offlineCount);
  const guards =
    change.kind === 'firewall' ? firewallGuards(undefined, change.patch, { gatewayCount: reachable }) : [];
  const question =
    change.kind === 'softwareUpgrade'
      ? change.packageName === undefined
        ? t('fleet:questionUpgradeAll', { count: reachable })
        : t('fleet:questionUpgrade', { count: reachable, packageName: change.packageName })
      : t('fleet:questionApply', { count: reachable, change: describeFleetChange(change) });
  return {
    question:
      offlineCount > 0
        ? t('fleet:questionWithOffline', {
            question,
            offline: t('fleet:offlineSkipped', { count: offlineCount }),
          })
        : question,
    disruptions: fleetDisruptions(change, reachable, concurrency),
    guards,
  };
}
