import type {
  FleetChangeInput as FleetChange,
  FleetFirewallPatch as FirewallPatch,
} from '../../shared/ipc/domains/fleet';
import { firewallGuards, type RiskAssessment } from '../commands/risk-guards';

/** The words of a firewall patch, field by field ("SSH refused, ping blocked, DoS burst limit 77"). */
export function describeFirewallPatch(patch: FirewallPatch): string {
  const words: string[] = [];
  const onOff = (value: boolean | undefined, on: string, off: string) => {
    if (value !== undefined) words.push(value ? on : off);
  };
  const number = (value: number | undefined, label: string) => {
    if (value !== undefined) words.push(`${label} ${value}`);
  };
  onOff(patch.enabled, 'firewall on', 'firewall OFF');
  onOff(patch.ssh?.enabled, 'SSH allowed', 'SSH refused');
  onOff(patch.ping?.enabled, 'ping allowed', 'ping blocked');
  onOff(patch.doSPrevention?.enabled, 'DoS prevention on', 'DoS prevention off');
  number(patch.doSPrevention?.perMinLimit, 'DoS limit per minute');
  number(patch.doSPrevention?.burstLimit, 'DoS burst limit');
  onOff(patch.ping?.limit?.enabled, 'ping rate limit on', 'ping rate limit off');
  number(patch.ping?.limit?.pingPerMinLimit, 'pings per minute');
  number(patch.ping?.limit?.pingBurstLimit, 'ping burst');
  if (patch.filters !== undefined) words.push(`filters replaced by ${patch.filters.length} filter(s)`);
  return words.length === 0 ? 'no firewall field' : words.join(', ');
}

/**
 * How many of `gatewayCount` gateways restart at the same time, in words: all at once leaves the site without
 * their coverage; fewer at once go in rounds, each gateway followed until it answers again before the next.
 */
function describeRestartsAtOnce(gatewayCount: number, concurrency: number): string | null {
  if (gatewayCount <= 1) return null;
  if (concurrency >= gatewayCount)
    return `All ${gatewayCount} gateways restart at the same time: the site has no coverage from any of them until they answer again (a few minutes; longer on a slow link).`;
  const rounds = Math.ceil(gatewayCount / concurrency);
  if (concurrency === 1)
    return `The ${gatewayCount} gateways restart one at a time (${rounds} rounds): each is followed until it answers again with its new versions before the next one starts, and the others keep forwarding meanwhile.`;
  return `At most ${concurrency} of the ${gatewayCount} gateways restart at the same time (${rounds} rounds): each is followed until it answers again with its new versions before the next one starts, and the others keep forwarding meanwhile.`;
}

/** The disruptive part of a fleet change on each gateway, in words (empty when it has none). */
function fleetDisruptions(change: FleetChange, gatewayCount: number, concurrency?: number): string[] {
  const each = gatewayCount === 1 ? 'The gateway' : 'Each gateway';
  switch (change.kind) {
    case 'softwareUpgrade': {
      const atOnce = concurrency === undefined ? null : describeRestartsAtOnce(gatewayCount, concurrency);
      return [
        `${each} downloads and installs ${change.packageName ?? 'every upgradable package'}, then restarts: it is offline for a few minutes (download, install and reboot; longer on a slow link), forwards no LoRa packets meanwhile, and open terminals and tunnels to it drop.`,
        ...(atOnce ? [atOnce] : []),
      ];
    }
    case 'firewall':
      return [
        ...(change.patch.enabled === false ? [`${each} accepts any traffic while its firewall is off.`] : []),
        ...(change.patch.filters === undefined
          ? []
          : [
              `${each}'s filters are replaced: a wrong rule can block SSH, ping or the server and cut it off.`,
            ]),
      ];
    case 'apn':
      return [
        `${each}'s modem re-attaches with the new APN: cellular data stops until it is attached again.`,
      ];
    case 'pingTarget':
      return [];
  }
}

/** Fleet changes in words, for the question and the job's title. */
export function describeFleetChange(change: FleetChange): string {
  switch (change.kind) {
    case 'firewall':
      return `firewall settings (${describeFirewallPatch(change.patch)})`;
    case 'apn':
      return `APN ${change.name}`;
    case 'pingTarget':
      return `ping target ${change.ipAddr}`;
    case 'softwareUpgrade':
      return `software upgrade of ${change.packageName ?? 'every package'}`;
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
  const gateways = reachable === 1 ? '1 gateway' : `${reachable} gateways`;
  const verb =
    change.kind === 'softwareUpgrade'
      ? `Upgrade ${change.packageName ?? 'every package'} on`
      : `Apply ${describeFleetChange(change)} to`;
  const offline =
    offlineCount > 0
      ? ` (${offlineCount} more chosen but listed offline: skipped, nothing sent to ${offlineCount === 1 ? 'it' : 'them'})`
      : '';
  return {
    question: `${verb} ${gateways}?${offline}`,
    disruptions: fleetDisruptions(change, reachable, concurrency),
    guards,
  };
}
