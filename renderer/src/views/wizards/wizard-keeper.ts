import type { IpcClient } from '../../lib/ipc';
import { WizardState, type WizardName } from '../../lib/state/wizard.svelte';

/** The wizard run of each client (one page) that outlives its page while another view shows. */
const kept = new WeakMap<IpcClient, WizardState>();

/** Phases in which leaving the page would lose the technician's work or a change in flight. */
const RESUMABLE = new Set(['reading', 'editing', 'reviewing', 'applying']);

/**
 * The run of `name` on `gatewayId` to show: the one kept for this client when it is of the same wizard and gateway
 * and still under way (a visit to Settings to change the language, or to a terminal, loses nothing: the form, the
 * review and an apply in flight are as they were), else a new run (`isNew`: start it) replacing the kept one,
 * which is cancelled. A finished or failed run is not resumed: opening the page again reads the gateway afresh.
 */
export function keptWizard(
  client: IpcClient,
  name: WizardName,
  gatewayId: string,
): { state: WizardState; isNew: boolean } {
  const previous = kept.get(client);
  if (
    previous &&
    previous.wizard === name &&
    previous.gatewayId === gatewayId &&
    RESUMABLE.has(previous.phase)
  )
    return { state: previous, isNew: false };
  if (previous) forget(previous);
  const state = new WizardState(client, name, gatewayId);
  kept.set(client, state);
  return { state, isNew: true };
}

/** Cancels and forgets the kept run (the technician left the wizards for the commissioning index). */
export function dropKeptWizard(client: IpcClient): void {
  const previous = kept.get(client);
  if (!previous) return;
  kept.delete(client);
  forget(previous);
}

function forget(state: WizardState): void {
  void state.cancel();
  state.dispose();
}

/** A form's values as kept on its run, with the starting edit they were typed over. */
interface KeptForm<Form> {
  from: unknown;
  form: Form;
}

/**
 * The values the wizard's form had when its page closed, if they were typed over this starting edit (a new read
 * starts the form afresh).
 */
export function keptForm<Form>(wizard: WizardState, from: unknown): Form | null {
  const draft = wizard.formDraft as KeptForm<Form> | null;
  return draft !== null && draft.from === from ? draft.form : null;
}

/** Keeps the form's values on its run (see keptForm). */
export function keepForm<Form>(wizard: WizardState, from: unknown, form: Form): void {
  const draft: KeptForm<Form> = { from, form };
  wizard.formDraft = draft;
}
