import type { IpcClient } from '../../lib/ipc';
import { TerminalsState } from '../../lib/state/terminals.svelte';

const states = new WeakMap<IpcClient, TerminalsState>();

/** The one TerminalsState of a client: tabs and routing outlive the view, so leaving Terminals closes nothing. */
export function terminalsFor(client: IpcClient): TerminalsState {
  let state = states.get(client);
  if (!state) {
    state = new TerminalsState(client);
    states.set(client, state);
  }
  return state;
}
