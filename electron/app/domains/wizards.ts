import type { wizardsChannels, WizardName } from '../../shared/ipc/domains/wizards';
import type { WizardEditOf, WizardStateOf } from '../../shared/ipc/domains/wizard-shapes';
import type { EventHub } from '../../shared/ipc/event-hub';
import { IpcError } from '../../shared/ipc/result';
import type { TerminalManager } from '../../services/terminals';
import {
  cellularWizard,
  connectivityWizard,
  createWizardRun,
  firewallWizard,
  type WizardDefinition,
  type WizardRun,
  type WizardRunOptions,
} from '../../services/commissioning';
import type { CallCancellation } from '../call-cancellation';
import type { DomainHandlers } from './context';
import { engineOptions, forgetOldest, mapped, type EngineDependencies } from './engines';

/** Wizard runs kept at once; the oldest finished ones are forgotten first. */
const MAX_WIZARD_RUNS = 32;

/** Each diff wizard, typed with the state and edit wizardShapes declares for it (what wizard:read answers). */
const WIZARDS: { [Name in WizardName]: WizardDefinition<WizardStateOf<Name>, WizardEditOf<Name>> } = {
  connectivity: connectivityWizard,
  cellular: cellularWizard,
  firewall: firewallWizard,
};

/** Starts a run of the wizard named, typed with that wizard's state and edit. */
function startWizardRun<Name extends WizardName>(
  name: Name,
  gatewayId: string,
  options: WizardRunOptions,
): WizardRun<WizardStateOf<Name>, WizardEditOf<Name>> {
  return createWizardRun(WIZARDS[name], gatewayId, options);
}

/** What the wizards use beside the engines' needs: the terminals (for the lockout guard) and the events hub. */
export interface WizardsDependencies extends EngineDependencies {
  /** Where `call:cancel` finds this domain's wizard runs by id. */
  cancellation: Pick<CallCancellation, 'addFinder'>;
  events: Pick<EventHub, 'emit'>;
  /**
   * The terminal manager once attached: its SSH sessions for the lockout guard. None (a build without
   * terminals): no SSH session depends on a gateway.
   */
  terminals(): Pick<TerminalManager, 'list'> | undefined;
  /** Registers what to stop on quit (the runs under way). */
  addShutdownHook(hook: () => Promise<void> | void): void;
}

/** Handlers of the diff wizards' channels (electron/shared/ipc/domains/wizards.ts). */
export function createWizardsHandlers(
  dependencies: WizardsDependencies,
): DomainHandlers<typeof wizardsChannels> {
  const { cancellation, events, terminals, addShutdownHook } = dependencies;
  const wizardRuns = new Map<string, { run: WizardRun<unknown, unknown>; isApplying: boolean }>();
  const sshGateways = new Set<string>();

  // The lockout guard asks "is a terminal going through SSH to this gateway?" synchronously: refresh first.
  const refreshSshGateways = () => {
    sshGateways.clear();
    // No terminals in this build: no SSH session depends on the gateway.
    for (const session of terminals()?.list() ?? [])
      if (
        session.kind === 'ssh' &&
        session.gatewayId &&
        ['open', 'connecting', 'reconnecting'].includes(session.state)
      )
        sshGateways.add(session.gatewayId);
  };
  const requireRun = (runId: string) => {
    const entry = wizardRuns.get(runId);
    if (!entry) throw new IpcError('NOT_FOUND', 'This wizard run has ended; start the wizard again.');
    return entry;
  };

  addShutdownHook(() => {
    for (const { run } of wizardRuns.values()) run.cancel();
  });
  cancellation.addFinder((callId) => {
    const wizard = wizardRuns.get(callId)?.run;
    return wizard ? () => wizard.cancel() : undefined;
  });

  return {
    'wizard:start': ({ wizard, gatewayId }) =>
      mapped(() => {
        const run = startWizardRun(wizard, gatewayId, {
          ...engineOptions(dependencies),
          environment: {
            hasSshTerminal: (id) => sshGateways.has(id),
            connectivityCheckUsesPing: true,
          },
        });
        run.on('event', (event) => events.emit('wizard:event', event));
        wizardRuns.set(run.runId, { run, isApplying: false });
        forgetOldest(wizardRuns, MAX_WIZARD_RUNS, (entry) => entry.isApplying);
        return { runId: run.runId };
      }),
    'wizard:read': ({ runId }) =>
      mapped(async () => {
        const { run } = requireRun(runId);
        const state = await run.read();
        return { state, edit: run.definition.editOf(state) };
      }),
    'wizard:review': ({ runId, edit }) =>
      mapped(async () => {
        const { run } = requireRun(runId);
        refreshSshGateways();
        try {
          const { edit: _edit, ...review } = run.review(edit);
          return review;
        } catch (error) {
          if (error instanceof TypeError)
            throw new IpcError('INVALID_INPUT', `The edit is incomplete: ${error.message}`);
          throw error;
        }
      }),
    'wizard:apply': ({ runId, edit, confirmations }) =>
      mapped(async () => {
        const entry = requireRun(runId);
        refreshSshGateways();
        entry.isApplying = true;
        try {
          return await entry.run.apply(edit, confirmations ?? {});
        } finally {
          entry.isApplying = false;
        }
      }),
  };
}
