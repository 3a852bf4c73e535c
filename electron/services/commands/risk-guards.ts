import { isCommandName, UPGRADE_ALL_PACKAGES } from '../../shared/api';
import { commandConsequence } from '../../shared/api/command-titles';
import type { FleetFirewallPatch as FirewallPatch } from '../../shared/ipc/domains/fleet';
import type { WizardGuard as Guard } from '../../shared/ipc/domains/risk';
import { t } from '../../shared/i18n';

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
    super(t('commands:nothingSent', { missing: missing.join('; ') }));
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
  const count = facts.gatewayCount;
  const sshTurnsOff = (before?.ssh.enabled ?? true) && after.ssh?.enabled === false;
  const sshMatters = count === undefined ? facts.hasSshTerminal !== false : true;
  if (sshTurnsOff && sshMatters)
    guards.push({
      id: 'ssh-lockout',
      warning:
        count === undefined && facts.hasSshTerminal === true
          ? t('commands:sshLockoutTerminal')
          : count === undefined
            ? t('commands:sshLockoutThis')
            : count === 1
              ? t('commands:sshLockoutOne')
              : t('commands:sshLockoutMany', { count }),
      confirmationText: SSH_LOCKOUT_CONFIRMATION,
    });
  const pingTurnsOff = (before?.ping.enabled ?? true) && after.ping?.enabled === false;
  if (pingTurnsOff && facts.connectivityCheckUsesPing !== false)
    guards.push({
      id: 'ping-lockout',
      warning:
        count === undefined
          ? t('commands:pingLockoutThis')
          : count === 1
            ? t('commands:pingLockoutOne')
            : t('commands:pingLockoutMany', { count }),
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
      warning: t('commands:wanLockout', { link: inUseLabel }),
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
  const consequence = commandConsequence(name);
  const disruptions = consequence === undefined ? [] : [consequence];
  const guards =
    name === 'setFirewallConfiguration' && typeof request === 'object' && request !== null
      ? firewallGuards(undefined, request as FirewallPatch, facts)
      : [];
  return { disruptions, guards };
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
        ? t('commands:missingGatewayCount', { count: gatewayCount })
        : t('commands:missingCountChanged', { count: confirmation.gatewayCount, total: gatewayCount }),
    );
  if (assessment.disruptions.length > 0 && confirmation?.acknowledged !== true)
    missing.push(t('commands:missingAcknowledge', { disruptions: assessment.disruptions.join(' ') }));
  for (const guard of assessment.guards)
    if (confirmation?.typed?.[guard.id] !== guard.confirmationText)
      missing.push(t('commands:missingTyped', { text: guard.confirmationText, warning: guard.warning }));
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
