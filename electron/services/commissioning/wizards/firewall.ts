import type { z } from 'zod';
import {
  FirewallConfigurationSchema,
  describeIssues,
  summarizeIssues,
  type FirewallConfiguration,
} from '../../../shared/api';
import { firewallGuards } from '../../commands/risk-guards';
import { t, type MessageKey } from '../../../shared/i18n';
import { recorded, type RecordedMessage } from '../../../shared/i18n/recorded-message';
import type { Change, WizardDefinition } from '../types';
import { changeOf, checkOf } from './words';

const FIELDS: Array<{ path: string; label: MessageKey; read: (value: FirewallConfiguration) => unknown }> = [
  { path: 'enabled', label: 'wizards:firewallEnabled', read: (value) => value.enabled },
  {
    path: 'doSPrevention.enabled',
    label: 'wizards:dosPrevention',
    read: (value) => value.doSPrevention.enabled,
  },
  {
    path: 'doSPrevention.perMinLimit',
    label: 'wizards:dosPerMinute',
    read: (value) => value.doSPrevention.perMinLimit,
  },
  {
    path: 'doSPrevention.burstLimit',
    label: 'wizards:dosBurst',
    read: (value) => value.doSPrevention.burstLimit,
  },
  { path: 'ssh.enabled', label: 'wizards:sshAccess', read: (value) => value.ssh.enabled },
  { path: 'ping.enabled', label: 'wizards:pingAllowed', read: (value) => value.ping.enabled },
  { path: 'ping.limit.enabled', label: 'wizards:pingRateLimit', read: (value) => value.ping.limit.enabled },
  {
    path: 'ping.limit.pingPerMinLimit',
    label: 'wizards:pingsPerMinute',
    read: (value) => value.ping.limit.pingPerMinLimit,
  },
  {
    path: 'ping.limit.pingBurstLimit',
    label: 'wizards:pingBurst',
    read: (value) => value.ping.limit.pingBurstLimit,
  },
  { path: 'filters', label: 'wizards:filters', read: (value) => value.filters },
];

/** Reads a firewall answer (the catalogue leaves its shape open) as the configuration set takes. */
export function parseFirewall(value: unknown): FirewallConfiguration {
  const result = FirewallConfigurationSchema.safeParse(value);
  if (!result.success)
    throw new Error(
      t('wizards:firewallNotUnderstood', { reason: summarizeIssues(describeIssues(result.error)) }),
    );
  return result.data;
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/**
 * The firewall wizard: edit enabled, DoS prevention, SSH, ping and limits, and the filters (as JSON). The
 * lockout guards (risk-guards.ts, shared with fleet apply and the console) make the UI ask for a typed
 * confirmation, after a plain warning, before SSH is disabled while a terminal depends on it or ping is blocked
 * while the connectivity check needs it. Verified by reading back;
 * rolled back on any mismatch.
 */
export const firewallWizard: WizardDefinition<FirewallConfiguration, FirewallConfiguration> = {
  name: 'firewall',
  title: 'wizards:titleFirewall',
  isDisruptive: true,

  read: async (context) => parseFirewall(await context.command('getFirewallConfiguration', {})),

  editOf: (state) => structuredClone(state),

  changes(state, edit) {
    const changes: Change[] = [];
    for (const field of FIELDS) {
      let after: unknown;
      try {
        after = field.read(edit);
      } catch {
        after = undefined;
      }
      const before = field.read(state);
      if (!same(before, after)) changes.push(changeOf(field.path, field.label, before, after));
    }
    return changes;
  },

  validate(_state, edit) {
    const result = FirewallConfigurationSchema.safeParse(edit);
    return result.success
      ? []
      : describeIssues(result.error as z.ZodError).map((issue) => `${issue.path}: ${issue.message}`);
  },

  warnings(state, edit) {
    const warnings: string[] = [];
    if (state.ssh.enabled && edit.ssh?.enabled === false) warnings.push(t('wizards:warningSshRefused'));
    if (state.ping.enabled && edit.ping?.enabled === false) warnings.push(t('wizards:warningPingBlocked'));
    if (edit.enabled === false && state.enabled) warnings.push(t('wizards:warningFirewallOff'));
    return warnings;
  },

  guards: (state, edit, environment, gatewayId) =>
    firewallGuards(state, edit, {
      hasSshTerminal: environment.hasSshTerminal?.(gatewayId) ?? false,
      connectivityCheckUsesPing: environment.connectivityCheckUsesPing,
    }),

  async apply(context, _state, edit) {
    await context.command('setFirewallConfiguration', edit);
  },

  async verify(context, _state, edit) {
    const now = parseFirewall(await context.command('getFirewallConfiguration', {}));
    const mismatches = firewallWizard.changes(now, edit);
    return [
      checkOf(
        mismatches.length === 0,
        recorded('wizards:checkReadBack'),
        mismatches.length === 0
          ? recorded('wizards:firewallReadBack', {
              firewall: recorded(now.enabled ? 'wizards:firewallOn' : 'wizards:firewallOff'),
              ssh: recorded(now.ssh.enabled ? 'wizards:sshAllowed' : 'wizards:sshRefused'),
              ping: recorded(now.ping.enabled ? 'wizards:pingIsAllowed' : 'wizards:pingBlocked'),
              filters: recorded('wizards:filterCount', { count: now.filters.length }),
            })
          : mismatchWords(mismatches),
      ),
    ];
  },

  async rollback(context, state) {
    await context.command('setFirewallConfiguration', state);
  },
};

/** What reading back found different, each value as the gateway stores it (JSON). */
function mismatchWords(mismatches: Change[]): RecordedMessage {
  return mismatches
    .map((change) =>
      recorded('wizards:firewallMismatch', {
        label: change.labelWords ?? recorded('wizards:text', { text: change.label }),
        actual: JSON.stringify(change.before) ?? '',
        expected: JSON.stringify(change.after) ?? '',
      }),
    )
    .reduce((joined, next) => recorded('wizards:joined', { first: joined, next }));
}
