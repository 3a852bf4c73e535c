import { EventHub } from '../shared/ipc/event-hub';
import type { IpcError } from '../shared/ipc/result';
import type { HandlerTable } from '../shared/ipc/router';
import type { Notice, Profile } from '../shared/ipc/schemas';
import { t, type MessageKey } from '../shared/i18n';
import { writeNotice, type NoticeDraft } from '../shared/notice-words';
import { AuditLog } from '../services/audit';
import { checkDataFolder, removeStaleTemporaryFiles } from '../services/files/data-folder';
import { CommandService, type GatewayCommander } from '../services/commands';
import type { OpenedCredentialStore } from '../services/credentials';
import { OfflineCache } from '../services/offline-cache';
import { SitePacks } from '../services/site-pack';
import { ProfileStore } from '../services/profiles';
import { RelayPasswords, RootPasswords } from '../services/terminals/terminal-secrets';
import { createAppTerminals, type AppTerminalsOptions, type TerminalManager } from '../services/terminals';
import { createGatewaysHandlers } from './domains/gateways';
import { createIntegrationsHandlers } from './domains/integrations';
import { createAppHandlers } from './domains/app';
import { createApiHandlers } from './domains/api';
import { createCommandsHandlers } from './domains/commands';
import { mapped, type CommissioningOptions } from './domains/engines';
import { FieldMeasurements } from './domains/field-measurements';
import { createFleetHandlers } from './domains/fleet';
import { createProfilesHandlers } from './domains/profiles';
import { createAuditHandlers } from './domains/audit';
import { createReportHandlers } from './domains/report';
import { CustomerStore, KnownCustomers } from '../services/customers';
import { createCustomersHandlers } from './domains/customers';
import { createAcceptanceHandlers } from './domains/acceptance';
import { acceptanceThresholdsOf, createAcceptanceThresholdsHandlers } from './domains/acceptance-thresholds';
import { createCustomerSettingsHandlers } from './domains/customer-settings';
import { createRunbooksDomain } from './domains/runbooks';
import { createServerSessionHandlers } from './domains/server-session';
import { createTasksHandlers } from './domains/tasks';
import { createWizardsHandlers } from './domains/wizards';
import { createSitePackHandlers } from './domains/site-pack';
import { createTerminalsHandlers } from './domains/terminals';
import { createVisitHandlers } from './domains/visit';
import {
  createRunbookJournal,
  createTerminalJournal,
  describeOpenVisitOffer,
  MeasurementJournal,
  journalUnsettledSends,
  VisitCommandJournal,
  Visits,
  type TerminalJournal,
} from '../services/visit';
import { createVisitGateways, type VisitGateways } from './visit-gateways';
import { CallCancellation } from './call-cancellation';
import { mapServiceError } from './error-mapping';
import { createServerFetch } from '../services/api';
import { ServerReachability } from './server-reachability';
import type { ServerWatch } from './server-watch';
import {
  ServerSessionController,
  type ServerSessionAccount,
  type ServerSessionEndReason,
} from './server-session-controller';
import type { ServerSessionFactory } from './server-session-port';
import { SYSTEM_CLOCK, type Clock } from '../shared/clock';

/** Something to stop when the app quits (terminal sessions, reverse tunnels…); errors are logged, not thrown. */
export type ShutdownHook = () => Promise<void> | void;

/** Where messages for the log go (main: a log file; host: stderr; tests: a spy). */
export interface Log {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Plain values the composition root hands in (only main/host read paths and the environment). */
export interface FieldKitServicesOptions {
  dataDir: string;
  mode: 'electron' | 'browser';
  version: string;
  credentials: OpenedCredentialStore;
  createSession: ServerSessionFactory;
  /**
   * The app's time and timers (default SYSTEM_CLOCK), handed to every service: tests pass a ManualClock, or the
   * system clock's timers with a time of their own.
   */
  clock?: Clock;
  log?: Log;
  createFetch?: (profile: Profile) => typeof fetch;
  /** The wait between quiet checks of an unreachable server (default 10 s; tests shorten it). */
  serverCheckIntervalMs?: number;
  /** The wait between quiet checks while the server answers (default 15 s; tests change it). */
  serverAnsweringCheckIntervalMs?: number;
  /** Requests a site pack preparation keeps in flight (default 8). */
  sitePackConcurrency?: number;
  /** Where site reports go and which PDF printer makes them; none: `report:export` says reports are not set up. */
  commissioning?: CommissioningOptions;
}

/** What a reverse-SSH tab says once the end of the server session closed it. */
const REVERSE_CLOSED_BECAUSE: Record<ServerSessionEndReason, MessageKey> = {
  'sign-out': 'main:reverseClosedSignOut',
  expired: 'main:reverseClosedExpired',
  replaced: 'main:reverseClosedReplaced',
};

/** The terminal manager's key for an account: the same user on another profile is another account. */
function accountKey(account: ServerSessionAccount): string {
  return JSON.stringify([account.profileId, account.username]);
}

const SILENT_LOG: Log = { info: () => undefined, error: () => undefined };

/**
 * The plain-Node application behind both transports (Electron IPC and the browser host's WebSocket): the
 * services, the handler table of every contract channel, the events they push and the error mapping.
 */
export class FieldKitServices {
  readonly events = new EventHub();
  readonly profiles: ProfileStore;
  readonly sessions: ServerSessionController;
  readonly handlers: HandlerTable;
  readonly log: Log;
  /** Every gateway command run from the console, per profile (append-only JSON lines, secrets redacted). */
  readonly audit: AuditLog;
  /** The signed-in session's wire of gateway commands: what every CommandService sends through. */
  readonly gatewayTransport: GatewayCommander;
  /** The console's way to the gateway: guard, audit (a change `sent` before it leaves), time limit. */
  readonly commands: CommandService;
  /** Finds any long call by id for `call:cancel` (each domain adds the calls it keeps). */
  private readonly cancellation = new CallCancellation();
  /** Whether the server answers while the app works without it; its watch is `serverWatch`. */
  private readonly reachability: ServerReachability;
  /** The last answers of the list and gateway-page reads, per profile, for offline use. */
  readonly offlineCache: OfflineCache;
  /** The profiles' relay passwords (keychain, or memory in session-only mode); answers only "stored or not". */
  readonly relayPasswords: RelayPasswords;
  /** Gateways' root passwords, kept per profile; removed with the profile or on "forget" at sign-out. */
  readonly rootPasswords: RootPasswords;
  /** The site packs prepared per profile for work with no network. */
  readonly sitePacks: SitePacks;
  /** Checks the server quietly while the app works without it, and resumes the session when it answers. */
  readonly serverWatch: ServerWatch;
  /** The visits and their journals (`<dataDir>/visits/`); the open one records what is done (VisitRecorder). */
  readonly visits: Visits;
  /**
   * Names a gateway by identity when an entry is recorded (the server, else the site pack, else as typed), and lets
   * the technician pick the gateway for what was typed.
   */
  readonly visitGateways: VisitGateways;
  /** The customers each profile knows of (the API lists none): learned from answers, named, kept per profile. */
  readonly customers: KnownCustomers;
  /** Where the terminals record sessions and triages in the open visit. */
  readonly terminalJournal: TerminalJournal;
  /** The open visit's journal as the command path's second recorder: every gateway change, step and fleet row. */
  readonly journal: VisitCommandJournal;
  private readonly notices: Array<Required<NoticeDraft>> = [];
  private readonly languageListeners = new Set<() => void>();
  /** The last user signed in on each profile in this run (before that: the profile's saved user name). */
  private readonly lastUsers = new Map<string, string>();
  private terminalManager: TerminalManager | undefined;
  private readonly shutdownHooks: ShutdownHook[] = [];
  /** The app's time and timers: every service built here runs on it. */
  readonly clock: Clock;
  private readonly now: () => number;
  private closed = false;

  private constructor(private readonly options: FieldKitServicesOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => this.clock.now();
    this.log = options.log ?? SILENT_LOG;
    this.profiles = new ProfileStore({ folder: options.dataDir, clock: this.clock });
    this.audit = new AuditLog({ dataDir: options.dataDir, clock: this.clock });
    this.gatewayTransport = {
      command: (gatewayId, name, body, callOptions) =>
        this.sessions.requireSession().sendGatewayCommand(gatewayId, name, body, callOptions),
    };
    this.visits = new Visits({ dataDir: options.dataDir, clock: this.clock });
    this.journal = new VisitCommandJournal(this.visits, this.clock);
    this.commands = new CommandService({
      transport: this.gatewayTransport,
      audit: this.audit,
      journal: this.journal,
      clock: this.clock,
    });
    this.offlineCache = new OfflineCache({ dataDir: options.dataDir, clock: this.clock });
    this.relayPasswords = new RelayPasswords(options.credentials.store);
    this.rootPasswords = new RootPasswords(
      options.credentials.store,
      () => this.sessions.summary()?.profileId,
    );
    this.sitePacks = new SitePacks({
      dataDir: options.dataDir,
      clock: this.clock,
      onNotice: (notice) => this.addNotice(notice),
    });
    this.visits.onChange((current) => this.events.emit('visit:changed', current));
    this.customers = new KnownCustomers({
      store: new CustomerStore({ dataDir: options.dataDir, clock: this.clock }),
      clock: this.clock,
      onChange: (profileId) => this.events.emit('customers:changed', { profileId }),
      log: this.log,
    });
    this.visitGateways = createVisitGateways({
      sessions: {
        summary: () => this.sessions.summary(),
        requireSession: () => this.sessions.requireSession(),
      },
      selectedProfileId: () => this.profiles.list().selectedId ?? undefined,
      sitePacks: this.sitePacks,
      visits: this.visits,
      clock: this.clock,
    });
    this.terminalJournal = createTerminalJournal({
      recorder: this.visits,
      resolve: this.visitGateways.resolve,
      visits: this.visits,
    });
    this.sessions = new ServerSessionController({
      profiles: this.profiles,
      credentials: options.credentials.store,
      events: this.events,
      // Every session runs on the app's Clock.
      createSession: (target) => options.createSession({ ...target, clock: this.clock }),
      // Every request of the session tells the server watch whether the server answered (reachability.observe).
      createFetch: (profile) => this.reachability.observe(this.serverFetchFor(profile)),
      onNotice: (notice) => this.addNotice(notice),
      onSessionEnding: (_account, reason) => this.endServerWork(reason),
      onSessionStarted: (account) => this.startAccountWork(account),
    });
    this.reachability = new ServerReachability({
      sessions: this.sessions,
      profiles: this.profiles,
      events: this.events,
      log: this.log,
      createFetch: options.createFetch,
      intervalMs: options.serverCheckIntervalMs,
      answeringIntervalMs: options.serverAnsweringCheckIntervalMs,
      clock: this.clock,
    });
    this.serverWatch = this.reachability.watch;
    this.handlers = this.buildHandlers();
  }

  /**
   * Builds the services and loads the profiles; a corrupt profiles file becomes a notice, not a failure. Refuses
   * (UnsafePathError) a data folder other users could write to, before reading anything in it; removes the
   * temporary files interrupted writes left there.
   */
  static async create(options: FieldKitServicesOptions): Promise<FieldKitServices> {
    await checkDataFolder(options.dataDir);
    const services = new FieldKitServices(options);
    const removed = await removeStaleTemporaryFiles(options.dataDir, services.now());
    if (removed.length > 0) services.log.info(`removed ${removed.length} stale temporary file(s)`);
    for (const notice of await services.profiles.load()) services.addNotice(notice);
    for (const notice of await services.visits.load()) services.addNotice(notice);
    // Changes sent when Field Kit stopped before their answer: unknown in the open visit too, once.
    await journalUnsettledSends(options.dataDir, services.audit, services.visits).catch((error: unknown) =>
      services.log.error('the visit journal could not record the changes left unknown', error),
    );
    const open = services.visits.current();
    if (open)
      services.addNotice({
        code: 'VISIT_OPEN',
        message: () => describeOpenVisitOffer(open, services.visits.entries(open.id)),
      });
    services.addShutdownHook(() => services.visits.shutdown());
    if (options.credentials.keychain === 'session-only') {
      services.noteKeychainUnavailable(options.credentials.reason);
    }
    return services;
  }

  /** Tells the user (a notice) and the log that logins are kept for this session only. */
  noteKeychainUnavailable(reason: string | undefined): void {
    this.addNotice({
      code: 'KEYCHAIN_UNAVAILABLE',
      message: () => t('main:noticeKeychainUnavailable'),
    });
    this.log.info(`keychain unavailable: ${reason ?? 'unknown reason'}`);
  }

  /**
   * Builds the terminals (SSH, serial) and serves the terminals channels with them; until this runs those channels
   * answer that terminals are not available. Called once by main or the browser host, after the demo (if any) has
   * set up its profile, since the demo's serial console and relay password are part of the terminals.
   */
  attachTerminals(options: AppTerminalsOptions): TerminalManager {
    this.terminalManager = createAppTerminals(this, options);
    return this.terminalManager;
  }

  /** Turns service errors into IPC errors (hand this to the router). */
  readonly mapError = (error: unknown): IpcError | undefined => mapServiceError(error);

  /** Logs the real cause of an error the renderer only sees as INTERNAL (hand this to the router). */
  readonly onInternalError = (channel: string, error: unknown): void => {
    this.log.error(`internal error on ${channel}`, error);
  };

  /** Registers something to stop on quit; hooks run in reverse order of registration. */
  addShutdownHook(hook: ShutdownHook): void {
    this.shutdownHooks.push(hook);
  }

  /** Calls `listener` each time the screen sets main's language (`app:language`); returns how to stop. */
  onLanguageChange(listener: () => void): () => void {
    this.languageListeners.add(listener);
    return () => this.languageListeners.delete(listener);
  }

  /** Records a notice for `app:notices` and pushes it as `app:notice`. */
  addNotice(notice: NoticeDraft): void {
    const kept = { code: notice.code, message: notice.message, at: notice.at ?? this.now() };
    this.notices.push(kept);
    const written = { ...kept, message: writeNotice(kept.message) };
    this.log.info(`notice ${written.code}: ${written.message}`);
    this.events.emit('app:notice', written);
  }

  /** The notices raised so far, written in the current language (`app:notices`, read again on a change of it). */
  writtenNotices(): Notice[] {
    return this.notices.map((notice) => ({ ...notice, message: writeNotice(notice.message) }));
  }

  /** Runs every shutdown hook once (errors logged), forgets the session (remembered logins stay) and writes the offline cache. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const hook of [...this.shutdownHooks].reverse()) {
      try {
        await hook();
      } catch (error) {
        this.log.error('shutdown hook failed', error);
      }
    }
    this.serverWatch.stop();
    this.sessions.close();
    await this.offlineCache.close();
  }

  /**
   * Whose work the app shows on a profile when nobody is signed in (field mode): the user signed in last on it in
   * this run, else the user name the profile keeps (saved at each sign-in); undefined when neither is known.
   */
  lastUserOf(profileId: string): string | undefined {
    const remembered = this.lastUsers.get(profileId);
    if (remembered !== undefined) return remembered;
    return this.profiles.list().profiles.find((profile) => profile.id === profileId)?.username;
  }

  /** A server session is ending: closes the reverse-SSH terminals that depend on it (never rejects). */
  private async endServerWork(reason: ServerSessionEndReason): Promise<void> {
    await this.terminalManager?.closeReverse(t(REVERSE_CLOSED_BECAUSE[reason]));
  }

  /** An account signed in: the terminals become its own, another account's are closed (never rejects). */
  private async startAccountWork(account: ServerSessionAccount): Promise<void> {
    this.lastUsers.set(account.profileId, account.username);
    await this.terminalManager?.useAccount(accountKey(account));
  }

  /**
   * The handler of every channel: each domain registers its handlers from electron/app/domains/<domain>.ts,
   * given only what it uses. Add a domain with one line here.
   */
  /** The fetch for a profile's server: the one the options give (tests), else certificate-verifying with its pin. */
  private serverFetchFor(profile: Profile): typeof fetch {
    return (
      this.options.createFetch?.(profile) ??
      createServerFetch({ pinnedSha256: profile.trustedCertificateSha256 })
    );
  }

  private buildHandlers(): HandlerTable {
    const { options, profiles, sessions, events, audit, journal, log, cancellation } = this;
    const { offlineCache, sitePacks, rootPasswords, reachability } = this;
    const terminals = () => this.terminalManager;
    const addShutdownHook = (hook: ShutdownHook) => this.addShutdownHook(hook);
    const lastUserOf = (profileId: string) => this.lastUserOf(profileId);
    const engines = {
      sessions,
      gatewayTransport: this.gatewayTransport,
      audit,
      journal,
      timing: options.commissioning?.timing,
    };
    const measurements = new FieldMeasurements();
    return {
      ...createAppHandlers({
        version: options.version,
        mode: options.mode,
        keychain: () => options.credentials.keychain,
        notices: () => this.writtenNotices(),
        onLanguageApplied: () => {
          for (const listener of [...this.languageListeners]) listener();
        },
      }),
      ...createProfilesHandlers({
        profiles,
        sessions,
        relayPasswords: this.relayPasswords,
        rootPasswords,
        customers: this.customers,
        log,
        addNotice: (notice) => this.addNotice(notice),
      }),
      ...createServerSessionHandlers({ sessions, reachability, rootPasswords }),
      ...createApiHandlers({ sessions, offlineCache, reachability, customers: this.customers, log }),
      ...createCommandsHandlers({ sessions, commands: this.commands, cancellation, log }),
      ...createGatewaysHandlers({ sessions, profiles, offlineCache, sitePacks, log }),
      ...createIntegrationsHandlers({ clock: this.clock }),
      ...createWizardsHandlers({ ...engines, cancellation, events, terminals, addShutdownHook }),
      ...createTasksHandlers({
        ...engines,
        cancellation,
        events,
        measurements,
        measurementJournal: new MeasurementJournal(this.visits),
        addShutdownHook,
        clock: this.clock,
      }),
      ...createFleetHandlers({ ...engines, cancellation, events, log, addShutdownHook }),
      ...createAuditHandlers({ sessions, profiles, audit, lastUserOf }),
      ...createReportHandlers({
        sessions,
        profiles,
        sitePacks,
        terminals,
        reports: options.commissioning,
        lastUserOf,
        visits: this.visits,
        resolveGateway: this.visitGateways.resolve,
        clock: this.clock,
        mapped,
      }),
      ...createTerminalsHandlers({ terminals, log }),
      ...createRunbooksDomain({
        dataDir: options.dataDir,
        clock: this.clock,
        events,
        log,
        cancellation,
        terminals,
        journal: createRunbookJournal({ recorder: this.visits, resolve: this.visitGateways.resolve }),
        profileId: () => sessions.summary()?.profileId ?? profiles.list().selectedId ?? undefined,
      }),
      ...createVisitHandlers({
        visits: this.visits,
        gateways: this.visitGateways,
        signedIn: () => sessions.summary() ?? undefined,
        terminalLogs: () => terminals()?.logs?.() ?? [],
        resolveGateway: this.visitGateways.resolve,
      }),
      ...createCustomerSettingsHandlers({ sessions }),
      ...createCustomersHandlers({
        sessions,
        profiles,
        customers: this.customers,
        sitePacks,
        events,
        clock: this.clock,
        log,
      }),
      ...createAcceptanceHandlers({
        sessions,
        cancellation,
        commands: this.commands,
        visits: this.visits,
        events,
        clock: this.clock,
        thresholds: (profileId) => acceptanceThresholdsOf(options.dataDir, profiles, profileId),
        selectedProfileId: () => profiles.list().selectedId ?? undefined,
        resolveGateway: this.visitGateways.resolve,
        sitePacks,
        log,
      }),
      ...createAcceptanceThresholdsHandlers({ dataDir: options.dataDir, profiles }),
      ...createSitePackHandlers({
        sessions,
        customers: this.customers,
        cancellation,
        commands: this.commands,
        profiles,
        events,
        sitePacks,
        rootPasswords,
        log,
        concurrency: options.sitePackConcurrency,
      }),
    };
  }
}
