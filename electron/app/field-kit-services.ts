import { isCommandName, isEndpointName, type CommandRequest, type EndpointRequest } from '../shared/api';
import { CALL_TIME_LIMITS_MS } from '../shared/api/timeouts';
import { EventHub } from '../shared/ipc/event-hub';
import { IpcError } from '../shared/ipc/result';
import type { HandlerTable } from '../shared/ipc/router';
import type { Notice, Profile, ProfileDraft } from '../shared/ipc/schemas';
import type { ServerStatus } from '../shared/ipc/contract';
import { createServerFetch } from '../services/api';
import { AuditLog } from '../services/audit';
import { checkDataFolder, removeStaleTemporaryFiles } from '../services/files/data-folder';
import { CommandService, type GatewayCommander } from '../services/commands';
import type { OpenedCredentialStore } from '../services/credentials';
import { CustomerStore, KnownCustomers } from '../services/customers';
import { OfflineCache } from '../services/offline-cache';
import { SitePacks } from '../services/site-pack';
import { ProfileStore } from '../services/profiles';
import { RelayPasswords, RootPasswords } from '../services/terminals/terminal-secrets';
import { createAppTerminals, type AppTerminalsOptions, type TerminalManager } from '../services/terminals';
import { createCustomersHandlers } from './domains/customers';
import { createGatewaysHandlers } from './domains/gateways';
import { createIntegrationsHandlers } from './domains/integrations';
import { createCommissioningHandlers, type CommissioningOptions } from './domains/commissioning';
import { createSitePackHandlers } from './domains/site-pack';
import { acceptanceThresholdsOf, createAcceptanceHandlers } from './domains/acceptance';
import { createTerminalsHandlers } from './domains/terminals';
import { createVisitHandlers } from './domains/visit';
import { createCustomerSettingsHandlers } from './domains/customer-settings';
import { createRunbooksDomain } from './domains/runbooks';
import {
  createRunbookJournal,
  createTerminalJournal,
  describeOpenVisitOffer,
  journalUnsettledSends,
  MeasurementJournal,
  VisitCommandJournal,
  Visits,
  type TerminalJournal,
} from '../services/visit';
import { createVisitGateways, type VisitGateways } from './visit-gateways';
import { CallCancellation } from './call-cancellation';
import { mapServiceError } from './error-mapping';
import { ServerWatch, type ServerCheckOutcome } from './server-watch';
import { SessionController, type SessionAccount, type SessionEndReason } from './session-controller';
import type { SessionFactory } from './session-port';
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
  createSession: SessionFactory;
  /** The app's time; its `sleep`, when given, times the acceptance check's observation window. */
  clock?: Pick<Clock, 'now'> & Partial<Pick<Clock, 'sleep'>>;
  log?: Log;
  createFetch?: (profile: Profile) => typeof fetch;
  /** The wait between quiet checks of an unreachable server (default 10 s; tests shorten it). */
  serverCheckIntervalMs?: number;
  /** Requests a site pack preparation keeps in flight (default 8). */
  sitePackConcurrency?: number;
  /** Where site reports go and which PDF printer makes them; none: `report:export` says reports are not set up. */
  commissioning?: CommissioningOptions;
}

/** What a reverse-SSH tab says once the end of the server session closed it. */
const REVERSE_CLOSED_BECAUSE: Record<SessionEndReason, string> = {
  'sign-out': 'Closed at sign-out: reverse SSH needs a signed-in account.',
  expired:
    'Closed: the session with the server expired, and reverse SSH needs it. Sign in again to reopen it.',
  replaced: 'Closed: another account signed in.',
};

/** The terminal manager's key for an account: the same user on another profile is another account. */
function accountKey(account: SessionAccount): string {
  return JSON.stringify([account.profileId, account.username]);
}

/** Error codes that mean the server could not be reached (as opposed to refusing what was remembered). */
const UNREACHABLE_CODES = new Set(['NETWORK', 'TIMEOUT']);

/**
 * Endpoints only the session may call: their answers are token pairs, which must never reach the renderer
 * (it logs in through `session:login`).
 */
export const SESSION_ONLY_ENDPOINTS: readonly string[] = ['login', 'refreshToken'];

const SILENT_LOG: Log = { info: () => undefined, error: () => undefined };

/**
 * The plain-Node application behind both transports (Electron IPC and the browser host's WebSocket): the
 * services, the handler table of every contract channel, the events they push and the error mapping.
 */
export class FieldKitServices {
  readonly events = new EventHub();
  readonly profiles: ProfileStore;
  readonly sessions: SessionController;
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
  /** The last answers of the list and gateway-page reads, per profile, for offline use. */
  readonly offlineCache: OfflineCache;
  /** The profiles' relay passwords (keychain, or memory in session-only mode); answers only "stored or not". */
  readonly relayPasswords: RelayPasswords;
  /** Gateways' root passwords, kept per profile; removed with the profile or on "forget" at sign-out. */
  readonly rootPasswords: RootPasswords;
  /** The site packs prepared per profile for work with no network. */
  readonly sitePacks: SitePacks;
  /** The customers each profile knows of (the API lists none): learned from answers, named, kept per profile. */
  readonly customers: KnownCustomers;
  /** Checks the server quietly while the app works without it, and resumes the session when it answers. */
  readonly serverWatch: ServerWatch;
  /** The visits and their journals (`<dataDir>/visits/`); the open one records what is done (VisitRecorder). */
  readonly visits: Visits;
  /**
   * Names a gateway by identity when an entry is recorded (the server, else the site pack, else as typed), and lets
   * the technician pick the gateway for what was typed.
   */
  readonly visitGateways: VisitGateways;
  /** Where the terminals record sessions and triages in the open visit. */
  readonly terminalJournal: TerminalJournal;
  /** The open visit's journal as the command path's second recorder: every gateway change, step and fleet row. */
  readonly journal: VisitCommandJournal;
  private readonly notices: Notice[] = [];
  /** What the last quiet check of the server found (null before any). */
  private lastServerStatus: ServerStatus | null = null;
  /** The last user signed in on each profile in this run (before that: the profile's saved user name). */
  private readonly lastUsers = new Map<string, string>();
  private terminalManager: TerminalManager | undefined;
  private readonly shutdownHooks: ShutdownHook[] = [];
  private readonly clock: Pick<Clock, 'now'>;
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
    });
    this.terminalJournal = createTerminalJournal({
      recorder: this.visits,
      resolve: this.visitGateways.resolve,
    });
    this.serverWatch = new ServerWatch({
      check: () => this.checkServer(),
      onOutcome: (outcome) => this.reportServer(outcome),
      intervalMs: options.serverCheckIntervalMs,
    });
    this.sessions = new SessionController({
      profiles: this.profiles,
      credentials: options.credentials.store,
      events: this.events,
      createSession: options.createSession,
      createFetch: options.createFetch,
      onNotice: (notice) => this.addNotice(notice),
      onSessionEnding: (_account, reason) => this.endServerWork(reason),
      onSessionStarted: (account) => this.startAccountWork(account),
    });
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
        message: describeOpenVisitOffer(open, services.visits.entries(open.id)),
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
      message:
        'No system keychain answered, so logins are kept for this session only and nothing is written to disk.',
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

  /** Records a notice for `app:notices` and pushes it as `app:notice`. */
  addNotice(notice: Omit<Notice, 'at'> & { at?: number }): void {
    const complete = { ...notice, at: notice.at ?? this.now() };
    this.notices.push(complete);
    this.log.info(`notice ${complete.code}: ${complete.message}`);
    this.events.emit('app:notice', complete);
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
  private async endServerWork(reason: SessionEndReason): Promise<void> {
    await this.terminalManager?.closeReverse(REVERSE_CLOSED_BECAUSE[reason]);
  }

  /** An account signed in: the terminals become its own, another account's are closed (never rejects). */
  private async startAccountWork(account: SessionAccount): Promise<void> {
    this.lastUsers.set(account.profileId, account.username);
    await this.terminalManager?.useAccount(accountKey(account));
  }

  /**
   * One quiet check of the selected profile's server: first a bare request to its address (no sign-in traffic
   * while it is away), then, once it answers, the remembered session is resumed when there is one. Never throws;
   * a session already there counts as resumed once the server answers.
   */
  private async checkServer(): Promise<ServerCheckOutcome> {
    const profileId = this.sessions.summary()?.profileId ?? this.profiles.list().selectedId;
    if (!profileId) return 'unreachable';
    if (!(await this.isServerAnswering(profileId))) return 'unreachable';
    if (this.sessions.summary()) return 'resumed';
    try {
      return (await this.sessions.resume(profileId)) ? 'resumed' : 'reachable';
    } catch (error) {
      return UNREACHABLE_CODES.has(mapServiceError(error)?.code ?? '') ? 'unreachable' : 'reachable';
    }
  }

  /** True when the profile's server answers a HEAD of its address at all (any HTTP status, even an untrusted certificate). */
  private async isServerAnswering(profileId: string): Promise<boolean> {
    const profile = this.profiles.get(profileId);
    const probe =
      this.options.createFetch?.(profile) ??
      createServerFetch({ pinnedSha256: profile.trustedCertificateSha256 });
    try {
      await probe(profile.baseUrl, {
        method: 'HEAD',
        signal: AbortSignal.timeout(CALL_TIME_LIMITS_MS.serverProbe),
      });
      return true;
    } catch (error) {
      // An untrusted certificate is still a server answering: signing in will say what to do about it.
      return mapServiceError(error)?.code === 'CERTIFICATE_UNTRUSTED';
    }
  }

  private reportServer(outcome: ServerCheckOutcome): ServerStatus | null {
    const profileId = this.sessions.summary()?.profileId ?? this.profiles.list().selectedId;
    if (!profileId) return null;
    this.log.info(`server check for ${profileId}: ${outcome}`);
    const status = { profileId, outcome, at: this.now() };
    this.lastServerStatus = status;
    this.events.emit('server:status', status);
    return status;
  }

  /** Starts watching the server when `error` says it cannot be reached (a read failed mid-session), and rethrows it. */
  private watchIfUnreachable(error: unknown): never {
    if (UNREACHABLE_CODES.has(mapServiceError(error)?.code ?? '')) this.serverWatch.start();
    throw error;
  }

  /** Resumes a remembered session; when the server cannot be reached (or nothing is remembered) starts watching it. */
  private async resumeSession(profileId: string) {
    try {
      const resumed = await this.sessions.resume(profileId);
      if (resumed) this.serverWatch.stop();
      else this.serverWatch.start();
      return resumed;
    } catch (error) {
      this.watchIfUnreachable(error);
    }
  }

  /**
   * The profile as the renderer sees it: with whether a relay password is stored, never the password. A profile
   * without a relay has none (saving one without a relay clears it), so the keychain is asked only for profiles
   * with a relay: a slow keychain never holds up the login screen's list of plain profiles. A keychain that cannot
   * be read leaves the flag out (unknown) rather than failing the profile list.
   */
  private async describeProfile(profile: Profile): Promise<Profile> {
    if (!profile.relay) return { ...profile, relayPasswordStored: false };
    try {
      return { ...profile, relayPasswordStored: await this.relayPasswords.isStored(profile.id) };
    } catch (error) {
      this.log.error('the keychain could not say whether a relay password is stored', error);
      return profile;
    }
  }

  /**
   * Saves the profile, then its relay password when the draft carries one (null clears it). A profile without a
   * relay keeps no relay password: clearing the relay clears it too. A keychain that refuses the password leaves
   * the profile saved, answered as "not stored", with a KEYCHAIN_WRITE_FAILED notice.
   */
  private async saveProfile(draft: ProfileDraft): Promise<Profile> {
    const { relayPassword, relayPasswordStored: _ignored, ...fields } = draft;
    const saved = await this.profiles.save(fields);
    const password = saved.relay ? relayPassword : null;
    if (password === undefined) return this.describeProfile(saved);
    try {
      await this.relayPasswords.set(saved.id, password);
    } catch (error) {
      // The profile is saved (a retry must not add it twice): its answer reads "not stored" and a notice says why.
      // The keychain's error names the account at most, never the secret.
      this.log.error('the keychain refused the relay password', error);
      this.addNotice({
        code: 'KEYCHAIN_WRITE_FAILED',
        message: `The profile "${saved.name}" was saved, but the keychain did not ${password === null ? 'remove' : 'store'} its relay password. Edit the profile and try again.`,
      });
    }
    return this.describeProfile(saved);
  }

  private buildHandlers(): HandlerTable {
    const { options, profiles, sessions } = this;
    return {
      'app:info': () => ({
        version: options.version,
        mode: options.mode,
        keychain: options.credentials.keychain,
      }),
      'app:notices': () => ({ notices: [...this.notices] }),
      'profiles:list': async () => {
        const { profiles: list, selectedId } = profiles.list();
        return {
          profiles: await Promise.all(list.map((profile) => this.describeProfile(profile))),
          selectedId,
        };
      },
      'profiles:save': (draft) => this.saveProfile(draft),
      'profiles:delete': async ({ id }) => {
        if (sessions.summary()?.profileId === id) await sessions.logout();
        await profiles.delete(id);
        await sessions.deleteSecrets(id);
        await this.relayPasswords.set(id, null);
        await this.rootPasswords.forgetProfile(id);
        await this.customers.forget(id);
        return null;
      },
      'profiles:select': async ({ id }) => {
        await profiles.select(id);
        return null;
      },
      'profiles:trust-certificate': async ({ id, sha256 }) =>
        this.describeProfile(await profiles.trustCertificate(id, sha256)),
      'session:login': async (input) => {
        const summary = await sessions.login(input);
        this.serverWatch.stop();
        return summary;
      },
      'session:resume': ({ profileId }) => this.resumeSession(profileId),
      'session:get': () => sessions.summary(),
      'server:check': async () => {
        await this.serverWatch.checkNow();
        return this.lastServerStatus;
      },
      'session:logout': async ({ forgetPasswords }) => {
        const profileId = sessions.summary()?.profileId;
        await sessions.logout();
        if (forgetPasswords && profileId) await this.rootPasswords.forgetProfile(profileId);
        return null;
      },
      'api:call': async ({ endpoint, params, query, body }) => {
        if (!isEndpointName(endpoint)) {
          throw new IpcError('INVALID_INPUT', 'Unknown API endpoint.', [
            { path: 'endpoint', message: `No endpoint named ${endpoint}` },
          ]);
        }
        if (SESSION_ONLY_ENDPOINTS.includes(endpoint)) {
          throw new IpcError('FORBIDDEN', 'Sign in through the sign-in screen; tokens stay in Field Kit.');
        }
        // The parts come from the wire unchecked; the API client validates them against the endpoint's schemas
        // before anything is sent, so they are typed as the endpoint's here.
        const request = { params, query, body } as EndpointRequest<typeof endpoint>;
        const answer = await sessions
          .requireSession()
          .call(endpoint, request)
          .catch((error: unknown) => this.watchIfUnreachable(error));
        const profileId = sessions.summary()?.profileId;
        if (profileId && this.offlineCache.isCached(endpoint)) {
          // The answer goes back at once; the cache is written behind it, and a cache that cannot be written
          // must not fail the read it caches.
          void this.offlineCache
            .put(profileId, { endpoint, params, query }, answer)
            .catch((error: unknown) => this.log.error(`offline cache write failed for ${endpoint}`, error));
        }
        // Customer ids on gateways, devices and events: the customer pickers learn them (the API lists none).
        if (profileId)
          void this.customers
            .learnFrom(profileId, endpoint, answer)
            .catch((error: unknown) => this.log.error(`learning customers from ${endpoint} failed`, error));
        return answer;
      },
      'call:cancel': ({ callId }) => {
        this.cancellation.cancel(callId);
        return null;
      },
      'gateway:command': async ({ gatewayId, command, body, confirmation }) => {
        if (!isCommandName(command)) {
          throw new IpcError('INVALID_INPUT', 'Unknown gateway command.', [
            { path: 'command', message: `No gateway command named ${command}` },
          ]);
        }
        const summary = sessions.summary();
        // The console's disruptive commands and lockouts are confirmed like the wizards' (risk-guards.ts). The
        // body is unchecked here; the API client validates it against the command's schema before sending.
        try {
          return await this.commands.send({
            gatewayId,
            name: command,
            body: body as CommandRequest<typeof command>,
            guard: { confirmation },
            recordsAnswer: true,
            ...(summary ? { caller: { profileId: summary.profileId, user: summary.username } } : {}),
            describeFailure: (error) =>
              mapServiceError(error)?.message ?? (error instanceof Error ? error.message : String(error)),
            onRecordError: (error) => this.log.error(`audit write failed for ${command}`, error),
          });
        } catch (error) {
          throw mapServiceError(error) ?? error;
        }
      },
      // Each domain registers its handlers from electron/app/domains/<domain>.ts, given only what it uses.
      ...createGatewaysHandlers({
        sessions,
        profiles,
        offlineCache: this.offlineCache,
        sitePacks: this.sitePacks,
        log: this.log,
      }),
      ...createIntegrationsHandlers(),
      ...createCommissioningHandlers({
        sessions,
        cancellation: this.cancellation,
        gatewayTransport: this.gatewayTransport,
        profiles,
        events: this.events,
        audit: this.audit,
        journal: this.journal,
        sitePacks: this.sitePacks,
        log: this.log,
        terminals: () => this.terminalManager,
        reports: options.commissioning,
        addShutdownHook: (hook) => this.addShutdownHook(hook),
        lastUserOf: (profileId) => this.lastUserOf(profileId),
        visits: this.visits,
        resolveGateway: this.visitGateways.resolve,
        measurements: new MeasurementJournal(this.visits),
      }),
      ...createTerminalsHandlers({ terminals: () => this.terminalManager, log: this.log }),
      ...createRunbooksDomain({
        dataDir: options.dataDir,
        clock: this.clock,
        events: this.events,
        log: this.log,
        cancellation: this.cancellation,
        terminals: () => this.terminalManager,
        journal: createRunbookJournal({ recorder: this.visits, resolve: this.visitGateways.resolve }),
        profileId: () => sessions.summary()?.profileId ?? profiles.list().selectedId ?? undefined,
      }),
      ...createVisitHandlers({
        visits: this.visits,
        gateways: this.visitGateways,
        signedIn: () => sessions.summary() ?? undefined,
      }),
      ...createCustomerSettingsHandlers({ sessions }),
      ...createCustomersHandlers({
        sessions,
        profiles,
        customers: this.customers,
        sitePacks: this.sitePacks,
        events: this.events,
        clock: this.clock,
        log: this.log,
      }),
      ...createSitePackHandlers({
        sessions,
        customers: this.customers,
        cancellation: this.cancellation,
        commands: this.commands,
        profiles,
        events: this.events,
        sitePacks: this.sitePacks,
        rootPasswords: this.rootPasswords,
        log: this.log,
        concurrency: options.sitePackConcurrency,
      }),
      ...createAcceptanceHandlers({
        sessions,
        cancellation: this.cancellation,
        commands: this.commands,
        visits: this.visits,
        events: this.events,
        clock: {
          now: this.now,
          sleep: (ms, signal) => options.clock?.sleep?.(ms, signal) ?? SYSTEM_CLOCK.sleep(ms, signal),
        },
        thresholds: (profileId) => acceptanceThresholdsOf(options.dataDir, profiles, profileId),
        log: this.log,
      }),
    };
  }
}
