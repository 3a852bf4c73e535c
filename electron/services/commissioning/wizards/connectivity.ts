import { IpAddressSchema, type ConnectivityType } from '../../../shared/api';
import type { ConnectivityEdit, ConnectivityState } from '../../../shared/ipc/domains/wizard-shapes';
import { wanLinkGuards } from '../../commands/risk-guards';
import type { Change, Check, WizardDefinition } from '../types';

export type { ConnectivityEdit, ConnectivityState };

/** Packets the verification ping sends. */
export const VERIFY_PING_PACKETS = 4;
/** Pause between verification pings while the new link settles. */
export const CONNECTIVITY_PING_INTERVAL_MS = 3_000;

/** The warning every connectivity change carries (docs/api.md: self-rebooting gateways). */
export const BOTH_LINKS_WARNING =
  'If both the preferred and the fallback link fail their ping check, the gateway reboots itself and may be cut off until it comes back with its previous settings.';

function linkLabel(types: ConnectivityType[], index: number): string {
  const type = types.find((candidate) => candidate.index === index);
  return type ? `${type.type} (${index})` : `link ${index}`;
}

/**
 * The connectivity wizard: preferred and fallback WAN link and the ping target, verified by reading back and by
 * a ping from the gateway to the target (packets received > 0). Disruptive: a backup is taken first.
 */
export const connectivityWizard: WizardDefinition<ConnectivityState, ConnectivityEdit> = {
  name: 'connectivity',
  title: 'WAN connectivity',
  isDisruptive: true,

  async read(context) {
    const info = await context.command('getGatewayInfo', {});
    const types = await context.command('getConnectivityTypes', {});
    const { ipAddr } = await context.command('getPreferredPingIpAddress', {});
    return {
      interfaces: info.interfaces,
      types,
      preferredIdx: types.find((type) => type.preferred)?.index ?? -1,
      fallbackIdx: types.find((type) => type.fallback)?.index ?? -1,
      pingTarget: ipAddr,
    };
  },

  editOf: (state) => ({
    preferredIdx: state.preferredIdx,
    fallbackIdx: state.fallbackIdx,
    pingTarget: state.pingTarget,
  }),

  changes(state, edit) {
    const changes: Change[] = [];
    if (edit.preferredIdx !== state.preferredIdx)
      changes.push({
        path: 'preferredIdx',
        label: 'Preferred link',
        before: linkLabel(state.types, state.preferredIdx),
        after: linkLabel(state.types, edit.preferredIdx),
      });
    if (edit.fallbackIdx !== state.fallbackIdx)
      changes.push({
        path: 'fallbackIdx',
        label: 'Fallback link',
        before: linkLabel(state.types, state.fallbackIdx),
        after: linkLabel(state.types, edit.fallbackIdx),
      });
    if (edit.pingTarget !== state.pingTarget)
      changes.push({
        path: 'pingTarget',
        label: 'Ping target',
        before: state.pingTarget,
        after: edit.pingTarget,
      });
    return changes;
  },

  validate(state, edit) {
    const problems: string[] = [];
    for (const [label, index] of [
      ['Preferred link', edit.preferredIdx],
      ['Fallback link', edit.fallbackIdx],
    ] as const) {
      if (!state.types.some((type) => type.index === index))
        problems.push(`${label}: ${index} is not one of the gateway's links`);
    }
    if (!IpAddressSchema.safeParse(edit.pingTarget).success)
      problems.push(`Ping target: ${edit.pingTarget || '(empty)'} is not an IP address`);
    return problems;
  },

  warnings(state, edit) {
    const warnings = [BOTH_LINKS_WARNING];
    if (edit.preferredIdx === edit.fallbackIdx)
      warnings.push('Preferred and fallback are the same link: there is no fallback if it fails.');
    const ethernet = state.types.find((type) => /ethernet/i.test(type.type));
    if (ethernet && edit.preferredIdx === ethernet.index && !state.interfaces.eth0)
      warnings.push('Ethernet (eth0) has no address right now: the gateway will rely on the fallback link.');
    return warnings;
  },

  guards: (state, edit) =>
    wanLinkGuards(
      state.preferredIdx,
      edit,
      `${linkLabel(state.types, state.preferredIdx)}, the preferred link now,`,
    ),

  async apply(context, state, edit) {
    if (edit.pingTarget !== state.pingTarget)
      await context.command('setPreferredPingIpAddress', { ipAddr: edit.pingTarget });
    if (edit.preferredIdx !== state.preferredIdx || edit.fallbackIdx !== state.fallbackIdx)
      await context.command('setPreferredFallbackConnectivityType', {
        preferredIdx: edit.preferredIdx,
        fallbackIdx: edit.fallbackIdx,
      });
  },

  async verify(context, _state, edit) {
    const now = await connectivityWizard.read(context);
    const mismatches = connectivityWizard.changes(now, edit);
    const checks: Check[] = [
      {
        name: 'Read back',
        ok: mismatches.length === 0,
        detail:
          mismatches.length === 0
            ? `preferred ${linkLabel(now.types, now.preferredIdx)}, fallback ${linkLabel(now.types, now.fallbackIdx)}, ping target ${now.pingTarget}`
            : mismatches
                .map(
                  (change) => `${change.label} is ${String(change.before)}, expected ${String(change.after)}`,
                )
                .join('; '),
      },
    ];
    const { value, isDone } = await context.poll(
      () => context.command('ping', { destination: edit.pingTarget, packetsCount: VERIFY_PING_PACKETS }),
      (answer) => answer.packets_recv > 0,
      {
        timeoutMs: Number.POSITIVE_INFINITY,
        intervalMs: CONNECTIVITY_PING_INTERVAL_MS,
        describe: (answer) =>
          `Ping ${edit.pingTarget}: ${answer.packets_recv} of ${answer.packets_sent} received, trying again`,
      },
    );
    checks.push({
      name: `Ping ${edit.pingTarget}`,
      ok: isDone,
      detail: value
        ? `${value.packets_recv} of ${value.packets_sent} packets received`
        : 'no answer to the ping command',
    });
    return checks;
  },

  async rollback(context, state) {
    const now = await connectivityWizard.read(context);
    await connectivityWizard.apply(context, now, connectivityWizard.editOf(state));
  },
};
