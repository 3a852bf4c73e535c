// The browser host in a process of its own, for the field benchmark's start figures: its data folder holds a
// profile whose password is remembered (in a memory keychain filled before the host starts), so a start with the
// server up resumes the session and a start with it down cannot. Run with one JSON argument (FieldHostConfig);
// prints `Field Kit UI: <url>` once listening and closes on SIGTERM.
import { startHost } from '../../electron/host/start-host';
import { CREDENTIAL_SERVICE, MemoryStore, passwordAccount } from '../../electron/services/credentials';

/** What the host process is started with. */
export interface FieldHostConfig {
  dataDir: string;
  rendererDir: string;
  profileId: string;
  username: string;
  password: string;
}

async function main(config: FieldHostConfig): Promise<void> {
  const credentials = new MemoryStore();
  await credentials.set(
    CREDENTIAL_SERVICE,
    passwordAccount(config.profileId),
    JSON.stringify({ username: config.username, password: config.password }),
  );
  const host = await startHost({
    dataDir: config.dataDir,
    rendererDir: config.rendererDir,
    credentials: { store: credentials, keychain: 'os' },
    log: { info: () => undefined, error: (message) => console.error(message) },
  });
  process.once('SIGTERM', () => void host.close().then(() => process.exit(0)));
  console.log(`Field Kit UI: ${host.url}`);
}

await main(JSON.parse(process.argv[2] ?? '{}') as FieldHostConfig);
