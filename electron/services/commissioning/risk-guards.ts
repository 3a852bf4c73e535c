import { gatewayCommands, isCommandName, UPGRADE_ALL_PACKAGES } from '../../shared/api';
import type { FleetChange, FirewallPatch } from '../fleet/fleet-changes';
import type { Guard } from './types';

/** What the technician types to disable SSH (lockout of every terminal over the reverse tunnel). */
export const SSH_LOCKOUT_CONFIRMATION = 'DISABLE SSH';
/** What the technician types to block ping while the connectivity check needs it. */
export const PING_LOCKOUT_CONFIRMATION = 'BLOCK PING';
/** What the technician types to take the WAN link in use out of the preferred and fallback pair. */
export const WAN_LOCKOUT_CONFIRMATION = 'DROP WAN LINK';

/**
 * What a change risks, said before anything is sent: the disruptive part in words (restart, downtime, a link
 * that drops) and the lockouts that need their confirmation typed. Nothing risky: both empty.
 */
export interface RiskAssessment {
  disruptions: string[];
  guards: Guard[];
}

/** What the technician confirmed after reading a RiskAssessment (and, for many gateways, how many). */
export interface RiskConfirmation {
  /** The number of gateways the technician was told the change goes to. */
  gatewayCount?: number;
  /** True once the technician said yes to the disruptions. */
  acknowledged?: boolean;
  /** The text typed for each guard, by guard id. */
  typed?: Record<string, string>;
}

/** A risky change was refused in main because it was not confirmed; `missing` says what in words. */
export class ConfirmationRequiredError extends Error {
  override readonly name = 'ConfirmationRequiredError';
  constructor(
    readonly missing: string[],
    readonly assessment: RiskAssessment,
  ) {
    super(`Nothing was sent: ${missing.join('; ')}`);
  }
}

/** Facts the lockout checks need; a fact left out is unknown, and an unknown risk is asked about. */
export interface LockoutFacts {
  /** True while a terminal to the gateway goes through SSH; unknown for a fleet or the console. */
  hasSshTerminal?: boolean;
  /** False when the WAN connectivity check does not ping the gateway (blocking ping then breaks nothing). */
  connectivityCheckUsesPing?: boolean;
  /** How many gateways the change goes to; undefined for one gateway the technician has open. */
  gatewayCount?: number;
}

const onGateways = (count: number | undefined) =>
  count === undefined ? 'this gateway' : count === 1 ? 'the gateway' : `all ${count} gateways`;

/**
 * The lockout guards of a firewall change: SSH disabled (typed DISABLE SSH) and ping blocked (typed BLOCK PING).
 * `before` is the gateway's firewall when read (the wizard); without it (fleet, console) a field the change turns
 * off may be on, so it is asked about. An SSH guard for one open gateway is raised only while a terminal goes
 * through SSH (the wizard's rule since issue 5); for many gateways it always is: none of them could be reached
 * by terminal again until SSH is enabled on each, one by one.
 */
export function firewallGuards(
  before: { ssh: { enabled: boolean }; ping: { enabled: boolean } } | undefined,
  after: Pick<FirewallPatch, 'ssh' | 'ping'>,
  facts: LockoutFacts,
): Guard[] {
  const guards: Guard[] = [];
  const where = onGateways(facts.gatewayCount);
  const sshTurnsOff = (before?.ssh.enabled ?? true) && after.ssh?.enabled === false;
  const sshMatters = facts.gatewayCount === undefined ? facts.hasSshTerminal !== false : true;
  if (sshTurnsOff && sshMatters)
    guards.push({
      id: 'ssh-lockout',
      warning:
        facts.gatewayCount === undefined && facts.hasSshTerminal === true
          ? 'A terminal session to this gateway goes through SSH. Disabling SSH closes it and you cannot open another until SSH is enabled again.'
          : facts.gatewayCount === undefined || facts.gatewayCount === 1
            ? `SSH will be refused on ${where}: no terminal over the reverse tunnel until SSH is enabled again.`
            : `SSH will be refused on ${where}: no terminal over the reverse tunnel to any of them until SSH is enabled again on each one.`,
      confirmationText: SSH_LOCKOUT_CONFIRMATION,
    });
  const pingTurnsOff = (before?.ping.enabled ?? true) && after.ping?.enabled === false;
  if (pingTurnsOff && facts.connectivityCheckUsesPing !== false)
    guards.push({
      id: 'ping-lockout',
      warning: `The connectivity check pings ${where === 'this gateway' ? 'this gateway' : 'these gateways'}. Blocking ping on ${where} makes the check fail, and a gateway whose links both fail their check reboots itself.`,
      confirmationText: PING_LOCKOUT_CONFIRMATION,
    });
  return guards;
}

/**
 * The lockout guard of a WAN change: the link the gateway uses now (`inUseIdx`) is neither the new preferred
 * nor the new fallback link, so the connection it is reached through goes away.
 */
export function wanLinkGuards(
  inUseIdx: number,
  edit: { preferredIdx: number; fallbackIdx: number },
  inUseLabel: string,
): Guard[] {
  if (inUseIdx < 0 || edit.preferredIdx === inUseIdx || edit.fallbackIdx === inUseIdx) return [];
  return [
    {
      id: 'wan-lockout',
      warning: `${inUseLabel} carries the gateway's connection now and will be neither preferred nor fallback: the gateway may be cut off until the new links work.`,
      confirmationText: WAN_LOCKOUT_CONFIRMATION,
    },
  ];
}

/**
 * The risk of one gateway command as the console sends it: a disruptive command (catalogue risk `disruptive`)
 * names its consequence and needs a yes; a firewall that turns SSH or ping off also needs its typed text.
 */
export function assessCommand(name: string, request: unknown, facts: LockoutFacts = {}): RiskAssessment {
  if (!isCommandName(name)) return { disruptions: [], guards: [] };
  const definition = gatewayCommands[name];
  const disruptions =
    definition.risk === 'disruptive'
      ? [('consequence' in definition && definition.consequence) || `${name} can disrupt the gateway.`]
      : [];
  const guards =
    name === 'setFirewallConfiguration' && typeof request === 'object' && request !== null
      ? firewallGuards(undefined, request as FirewallPatch, facts)
      : [];
  return { disruptions, guards };
}

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

/**
 * What is still missing from a confirmation, in words: the yes to the disruptions, each guard's exact text, and
 * (when `gatewayCount` is given) the count the technician was shown, which must be the count the change goes to.
 */
export function missingConfirmations(
  assessment: RiskAssessment,
  confirmation: RiskConfirmation | undefined,
  gatewayCount?: number,
): string[] {
  const missing: string[] = [];
  if (gatewayCount !== undefined && confirmation?.gatewayCount !== gatewayCount)
    missing.push(
      confirmation?.gatewayCount === undefined
        ? `confirm the change on ${gatewayCount} gateway(s) first`
        : `you confirmed ${confirmation.gatewayCount} gateway(s) but the change goes to ${gatewayCount}: review it again`,
    );
  if (assessment.disruptions.length > 0 && confirmation?.acknowledged !== true)
    missing.push(`confirm the disruption first (${assessment.disruptions.join(' ')})`);
  for (const guard of assessment.guards)
    if (confirmation?.typed?.[guard.id] !== guard.confirmationText)
      missing.push(`type "${guard.confirmationText}" to confirm: ${guard.warning}`);
  return missing;
}

/** Throws ConfirmationRequiredError unless the confirmation covers the assessment (see missingConfirmations). */
export function requireConfirmed(
  assessment: RiskAssessment,
  confirmation: RiskConfirmation | undefined,
  gatewayCount?: number,
): void {
  const missing = missingConfirmations(assessment, confirmation, gatewayCount);
  if (missing.length > 0) throw new ConfirmationRequiredError(missing, assessment);
}

/** The catalogue command behind a gateway task that changes the gateway, if it is one. */
export function taskCommand(task: { task: string; packageName?: string }): {
  name: string;
  request: unknown;
} | null {
  switch (task.task) {
    case 'upgrade':
      return {
        name: 'upgradeSoftware',
        request: { packageToUpgrade: task.packageName ?? UPGRADE_ALL_PACKAGES },
      };
    case 'install':
      return { name: 'installSoftware', request: { packageToInstall: task.packageName } };
    case 'reboot':
      return { name: 'reboot', request: {} };
    case 'restoreBackup':
      return { name: 'restoreBackup', request: {} };
    default:
      return null;
  }
}
