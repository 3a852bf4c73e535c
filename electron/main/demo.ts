import type { FieldKitServices } from '../app';
import { demoProfileFields, demoTerminals, type DemoTerminalOptions } from '../app/demo-terminals';

/**
 * With no profile of the user's own, starts the simulator in-process on 127.0.0.1 with its SSH side (relay and
 * gateway shells), preselects a "Demo network server" profile listing its public demo accounts and its relay,
 * and answers the terminal options of the demo: the "Demo gateway console" serial port and the relay's known
 * password (as the browser host's demo does). The simulator stops on quit. Answers undefined when not in demo.
 */
export async function startDemoWhenUnconfigured(
  services: FieldKitServices,
): Promise<DemoTerminalOptions | undefined> {
  if (!services.profiles.isEmpty()) return undefined;
  const { startSimulator } = await import('../../simulator');
  const { DemoConsoleBinding } = await import('../../simulator/serial');
  const simulator = await startSimulator({ port: 0, host: '127.0.0.1', ssh: true });
  services.addShutdownHook(() => simulator.close());
  const profile = services.profiles.setDemoProfile(demoProfileFields(simulator), { select: true });
  services.log.info(`demo server (simulator) at ${simulator.url}`);
  return demoTerminals(services, simulator, profile.id, (setup) => new DemoConsoleBinding(setup));
}
