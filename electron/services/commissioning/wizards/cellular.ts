import type { Apn } from '../../../shared/api';
import type {
  ApnEntry,
  CellularEdit,
  CellularState,
  NetworkSelection,
} from '../../../shared/ipc/domains/wizard-shapes';
import { ApiError } from '../../api';
import { bspRequirement } from '../../../shared/api/command-titles';
import { t } from '../../../shared/i18n';
import { recorded, type RecordedMessage } from '../../../shared/i18n/recorded-message';
import type { Change, WizardContext, WizardDefinition } from '../types';
import { changeOf, checkOf } from './words';

export type { ApnEntry, CellularEdit, CellularState, NetworkSelection };

/** Pause between reads while waiting for the data call. */
export const CELLULAR_POLL_INTERVAL_MS = 2_000;

/** The APN operations an edit needs, in the order they are sent. */
export interface ApnPlan {
  updates: Array<{ before: Apn; name: string }>;
  adds: string[];
  deletes: Apn[];
}

/**
 * The operations turning the gateway's APN list into the edited one. Entries keep their identity by idx; a
 * deleted APN that is added again under the same name is no change at all (so a list rebuilt after a rollback
 * compares equal to the original even though the gateway gave it a new idx).
 */
export function planApnChanges(current: Apn[], wanted: ApnEntry[]): ApnPlan {
  const byIdx = new Map(current.map((apn) => [apn.idx, apn]));
  const kept = new Set<number>();
  const updates: ApnPlan['updates'] = [];
  const fresh: string[] = [];
  for (const entry of wanted) {
    const existing = entry.idx === undefined ? undefined : byIdx.get(entry.idx);
    if (!existing || kept.has(existing.idx)) {
      fresh.push(entry.name);
      continue;
    }
    kept.add(existing.idx);
    if (existing.name !== entry.name) updates.push({ before: existing, name: entry.name });
  }
  let deletes = current.filter((apn) => !kept.has(apn.idx));
  const adds: string[] = [];
  for (const name of fresh) {
    const same = deletes.find((apn) => apn.name === name);
    if (same) deletes = deletes.filter((apn) => apn !== same);
    else adds.push(name);
  }
  return { updates, adds, deletes };
}

function isConnectedAddress(address: string): boolean {
  return address.trim() !== '' && address !== '0.0.0.0' && address !== '::';
}

async function readNetworkSelection(context: WizardContext): Promise<NetworkSelection> {
  try {
    const { availableNetworks } = await context.command('getWmNetworkInfo', {});
    return { isAvailable: true, networks: availableNetworks };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400)
      return {
        isAvailable: false,
        reason:
          bspRequirement('getWmNetworkInfo', error.message) ??
          t('wizards:networkSelectionRefused', { reason: error.message }),
      };
    throw error;
  }
}

/**
 * The cellular wizard: SIM and APN status, home network, RF, APN list add/update/delete (delete sends the bare
 * index), network selection on the newest BSP, PDP profiles, active profile. Verified by call status CONNECTED
 * and an IP address in the active profile; a wrong APN fails verification and the previous list is restored.
 */
export const cellularWizard: WizardDefinition<CellularState, CellularEdit> = {
  name: 'cellular',
  title: 'wizards:titleCellular',
  isDisruptive: true,

  async read(context) {
    const status = await context.command('getWmStatusApn', {});
    const homeNetwork = await context.command('getWmHomeNetworkBranch', {});
    const rf = await context.command('getWmRfInformation', {});
    const { apns, workingIdx } = await context.command('getWmApns', {});
    const pdpProfiles = await context.command('getWmPDP_Profiles', {});
    const activeProfile = await context.command('getWmActiveProfileParameters', {});
    const { callStatus } = await context.command('getWmCallStatistics', {});
    return {
      simStatus: status.simStatus,
      apnStatus: status.status,
      homeNetwork,
      rf,
      apns,
      workingIdx,
      pdpProfiles,
      activeProfile,
      callStatus,
      networkSelection: await readNetworkSelection(context),
    };
  },

  editOf: (state) => ({ apns: state.apns.map(({ idx, name }) => ({ idx, name })) }),

  changes(state, edit) {
    const plan = planApnChanges(state.apns, edit.apns);
    const changes: Change[] = [
      ...plan.updates.map(({ before, name }) =>
        changeOf(`apn[${before.idx}]`, apnWords(state.apns, before), before.name, name),
      ),
      ...plan.adds.map((name) => changeOf(`apn+${name}`, 'wizards:newApn', null, name)),
      ...plan.deletes.map((apn) => changeOf(`apn[${apn.idx}]`, apnWords(state.apns, apn), apn.name, null)),
    ];
    if (edit.preferredNetwork)
      changes.push(
        changeOf(
          'preferredNetwork',
          'wizards:preferredNetwork',
          state.homeNetwork.homeNetwork,
          `${edit.preferredNetwork.mcc}-${edit.preferredNetwork.mnc}`,
        ),
      );
    if (edit.pdpProfiles && JSON.stringify(edit.pdpProfiles) !== JSON.stringify(state.pdpProfiles))
      changes.push(changeOf('pdpProfiles', 'wizards:pdpProfiles', state.pdpProfiles, edit.pdpProfiles));
    return changes;
  },

  validate(state, edit) {
    const problems: string[] = [];
    const names = edit.apns.map((entry) => entry.name.trim());
    if (names.some((name) => name === '')) problems.push(t('wizards:problemApnEmpty'));
    const duplicates = names.filter((name, index) => name !== '' && names.indexOf(name) !== index);
    if (duplicates.length > 0) problems.push(t('wizards:problemApnTwice', { name: duplicates[0] ?? '' }));
    if (edit.apns.length === 0) problems.push(t('wizards:problemNoApn'));
    if (edit.preferredNetwork && !state.networkSelection.isAvailable)
      problems.push(state.networkSelection.reason);
    return problems;
  },

  warnings(state, edit) {
    const warnings: string[] = [];
    const plan = planApnChanges(state.apns, edit.apns);
    const touchesWorking =
      plan.deletes.some((apn) => apn.idx === state.workingIdx) ||
      plan.updates.some(({ before }) => before.idx === state.workingIdx);
    if (touchesWorking) warnings.push(t('wizards:warningApnInUse'));
    if (edit.preferredNetwork) warnings.push(t('wizards:warningNetworkChoice'));
    return warnings;
  },

  guards: () => [],

  async apply(context, state, edit) {
    const plan = planApnChanges(state.apns, edit.apns);
    for (const { before, name } of plan.updates)
      await context.command('updateWmApn', { ...pickApn(before), name });
    for (const name of plan.adds) await context.command('addWmApn', { name });
    for (const apn of plan.deletes) await context.command('deleteWmApn', apn.idx);
    if (edit.preferredNetwork) await context.command('setWmPreferredNetwork', edit.preferredNetwork);
    if (edit.pdpProfiles && JSON.stringify(edit.pdpProfiles) !== JSON.stringify(state.pdpProfiles))
      await context.command('modifyWmPDP_Profiles', edit.pdpProfiles);
  },

  async verify(context, _state, edit) {
    const { apns } = await context.command('getWmApns', {});
    const left = planApnChanges(apns, edit.apns);
    const listOk = left.adds.length === 0 && left.updates.length === 0 && left.deletes.length === 0;
    const names = apns.map((apn) => apn.name).join(', ');
    const readBack = checkOf(
      listOk,
      recorded('wizards:checkApnList'),
      listOk
        ? recorded('wizards:apnListRead', { names })
        : names
          ? recorded('wizards:apnListDiffers', { names })
          : recorded('wizards:apnListEmpty'),
    );
    context.progress(t('wizards:progressAwaitingAttach'));
    const { value, isDone } = await awaitDataCall(context);
    const none = recorded('wizards:none');
    const call = checkOf(
      isDone,
      recorded('wizards:checkDataCall'),
      isDone
        ? recorded('wizards:dataCallConnected', {
            address: value?.profile.ipAddress ?? '',
            apn: value?.profile.apnName ?? '',
          })
        : recorded('wizards:dataCallFailed', {
            status: value?.call.callStatus ?? recorded('wizards:noAnswer'),
            address: value?.profile.ipAddress || none,
            apn: value?.profile.apnName || none,
          }),
    );
    return [readBack, call];
  },

  async rollback(context, state, edit) {
    const { apns } = await context.command('getWmApns', {});
    const restore = planApnChanges(apns, state.apns);
    for (const { before, name } of restore.updates)
      await context.command('updateWmApn', { ...pickApn(before), name });
    for (const name of restore.adds) await context.command('addWmApn', { name });
    for (const apn of restore.deletes) await context.command('deleteWmApn', apn.idx);
    const selection = state.networkSelection;
    const current = selection.isAvailable
      ? selection.networks.find((network) => network.active === 'Current')
      : undefined;
    if (edit.preferredNetwork && current)
      await context.command('setWmPreferredNetwork', { mcc: current.MCC, mnc: current.mnc });
    if (edit.pdpProfiles && isRecord(state.pdpProfiles))
      await context.command('modifyWmPDP_Profiles', state.pdpProfiles);
  },

  /**
   * When the data call failed: names the new APN that got none and the APN rolled back to, and whether the data
   * call connected again on it (waited for, as in verify). Other failures keep the engine's words.
   */
  async describeRollback(context, state, edit, { checks, verifyTimeoutMs }) {
    const dataCall = checks.find((check) => check.words?.name.key === 'wizards:checkDataCall');
    if (dataCall?.ok !== false) return undefined;
    const oldNames = new Set(state.apns.map((apn) => apn.name));
    const newNames = edit.apns.map((apn) => apn.name).filter((name) => !oldNames.has(name));
    const working = state.apns.find((apn) => apn.idx === state.workingIdx)?.name;
    const seconds = Math.round(verifyTimeoutMs / 100) / 10;
    const subject =
      newNames.length === 0
        ? recorded('wizards:newApnSettings')
        : recorded('wizards:newApnNames', { count: newNames.length, names: newNames.join('", "') });
    const failed: RecordedMessage = working
      ? recorded('wizards:apnRolledBackTo', { subject, seconds, working })
      : recorded('wizards:apnRolledBack', { subject, seconds });
    context.progress(t('wizards:progressAwaitingPreviousApn'));
    const { value, isDone } = await awaitDataCall(context);
    return isDone
      ? recorded('wizards:apnRollbackConnected', { failed, address: value?.profile.ipAddress ?? '' })
      : recorded('wizards:apnRollbackNotConnected', {
          failed,
          status: value?.call.callStatus ?? recorded('wizards:noAnswer'),
        });
  },
};

/**
 * An APN of the gateway in words: "APN 1" for the first the gateway lists, as the form numbers them when it opens
 * (the gateway's `idx` is its own key, which may start at 0 or have gaps, so it is not shown as the number).
 */
export function apnWords(apns: readonly Apn[], apn: Apn): RecordedMessage {
  const position = apns.findIndex((candidate) => candidate.idx === apn.idx);
  return position === -1
    ? recorded('wizards:apnByIdx', { idx: apn.idx })
    : recorded('wizards:apnNumbered', { number: position + 1 });
}

function pickApn(apn: Apn) {
  return { name: apn.name, type: apn.type, idxModem: apn.idxModem, idx: apn.idx };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Polls the data call until it is CONNECTED with an address; the engine's time limit for the step ends the wait. */
function awaitDataCall(context: WizardContext) {
  return context.poll(
    async () => ({
      call: await context.command('getWmCallStatistics', {}),
      profile: await context.command('getWmActiveProfileParameters', {}),
    }),
    ({ call, profile }) => call.callStatus === 'CONNECTED' && isConnectedAddress(profile.ipAddress),
    {
      timeoutMs: Number.POSITIVE_INFINITY,
      intervalMs: CELLULAR_POLL_INTERVAL_MS,
      describe: ({ call }) => t('wizards:dataCallWaiting', { status: call.callStatus }),
    },
  );
}
