// The browser host in a process of its own, for tests that must see the process survive (or measure its memory):
// an in-process host would share the test's heap and its fate. Run with one JSON argument (HostChildConfig);
// prints `Field Kit UI: <url>` once listening and closes on SIGTERM.
// An export renders the report's Svelte components: compiled for the server by the hook (this runs under tsx).
import '../../build/svelte-register.mjs';
import { startHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';

/** What the host process is started with. */
export interface HostChildConfig {
  dataDir: string;
  rendererDir: string;
}

async function main(config: HostChildConfig): Promise<void> {
  const host = await startHost({
    dataDir: config.dataDir,
    rendererDir: config.rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: { info: () => undefined, error: (message) => console.error(message) },
  });
  process.once('SIGTERM', () => void host.close().then(() => process.exit(0)));
  console.log(`Field Kit UI: ${host.url}`);
}

await main(JSON.parse(process.argv[2] ?? '{}') as HostChildConfig);
