import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type SimulatorSettingsInput } from '../../simulator';
import { DemoConsoleBinding } from '../../simulator/serial';
import { demoProfileFields, demoTerminals } from '../app/demo-terminals';
import type { CommissioningOptions } from '../app/domains/engines';
import { ChromiumPdfPrinter } from './chromium-pdf-printer';
import { createDefaultServerSession, FieldKitServices, type Log } from '../app';
import {
  openCredentialStore,
  type CredentialStore,
  type OpenedCredentialStore,
} from '../services/credentials';
import { HOST_ADDRESS, HostAddressError, startHostServer, type RunningHost } from './host-server';
import type { Clock } from '../shared/clock';

/** The checkout's root (electron/host/ is two levels down). */
export const ROOT = join(import.meta.dirname, '..', '..');

/** How to start the browser host in-process. */
export interface StartHostOptions {
  port?: number;
  /** Anything but 127.0.0.1 is refused. */
  host?: string;
  /** With no profile configured, start the simulator in-process and preselect its demo profile. */
  demo?: boolean;
  /** Simulator settings for demo mode (`--access-ttl 3` → `{ accessTtl: 3 }`). */
  simulator?: SimulatorSettingsInput;
  /** The app data folder (profiles.json); default `$FIELDKIT_DATA_DIR` or `.fieldkit-data/` in the checkout. */
  dataDir?: string;
  /** The built renderer; default `out/renderer` in the checkout. */
  rendererDir?: string;
  /** The credential store; default the OS keychain, or session-only memory when none answers. */
  credentials?: OpenedCredentialStore;
  /** The token of the first link (tests may fix it). */
  token?: string;
  /** Milliseconds since the epoch, for link expiry (tests move time). */
  clock?: Pick<Clock, 'now'>;
  log?: Log;
  /** Wait between quiet checks of an unreachable server (default 10 s, no backoff). Tests shorten it. */
  serverCheckIntervalMs?: number;
  /** Wait between quiet checks while the server answers (default 15 s). Tests change it. */
  serverAnsweringCheckIntervalMs?: number;
  /** Requests a site pack preparation keeps in flight (default 8). */
  sitePackConcurrency?: number;
  /** Time limits of the wizards and gateway tasks (tests shorten them). */
  commissioningTiming?: CommissioningOptions['timing'];
}

/** A running host with its services (tests look behind the wire through them). */
export interface StartedHost extends RunningHost {
  services: FieldKitServices;
  /** The demo simulator's base URL when demo mode started one. */
  simulatorUrl?: string;
  /** The demo simulator itself (fixture, SSH side), for tests and benchmarks that look behind the app. */
  simulator?: Awaited<ReturnType<typeof startSimulator>>;
}

/** Logs to stderr, so stdout carries only the `Field Kit UI:` line. */
export const STDERR_LOG: Log = {
  info: (message) => process.stderr.write(`[host] ${message}\n`),
  error: (message, error) =>
    process.stderr.write(
      `[host] ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    ),
};

/**
 * Starts the browser host: the services (profiles, keychain, sessions), the demo simulator when asked and no
 * profile exists, and the HTTP + WebSocket server on 127.0.0.1. `close()` stops all of it.
 */
export async function startHost(options: StartHostOptions = {}): Promise<StartedHost> {
  if (options.host !== undefined && options.host !== HOST_ADDRESS) {
    throw new HostAddressError(`The browser host only listens on ${HOST_ADDRESS}; refusing ${options.host}.`);
  }
  const log = options.log ?? STDERR_LOG;
  const dataDir = options.dataDir ?? process.env.FIELDKIT_DATA_DIR ?? join(ROOT, '.fieldkit-data');
  // The keychain probe (a D-Bus round trip or a timeout) runs beside the services' and the simulator's start.
  const probe = options.credentials ? undefined : probeKeychain(openCredentialStore());
  const credentials = options.credentials ?? probe!.credentials;
  const services = await FieldKitServices.create({
    dataDir,
    mode: 'browser',
    version: readVersion(),
    credentials,
    createSession: createDefaultServerSession,
    log,
    serverCheckIntervalMs: options.serverCheckIntervalMs,
    serverAnsweringCheckIntervalMs: options.serverAnsweringCheckIntervalMs,
    sitePackConcurrency: options.sitePackConcurrency,
    // The browser host prints reports with headless Chromium (the app uses Electron's printToPDF).
    commissioning: {
      reportsDir: join(dataDir, 'reports'),
      printer: new ChromiumPdfPrinter(),
      timing: options.commissioningTiming,
    },
  });
  let simulator: Awaited<ReturnType<typeof startSimulator>> | undefined;
  try {
    if (options.demo && services.profiles.isEmpty()) {
      simulator = await startSimulator({ ...options.simulator, port: 0, host: HOST_ADDRESS });
      services.profiles.setDemoProfile(demoProfileFields(simulator), { select: true });
      log.info(`demo server (simulator) at ${simulator.url}`);
    }
    services.attachTerminals({
      dataDir,
      logsDir: join(dataDir, 'logs'),
      credentials: credentials.store,
      ...(simulator
        ? demoTerminals(
            services,
            simulator,
            services.profiles.list().selectedId,
            (setup) => new DemoConsoleBinding(setup),
          )
        : {}),
    });
    if (probe) {
      // Usually settled by now; awaited before serving, so every client reads the final keychain mode.
      const opened = await probe.publish();
      if (opened.keychain === 'session-only') services.noteKeychainUnavailable(opened.reason);
    }
    const running = await startHostServer({
      services,
      rendererDir: options.rendererDir ?? join(ROOT, 'out', 'renderer'),
      port: options.port,
      token: options.token,
      clock: options.clock,
      onClose: async () => {
        await services.close();
        await simulator?.close();
      },
    });
    return {
      // A getter, not a copy: each read of `url` issues a new one-time link.
      get url() {
        return running.url;
      },
      port: running.port,
      close: () => running.close(),
      services,
      ...(simulator ? { simulatorUrl: simulator.url, simulator } : {}),
    };
  } catch (error) {
    await services.close();
    await simulator?.close();
    throw error;
  }
}

/**
 * Credentials to build the services with while the keychain probe still runs: every call waits for the probe, then
 * goes to the store it chose. `keychain` reads `os` until `publish()` (so FieldKitServices.create never adds the
 * session-only notice itself; startHost does, once); after it, the probe's answer.
 */
function probeKeychain(probe: Promise<OpenedCredentialStore>): {
  credentials: OpenedCredentialStore;
  publish(): Promise<OpenedCredentialStore>;
} {
  let published: OpenedCredentialStore | undefined;
  const store: CredentialStore = {
    get kind() {
      return published?.store.kind ?? 'os';
    },
    get: async (service, account) => (await probe).store.get(service, account),
    set: async (service, account, secret) => (await probe).store.set(service, account, secret),
    delete: async (service, account) => (await probe).store.delete(service, account),
  };
  return {
    credentials: {
      store,
      get keychain() {
        return published?.keychain ?? 'os';
      },
      get reason() {
        return published?.reason;
      },
    },
    publish: async () => (published = await probe),
  };
}

function readVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
