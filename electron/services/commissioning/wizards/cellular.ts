import type { Apn } from '../../../shared/api';
import type {
  ApnEntry,
  CellularEdit,
  CellularState,
  NetworkSelection,
} from '../../../shared/ipc/domains/wizard-shapes';
import { ApiError } from '../../api';
import { bspRequirement } from '../../../shared/api/command-titles';
import type { Change, WizardContext, WizardDefinition } from '../types';

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
          `Network selection needs the newest BSP; this gateway refuses it (${error.message}).`,
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
  title: 'cellular modem and APN',
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
      ...plan.updates.map(({ before, name }) => ({
        path: `apn[${before.idx}]`,
        label: apnLabel(state.apns, before),
        before: before.name,
        after: name,
      })),
      ...plan.adds.map((name) => ({ path: `apn+${name}`, label: 'New APN', before: null, after: name })),
      ...plan.deletes.map((apn) => ({
        path: `apn[${apn.idx}]`,
        label: apnLabel(state.apns, apn),
        before: apn.name,
        after: null,
      })),
    ];
    if (edit.preferredNetwork)
      changes.push({
        path: 'preferredNetwork',
        label: 'Preferred network',
        before: state.homeNetwork.homeNetwork,
        after: `${edit.preferredNetwork.mcc}-${edit.preferredNetwork.mnc}`,
      });
    if (edit.pdpProfiles && JSON.stringify(edit.pdpProfiles) !== JSON.stringify(state.pdpProfiles))
      changes.push({
        path: 'pdpProfiles',
        label: 'PDP profiles',
        before: state.pdpProfiles,
        after: edit.pdpProfiles,
      });
    return changes;
  },

  validate(state, edit) {
    const problems: string[] = [];
    const names = edit.apns.map((entry) => entry.name.trim());
    if (names.some((name) => name === '')) problems.push('An APN name is empty');
    const duplicates = names.filter((name, index) => name !== '' && names.indexOf(name) !== index);
    if (duplicates.length > 0) problems.push(`APN ${duplicates[0]} is in the list twice`);
    if (edit.apns.length === 0) problems.push('Keep at least one APN: without one the modem cannot connect');
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
    if (touchesWorking)
      warnings.push(
        'This changes the APN in use: cellular data stops until the modem attaches with the new one.',
      );
    if (edit.preferredNetwork)
      warnings.push(
        'Choosing a network makes the modem leave its current one; data stops until it registers.',
      );
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
    const readBack = {
      name: 'APN list read back',
      ok: listOk,
      detail: listOk
        ? `APNs: ${apns.map((apn) => apn.name).join(', ')}`
        : `the gateway lists ${apns.map((apn) => apn.name).join(', ') || 'no APN'}`,
    };
    context.progress('Waiting for the modem to attach and get an IP address');
    const { value, isDone } = await awaitDataCall(context);
    const call = {
      name: 'Data call',
      ok: isDone,
      detail: isDone
        ? `CONNECTED with IP address ${value?.profile.ipAddress} on APN ${value?.profile.apnName}`
        : `${value?.call.callStatus ?? 'no answer'} with IP address ${value?.profile.ipAddress || 'none'} on APN ${value?.profile.apnName || 'none'}: the modem did not connect (is the APN the SIM's?)`,
    };
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
    if (checks.find((check) => check.name === 'Data call')?.ok !== false) return undefined;
    const oldNames = new Set(state.apns.map((apn) => apn.name));
    const newNames = edit.apns.map((apn) => apn.name).filter((name) => !oldNames.has(name));
    const working = state.apns.find((apn) => apn.idx === state.workingIdx)?.name;
    const subject =
      newNames.length === 0
        ? 'The new APN settings'
        : `The new APN${newNames.length > 1 ? 's' : ''} ${newNames.map((name) => `"${name}"`).join(', ')}`;
    const target = working ? ` to "${working}"` : '';
    const failed = `${subject} got no data call within ${Math.round(verifyTimeoutMs / 100) / 10} s; rolled back${target}`;
    context.progress('Waiting for the data call on the previous APN');
    const { value, isDone } = await awaitDataCall(context);
    return isDone
      ? `${failed} — data call connected again (IP address ${value?.profile.ipAddress}).`
      : `${failed} — but the data call has not connected again (${value?.call.callStatus ?? 'no answer'}): check the SIM and the antenna before leaving.`;
  },
};

/**
 * An APN of the gateway in words: "APN 1" for the first the gateway lists, as the form numbers them when it opens
 * (the gateway's `idx` is its own key, which may start at 0 or have gaps, so it is not shown as the number).
 */
export function apnLabel(apns: readonly Apn[], apn: Apn): string {
  const position = apns.findIndex((candidate) => candidate.idx === apn.idx);
  return position === -1 ? `APN with idx ${apn.idx}` : `APN ${position + 1}`;
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
      describe: ({ call }) => `Data call: ${call.callStatus}; waiting for CONNECTED`,
    },
  );
}
