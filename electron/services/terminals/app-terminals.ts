import { join } from 'node:path';
import type { Profile } from '../../shared/ipc/schemas';
import type { CommandService } from '../commands';
import type { CredentialStore } from '../credentials';
import { SerialPorts, type BindingInterface } from '../serial';
import { KnownHosts, SshService } from '../ssh';
import { TerminalManager } from './terminal-manager';
import type { SerialTerminal, TerminalEventSink } from './terminal-types';
import { createRelayResolver, type RootPasswords } from './terminal-secrets';
import type { TerminalJournal } from '../visit';
import type { Clock } from '../../shared/clock';

/** The known-hosts file inside the app data folder. */
export const KNOWN_HOSTS_FILE = 'known-hosts.json';

/** The parts of the application the terminals use (FieldKitServices has them all). */
export interface TerminalHost {
  events: TerminalEventSink;
  profiles: { get(id: string): Profile };
  sessions: {
    summary(): { profileId: string } | null;
  };
  /** The command service reverseSsh and stopReverseSsh go through. */
  commands: Pick<CommandService, 'send'>;
  log: { error(message: string, error?: unknown): void };
  /** Where reverse SSH finds and keeps gateways' root passwords (per signed-in profile). */
  rootPasswords: Pick<RootPasswords, 'rootPassword' | 'rememberRootPassword'>;
  addShutdownHook(hook: () => Promise<void> | void): void;
  /** The open visit's journal, where sessions and triages are recorded as they happen. */
  terminalJournal?: TerminalJournal;
  /** The app's time and timers: the sessions', their logs', the tunnel waits' and the triages'. */
  clock: Clock;
}

/** What the composition root hands in: folders, the keychain, and the demo console when in demo mode. */
export interface AppTerminalsOptions {
  dataDir: string;
  /** Session logs go here (logging is on by default). */
  logsDir: string;
  credentials: CredentialStore;
  /** The simulator's in-process "Demo gateway console" binding (demo mode). */
  demoBinding?: BindingInterface;
  /** The name of the gateway behind the demo console (its sessions' title and log name). */
  demoGateway?: string;
  /** Relay passwords known without the keychain (the demo simulator's), by profile id. */
  knownRelayPasswords?: ReadonlyMap<string, string>;
}

/**
 * Builds the TerminalManager over the real SSH and serial services: host keys pinned in
 * `<dataDir>/known-hosts.json`, session logs in `logsDir`, reverseSsh/stopReverseSsh through the signed-in API
 * session, relay from the signed-in profile. Registers a shutdown hook that closes every session on quit.
 */
export function createAppTerminals(host: TerminalHost, options: AppTerminalsOptions): TerminalManager {
  const { rootPasswords } = host;
  const ssh = new SshService({
    runCommand: (gatewayId, command, body) => host.commands.send({ gatewayId, name: command, body }),
    knownHosts: new KnownHosts({ path: join(options.dataDir, KNOWN_HOSTS_FILE) }),
    credentials: rootPasswords,
    logsDir: options.logsDir,
    clock: host.clock,
  });
  const serialPorts = new SerialPorts({
    logsDir: options.logsDir,
    clock: host.clock,
    ...(options.demoBinding ? { demoBinding: options.demoBinding } : {}),
    ...(options.demoGateway ? { demoGateway: options.demoGateway } : {}),
  });
  const manager = new TerminalManager({
    events: host.events,
    serialPorts: {
      list: () => serialPorts.list(),
      open: async (input) => (await serialPorts.open(input)) as SerialTerminal,
    },
    ssh,
    resolveRelay: createRelayResolver({
      currentProfile: () => {
        const summary = host.sessions.summary();
        return summary ? host.profiles.get(summary.profileId) : undefined;
      },
      credentials: options.credentials,
      ...(options.knownRelayPasswords ? { knownPasswords: options.knownRelayPasswords } : {}),
    }),
    rememberRootPassword: rootPasswords.rememberRootPassword,
    rootPassword: rootPasswords.rootPassword,
    log: host.log,
    clock: host.clock,
    ...(host.terminalJournal ? { journal: host.terminalJournal } : {}),
  });
  host.addShutdownHook(() => manager.closeAll());
  return manager;
}
