import type { CommandHandlers } from './context';

/** Firewall commands: read and replace the whole configuration. */
export const firewallCommands: CommandHandlers<'getFirewallConfiguration' | 'setFirewallConfiguration'> = {
  getFirewallConfiguration({ state }) {
    return structuredClone(state.configuration.firewall);
  },

  setFirewallConfiguration({ state }, request) {
    state.configuration.firewall = structuredClone(request);
    return { status: 'OK' };
  },
};
