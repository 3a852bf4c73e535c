import type { IpcClient } from '../../lib/ipc';
import type { FleetChange } from '../../lib/state/fleet.svelte';
import { emptyFirewallDraft, type FirewallDraft } from './fleet-firewall';

/** What the technician typed and chose on the fleet form: kept while they look at other views. */
export interface FleetDraft {
  chosen: Record<string, boolean>;
  search: string;
  mode: 'list' | 'group';
  groupId: string;
  kind: FleetChange['kind'];
  pingTarget: string;
  apnName: string;
  packageName: string;
  /** The firewall form: each setting kept unless set (fleet-firewall.ts). */
  firewall: FirewallDraft;
  /** Empty: main's default for the change (fewer at once for an upgrade, which restarts the gateways). */
  concurrency: string;
}

const drafts = new WeakMap<IpcClient, FleetDraft>();

/**
 * The fleet form's draft of a client (one per page): the view starts from it and writes every change back, so
 * leaving the page, a failed load or a reload of the gateways never loses what was typed.
 */
export function fleetDraftFor(client: IpcClient): FleetDraft {
  let draft = drafts.get(client);
  if (!draft) {
    draft = {
      chosen: {},
      search: '',
      mode: 'list',
      groupId: '',
      kind: 'pingTarget',
      pingTarget: '8.8.8.8',
      apnName: '',
      packageName: '',
      firewall: emptyFirewallDraft(),
      concurrency: '',
    };
    drafts.set(client, draft);
  }
  return draft;
}
