import { IpAddressSchema, type ConnectivityType } from '../../../shared/api';
import type { ConnectivityEdit, ConnectivityState } from '../../../shared/ipc/domains/wizard-shapes';
import { wanLinkGuards } from '../../commands/risk-guards';
import { t } from '../../../shared/i18n';
import { recorded, type RecordedMessage } from '../../../shared/i18n/recorded-message';
import type { Change, Check, WizardDefinition } from '../types';
import { changeOf, checkOf } from './words';

export type { ConnectivityEdit, ConnectivityState };

/** Packets the verification ping sends. */
export const VERIFY_PING_PACKETS = 4;
/** Pause between verification pings while the new link settles. */
export const CONNECTIVITY_PING_INTERVAL_MS = 3_000;

function linkWords(types: ConnectivityType[], index: number): RecordedMessage {
  const type = types.find((candidate) => candidate.index === index);
  return type
    ? recorded('wizards:linkNamed', { type: type.type, index })
    : recorded('wizards:linkNumbered', { index });
}

function linkLabel(types: ConnectivityType[], index: number): string {
  const type = types.find((candidate) => candidate.index === index);
  return type ? t('wizards:linkNamed', { type: type.type, index }) : t('wizards:linkNumbered', { index });
}

/**
 * The connectivity wizard: preferred and fallback WAN link and the ping target, verified by reading back and by
 * a ping from the gateway to the target (packets received > 0). Disruptive: a backup is taken first.
 */
export const connectivityWizard: WizardDefinition<ConnectivityState, ConnectivityEdit> = {
  name: 'connectivity',
  title: 'wizards:titleConnectivity',
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
      changes.push(
        changeOf(
          'preferredIdx',
          'wizards:labelPreferredLink',
          linkLabel(state.types, state.preferredIdx),
          linkLabel(state.types, edit.preferredIdx),
        ),
      );
    if (edit.fallbackIdx !== state.fallbackIdx)
      changes.push(
        changeOf(
          'fallbackIdx',
          'wizards:labelFallbackLink',
          linkLabel(state.types, state.fallbackIdx),
          linkLabel(state.types, edit.fallbackIdx),
        ),
      );
    if (edit.pingTarget !== state.pingTarget)
      changes.push(changeOf('pingTarget', 'wizards:labelPingTarget', state.pingTarget, edit.pingTarget));
    return changes;
  },

  validate(state, edit) {
    const problems: string[] = [];
    for (const [label, index] of [
      ['wizards:labelPreferredLink', edit.preferredIdx],
      ['wizards:labelFallbackLink', edit.fallbackIdx],
    ] as const) {
      if (!state.types.some((type) => type.index === index))
        problems.push(t('wizards:problemNotALink', { label: t(label), index }));
    }
    if (!IpAddressSchema.safeParse(edit.pingTarget).success)
      problems.push(
        edit.pingTarget
          ? t('wizards:problemPingTarget', { value: edit.pingTarget })
          : t('wizards:problemPingTargetEmpty'),
      );
    return problems;
  },

  warnings(state, edit) {
    // The warning every connectivity change carries (docs/api.md: self-rebooting gateways).
    const warnings = [t('wizards:warningBothLinks')];
    if (edit.preferredIdx === edit.fallbackIdx) warnings.push(t('wizards:warningSameLink'));
    const ethernet = state.types.find((type) => /ethernet/i.test(type.type));
    if (ethernet && edit.preferredIdx === ethernet.index && !state.interfaces.eth0)
      warnings.push(t('wizards:warningNoEthernet'));
    return warnings;
  },

  guards: (state, edit) =>
    wanLinkGuards(
      state.preferredIdx,
      edit,
      t('wizards:guardPreferredNow', { link: linkLabel(state.types, state.preferredIdx) }),
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
      checkOf(
        mismatches.length === 0,
        recorded('wizards:checkReadBack'),
        mismatches.length === 0
          ? recorded('wizards:connectivityReadBack', {
              preferred: linkWords(now.types, now.preferredIdx),
              fallback: linkWords(now.types, now.fallbackIdx),
              target: now.pingTarget,
            })
          : mismatchWords(mismatches),
      ),
    ];
    const { value, isDone } = await context.poll(
      () => context.command('ping', { destination: edit.pingTarget, packetsCount: VERIFY_PING_PACKETS }),
      (answer) => answer.packets_recv > 0,
      {
        timeoutMs: Number.POSITIVE_INFINITY,
        intervalMs: CONNECTIVITY_PING_INTERVAL_MS,
        describe: (answer) =>
          t('wizards:pingRetrying', {
            target: edit.pingTarget,
            received: answer.packets_recv,
            sent: answer.packets_sent,
          }),
      },
    );
    checks.push(
      checkOf(
        isDone,
        recorded('wizards:checkPing', { target: edit.pingTarget }),
        value
          ? recorded('wizards:pingReceived', { received: value.packets_recv, sent: value.packets_sent })
          : recorded('wizards:pingNoAnswer'),
      ),
    );
    return checks;
  },

  async rollback(context, state) {
    const now = await connectivityWizard.read(context);
    await connectivityWizard.apply(context, now, connectivityWizard.editOf(state));
  },
};

/** What reading back found different: each setting, what it reads and what was expected. */
function mismatchWords(mismatches: Change[]): RecordedMessage {
  return mismatches
    .map((change) =>
      recorded('wizards:readBackMismatch', {
        label: change.labelWords ?? recorded('wizards:text', { text: change.label }),
        actual: String(change.before),
        expected: String(change.after),
      }),
    )
    .reduce((joined, next) => recorded('wizards:joined', { first: joined, next }));
}
