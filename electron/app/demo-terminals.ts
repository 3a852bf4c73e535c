// The demo's terminals, shared by both composition roots (Electron main and the browser host). Services may not
// import the simulator (eslint layering), so the simulator is described here by the parts used, and the demo
// console's binding is built by a factory the caller passes in (main/host import DemoConsoleBinding).
import type { Profile } from '../shared/ipc/schemas';
import type { BindingInterface } from '../services/serial';
import type { AppTerminalsOptions } from '../services/terminals/app-terminals';
import type { FieldKitServices } from './field-kit-services';

/** The demo profile's name, as the login screen shows it. */
export const DEMO_PROFILE_NAME = 'Demo network server';

/** A simulated gateway as the demo terminals need it (the simulator fixture's gateway has these fields). */
export interface DemoGateway {
  id: string;
  name: string;
  bspVersion: string;
  rootPassword: string;
  initialStatus: 'ONLINE' | 'OFFLINE';
}

/** What the demo console's binding is built from (the simulator's SerialConsoleGateway). */
export interface DemoConsoleGateway {
  gatewayId: string;
  hostname: string;
  bspVersion: string;
  rootPassword: string;
}

/**
 * A gateway's serial console as the simulator describes it (RunningSimulator.serialConsoleOf): the gateway and
 * whatever else its shell needs to answer from the gateway's simulated state, handed to the binding as is.
 */
export interface DemoConsoleSetup {
  gateway: DemoConsoleGateway;
}

/** The parts of a running simulator the demo uses (RunningSimulator has them all). */
export interface DemoSimulator<Setup extends DemoConsoleSetup = DemoConsoleSetup> {
  url: string;
  fixture: {
    accounts: ReadonlyArray<{ username: string; password: string; role: string }>;
    gateways: readonly DemoGateway[];
  };
  /** The built-in SSH relay, present when the simulator started with `ssh: true`. */
  relay?: { host: string; port: number; username: string; password: string };
  /** The serial console of a gateway, answering from its state (the `--serial` consoles use the same). */
  serialConsoleOf(gatewayId: string): Setup;
}

/** The terminal options the demo adds to `attachTerminals`: the demo console and the relay's known password. */
export type DemoTerminalOptions = Pick<
  AppTerminalsOptions,
  'demoBinding' | 'demoGateway' | 'knownRelayPasswords'
>;

/** The gateway behind the demo serial console: the first one online when the simulator started. */
export function demoConsoleGateway<Gateway extends DemoGateway>(fixture: {
  gateways: readonly Gateway[];
}): Gateway {
  const gateways = fixture.gateways;
  return gateways.find((candidate) => candidate.initialStatus === 'ONLINE') ?? gateways[0]!;
}

/** The demo profile for a simulator: its address, public demo accounts and, with SSH on, its relay. */
export function demoProfileFields(simulator: DemoSimulator): Omit<Profile, 'id' | 'isDemo'> {
  return {
    name: DEMO_PROFILE_NAME,
    baseUrl: simulator.url,
    demoAccounts: simulator.fixture.accounts.map(({ username, password, role }) => ({
      username,
      password,
      role,
    })),
    ...(simulator.relay
      ? {
          relay: {
            host: simulator.relay.host,
            port: simulator.relay.port,
            username: simulator.relay.username,
          },
        }
      : {}),
  };
}

/**
 * The demo console of the first online gateway (built by `createConsoleBinding` from the simulator's own console
 * setup, so that its shell answers from that gateway's simulated state: a wrong APN or a cable out shows in a
 * triage), and the demo relay's password for the demo profile: also recorded in `services.relayPasswords`, so the
 * profile reads "stored".
 */
export function demoTerminals<Setup extends DemoConsoleSetup>(
  services: Pick<FieldKitServices, 'relayPasswords'>,
  simulator: DemoSimulator<Setup>,
  demoProfileId: string | null,
  createConsoleBinding: (setup: Setup) => BindingInterface,
): DemoTerminalOptions {
  const gateway = demoConsoleGateway(simulator.fixture);
  const demoBinding = createConsoleBinding(simulator.serialConsoleOf(gateway.id));
  const demoConsole = { demoBinding, demoGateway: gateway.name };
  if (!simulator.relay || !demoProfileId) return demoConsole;
  services.relayPasswords.know(demoProfileId, simulator.relay.password);
  return { ...demoConsole, knownRelayPasswords: services.relayPasswords.knownPasswords };
}
