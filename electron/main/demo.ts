import type { FieldKitServices } from '../services/app';

/** The demo profile's name, as the login screen shows it. */
export const DEMO_PROFILE_NAME = 'Demo network server';

/**
 * With no profile of the user's own, starts the simulator in-process on 127.0.0.1 and preselects a
 * "Demo network server" profile listing its public demo accounts; the simulator stops on quit.
 */
export async function startDemoWhenUnconfigured(services: FieldKitServices): Promise<void> {
  if (!services.profiles.isEmpty()) return;
  const { startSimulator } = await import('../../simulator');
  const simulator = await startSimulator({ port: 0, host: '127.0.0.1' });
  services.addShutdownHook(() => simulator.close());
  services.profiles.setDemoProfile(
    {
      name: DEMO_PROFILE_NAME,
      baseUrl: simulator.url,
      demoAccounts: simulator.fixture.accounts.map(({ username, password, role }) => ({
        username,
        password,
        role,
      })),
    },
    { select: true },
  );
  services.log.info(`demo server (simulator) at ${simulator.url}`);
}
