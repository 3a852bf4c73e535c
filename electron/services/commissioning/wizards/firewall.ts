import type { z } from 'zod';
import {
  FirewallConfigurationSchema,
  describeIssues,
  summarizeIssues,
  type FirewallConfiguration,
} from '../../../shared/api';
import { firewallGuards } from '../../commands/risk-guards';
import type { Change, WizardDefinition } from '../types';

const FIELDS: Array<{ path: string; label: string; read: (value: FirewallConfiguration) => unknown }> = [
  { path: 'enabled', label: 'Firewall enabled', read: (value) => value.enabled },
  { path: 'doSPrevention.enabled', label: 'DoS prevention', read: (value) => value.doSPrevention.enabled },
  {
    path: 'doSPrevention.perMinLimit',
    label: 'DoS limit per minute',
    read: (value) => value.doSPrevention.perMinLimit,
  },
  {
    path: 'doSPrevention.burstLimit',
    label: 'DoS burst limit',
    read: (value) => value.doSPrevention.burstLimit,
  },
  { path: 'ssh.enabled', label: 'SSH access', read: (value) => value.ssh.enabled },
  { path: 'ping.enabled', label: 'Ping allowed', read: (value) => value.ping.enabled },
  { path: 'ping.limit.enabled', label: 'Ping rate limit', read: (value) => value.ping.limit.enabled },
  {
    path: 'ping.limit.pingPerMinLimit',
    label: 'Pings per minute',
    read: (value) => value.ping.limit.pingPerMinLimit,
  },
  {
    path: 'ping.limit.pingBurstLimit',
    label: 'Ping burst',
    read: (value) => value.ping.limit.pingBurstLimit,
  },
  { path: 'filters', label: 'Filters', read: (value) => value.filters },
];

/** Reads a firewall answer (the catalogue leaves its shape open) as the configuration set takes. */
export function parseFirewall(value: unknown): FirewallConfiguration {
  const result = FirewallConfigurationSchema.safeParse(value);
  if (!result.success)
    throw new Error(
      `The gateway's firewall answer is not understood: ${summarizeIssues(describeIssues(result.error))}`,
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
  title: 'firewall',
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
      if (!same(before, after)) changes.push({ path: field.path, label: field.label, before, after });
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
    if (state.ssh.enabled && edit.ssh?.enabled === false)
      warnings.push('SSH will be refused: no terminal over the reverse tunnel until SSH is enabled again.');
    if (state.ping.enabled && edit.ping?.enabled === false)
      warnings.push('Ping will be blocked: the WAN connectivity check and remote diagnostics may fail.');
    if (edit.enabled === false && state.enabled)
      warnings.push('The whole firewall will be off: the gateway accepts any traffic.');
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
      {
        name: 'Read back',
        ok: mismatches.length === 0,
        detail:
          mismatches.length === 0
            ? `firewall ${now.enabled ? 'on' : 'off'}, SSH ${now.ssh.enabled ? 'allowed' : 'refused'}, ping ${now.ping.enabled ? 'allowed' : 'blocked'}, ${now.filters.length} filter(s)`
            : mismatches
                .map(
                  (change) =>
                    `${change.label} reads ${JSON.stringify(change.before)}, expected ${JSON.stringify(change.after)}`,
                )
                .join('; '),
      },
    ];
  },

  async rollback(context, state) {
    await context.command('setFirewallConfiguration', state);
  },
};
