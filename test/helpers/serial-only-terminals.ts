import type { SerialPorts } from '../../electron/services/serial/serial-ports';
import type {
  SerialTerminal,
  TerminalManagerDependencies,
} from '../../electron/services/terminals/terminal-types';

/**
 * The parts of a TerminalManager's dependencies for a test with serial consoles only: the real serial ports, and
 * SSH and the relay refusing (nothing here opens them). Spread into the manager's dependencies beside its events.
 */
export function serialOnlyTerminals(
  serialPorts: SerialPorts,
): Pick<TerminalManagerDependencies, 'serialPorts' | 'ssh' | 'resolveRelay'> {
  return {
    serialPorts: {
      list: () => serialPorts.list(),
      open: async (input) => (await serialPorts.open(input)) as SerialTerminal,
    },
    ssh: {
      openReverse: () => Promise.reject(new Error('no SSH here')),
      openDirect: () => Promise.reject(new Error('no SSH here')),
      replaceHostKey: async () => undefined,
    },
    resolveRelay: () => Promise.reject(new Error('no relay here')),
  };
}
