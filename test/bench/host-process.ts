// The browser host in a process of its own, for the terminal benchmark: main's work is then measured apart from the
// benchmark's (Playwright, the DevTools client), as Electron's main process is. Its profile points at a simulator
// process and that simulator's SSH relay. Run with one JSON argument (HostProcessConfig); prints
// `Field Kit UI: <url>` once listening and closes on SIGTERM.
import { startHost } from '../../electron/host/start-host';
import { CREDENTIAL_SERVICE, MemoryStore } from '../../electron/services/credentials';
import { relayPasswordAccount } from '../../electron/services/terminals';

/** What the host process is started with. */
export interface HostProcessConfig {
  dataDir: string;
  rendererDir: string;
  /** The simulator process's URL. */
  baseUrl: string;
  demoAccounts: Array<{ username: string; password: string; role: string }>;
  relay: { host: string; port: number; username: string; password: string };
}

async function main(config: HostProcessConfig): Promise<void> {
  const credentials = new MemoryStore();
  const host = await startHost({
    dataDir: config.dataDir,
    rendererDir: config.rendererDir,
    credentials: { store: credentials, keychain: 'session-only' },
    log: { info: () => undefined, error: (message) => console.error(message) },
  });
  const { password, ...relay } = config.relay;
  const profile = host.services.profiles.setDemoProfile(
    { name: 'Demo network server', baseUrl: config.baseUrl, demoAccounts: config.demoAccounts, relay },
    { select: true },
  );
  await credentials.set(CREDENTIAL_SERVICE, relayPasswordAccount(profile.id), password);
  process.once('SIGTERM', () => void host.close().then(() => process.exit(0)));
  console.log(`Field Kit UI: ${host.url}`);
}

await main(JSON.parse(process.argv[2] ?? '{}') as HostProcessConfig);
