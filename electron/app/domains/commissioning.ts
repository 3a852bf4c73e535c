import { randomUUID } from 'node:crypto';
import type { DomainHandlers, ErrorLog, ProfileReader, SignedInSession } from './context';
import type { EventHub } from '../../shared/ipc/event-hub';
import type { commissioningChannels, WizardName } from '../../shared/ipc/domains/commissioning';
import type { WizardEditOf, WizardStateOf } from '../../shared/ipc/domains/wizard-shapes';
import type {
  GatewayTaskAnswer,
  GatewayTaskName,
  GatewayTaskOf,
} from '../../shared/ipc/domains/gateway-task-answers';
import { IpcError } from '../../shared/ipc/result';
import type { AuditLog } from '../../services/audit';
import type { SitePacks } from '../../services/site-pack';
import type { TerminalManager } from '../../services/terminals';
import {
  cellularWizard,
  connectivityWizard,
  createWizardRun,
  describeError,
  EditRejectedError,
  firewallWizard,
  GatewayTasks,
  GatewayUnreachableError,
  GuardNotConfirmedError,
  RfMeter,
  type RfBest,
  type RfSample,
  type GatewayCommander,
  type WizardDefinition,
  type WizardRun,
  type WizardRunOptions,
} from '../../services/commissioning';
import { assessCommand, requireConfirmed, taskCommand, type CommandJournal } from '../../services/commands';
import {
  assessFleetChange,
  describeChange,
  defaultFleetConcurrency,
  FleetJob,
  listGroupTargets,
  validateChange,
  type FleetChange,
  type FleetTarget,
  type GatewayGroupLister,
} from '../../services/fleet';
import {
  PhotoRejectedError,
  type PdfPrinter,
  type PingMeasurement,
  type RfMeasurement,
} from '../../services/reports';
import type { MeasurementJournal } from '../../services/visit';
import { createReportHandlers, type ReportDependencies } from './report';
import type { CallCancellation } from '../call-cancellation';
import { mapServiceError } from '../error-mapping';

/** Wizard runs kept at once; the oldest finished ones are forgotten first. */
const MAX_WIZARD_RUNS = 32;
/** Fleet jobs kept for retry at once. */
const MAX_FLEET_JOBS = 16;
/** RF meters running at once (one per gateway page is the normal case). */
const MAX_RF_METERS = 8;
/** Measurements kept for the site report. */
const MAX_MEASUREMENTS = 500;

/** Each diff wizard, typed with the state and edit wizardShapes declares for it (what wizard:read answers). */
const WIZARDS: { [Name in WizardName]: WizardDefinition<WizardStateOf<Name>, WizardEditOf<Name>> } = {
  connectivity: connectivityWizard,
  cellular: cellularWizard,
  firewall: firewallWizard,
};

/** Starts a run of the wizard named, typed with that wizard's state and edit. */
function startWizardRun<Name extends WizardName>(
  name: Name,
  gatewayId: string,
  options: WizardRunOptions,
): WizardRun<WizardStateOf<Name>, WizardEditOf<Name>> {
  return createWizardRun(WIZARDS[name], gatewayId, options);
}

/** What the composition root hands the commissioning domain: where reports go and how they become PDF. */
export interface CommissioningOptions {
  /** Folder the site reports are written to (e.g. `<dataDir>/reports`). */
  reportsDir: string;
  /** Electron's printToPDF in the app, headless Chromium in the browser host; none: HTML only. */
  printer?: PdfPrinter;
  /** Time limits of the engines (the e2e tests shorten them). */
  timing?: {
    commandTimeoutMs?: number;
    verifyTimeoutMs?: number;
    gatewayReturnTimeoutMs?: number;
    pollIntervalMs?: number;
    waitInitialDelayMs?: number;
    waitMaxDelayMs?: number;
    /** Attempts per gateway in a fleet job (default FLEET_MAX_ATTEMPTS). */
    fleetMaxAttempts?: number;
  };
}

/** What the commissioning domain uses: the session, the audit log, the site packs, the terminals and the events hub. */
export interface CommissioningDependencies {
  sessions: SignedInSession;
  /** Where `call:cancel` finds this domain's wizard runs, gateway tasks and fleet jobs by id. */
  cancellation: Pick<CallCancellation, 'addFinder'>;
  /**
   * The signed-in session's wire of gateway commands. The engines send through it only via their
   * CommandService (audited-gateway.ts, fleet-job.ts, rf-meter.ts), which bounds, cancels and records each call.
   */
  gatewayTransport: GatewayCommander;
  profiles: ProfileReader;
  events: Pick<EventHub, 'emit'>;
  audit: AuditLog;
  /** The visit journal the wizards, tasks and fleet jobs record into beside the audit log (none: not recorded). */
  journal?: CommandJournal;
  sitePacks: Pick<SitePacks, 'gateway'>;
  log: ErrorLog;
  /**
   * The terminal manager once attached: its SSH sessions for the lockout guard, its serial triages for the
   * report. None (a build without terminals): no SSH session depends on a gateway and no triage is reported.
   */
  terminals():
    (Pick<TerminalManager, 'list' | 'triages'> & Partial<Pick<TerminalManager, 'logs'>>) | undefined;
  /** Where reports go and how they are printed; none: `report:export` answers that reports are not set up. */
  reports?: CommissioningOptions;
  /** Registers what to stop on quit (wizard runs, tasks, fleet jobs, RF meters). */
  addShutdownHook(hook: () => Promise<void> | void): void;
  /** The user signed in last on a profile (FieldKitServices.lastUserOf): whose work field mode shows. */
  lastUserOf(profileId: string): string | undefined;
  /**
   * The visits: an export prints the open visit's journal head, takes its photos, attaches its logs and writes
   * the bundle (report, journal, photos, logs, manifest) beside the report. None: report files only.
   */
  visits?: ReportDependencies['visits'];
  /** Names a log's gateway by identity when the log is attached (the visit's one resolver). */
  resolveGateway?: ReportDependencies['resolveGateway'];
  /** Records RF readings, pings and diagnostics reads in the open visit before they are shown (none: not). */
  measurements?: MeasurementJournal;
}

/** An engine error as an IPC error whose message a technician can act on. */
function toIpcError(error: unknown): IpcError {
  if (error instanceof IpcError) return error;
  if (error instanceof GuardNotConfirmedError)
    return new IpcError('INVALID_INPUT', error.message, { guards: error.guards });
  if (error instanceof EditRejectedError)
    return new IpcError('INVALID_INPUT', error.message, { problems: error.problems });
  if (error instanceof GatewayUnreachableError) return new IpcError('TIMEOUT', error.message);
  if (error instanceof PhotoRejectedError) return new IpcError('INVALID_INPUT', error.message);
  return mapServiceError(error) ?? new IpcError('API_ERROR', describeError(error));
}

async function mapped<Value>(action: () => Promise<Value> | Value): Promise<Value> {
  try {
    return await action();
  } catch (error) {
    throw toIpcError(error);
  }
}

/** Forgets the oldest entries of a map beyond `limit` (insertion order), skipping those `isBusy` keeps. */
function trim<Key, Value>(map: Map<Key, Value>, limit: number, isBusy: (value: Value) => boolean): void {
  for (const [key, value] of [...map]) {
    if (map.size <= limit) return;
    if (!isBusy(value)) map.delete(key);
  }
}

/** Handlers of the commissioning channels (electron/shared/ipc/domains/commissioning.ts). */
export function createCommissioningHandlers({
  sessions,
  cancellation,
  gatewayTransport,
  profiles,
  events,
  audit,
  journal,
  sitePacks,
  log,
  terminals,
  reports,
  addShutdownHook,
  lastUserOf,
  visits,
  resolveGateway,
  measurements,
}: CommissioningDependencies): DomainHandlers<typeof commissioningChannels> {
  const wizardRuns = new Map<string, { run: WizardRun<unknown, unknown>; isApplying: boolean }>();
  const taskRuns = new Map<string, GatewayTasks>();
  const meters = new Map<string, { meter: RfMeter; gatewayId: string; off: () => void }>();
  const fleetJobs = new Map<string, FleetJob>();
  const pings: PingMeasurement[] = [];
  /** Who was signed in when each ping and RF series was measured: a report shows only its user's. */
  const measuredBy = new WeakMap<object, string>();
  const noteMeasurer = (measurement: object) => {
    const username = sessions.summary()?.username;
    if (username !== undefined) measuredBy.set(measurement, username);
  };
  const rfSeries: RfMeasurement[] = [];
  const sshGateways = new Set<string>();

  const who = () => {
    const session = sessions.requireSession();
    const summary = sessions.summary();
    if (!summary) throw new IpcError('UNAUTHENTICATED', 'Sign in first.');
    return { session, profileId: summary.profileId, user: summary.username };
  };
  const timing = () => reports?.timing ?? {};
  const engineOptions = () => {
    const { profileId, user } = who();
    const { fleetMaxAttempts: _fleetMaxAttempts, ...limits } = timing();
    return { commander: gatewayTransport, profileId, user, audit, journal, ...limits };
  };
  // The lockout guard asks "is a terminal going through SSH to this gateway?" synchronously: refresh first.
  const refreshSshGateways = () => {
    sshGateways.clear();
    // No terminals in this build: no SSH session depends on the gateway.
    for (const session of terminals()?.list() ?? [])
      if (
        session.kind === 'ssh' &&
        session.gatewayId &&
        ['open', 'connecting', 'reconnecting'].includes(session.state)
      )
        sshGateways.add(session.gatewayId);
  };
  const requireRun = (runId: string) => {
    const entry = wizardRuns.get(runId);
    if (!entry) throw new IpcError('NOT_FOUND', 'This wizard run has ended; start the wizard again.');
    return entry;
  };
  const recordRf = (gatewayId: string, meter: RfMeter) => {
    if (meter.samples.length === 0) return;
    const series = { gatewayId, samples: meter.samples, best: meter.best };
    noteMeasurer(series);
    rfSeries.push(series);
    if (rfSeries.length > MAX_MEASUREMENTS) rfSeries.shift();
  };
  // One runner per task, each typed to answer what gatewayTaskAnswers declares for its task.
  const taskRunners: {
    [Name in GatewayTaskName]: (
      tasks: GatewayTasks,
      task: GatewayTaskOf<Name>,
      gatewayId: string,
    ) => Promise<GatewayTaskAnswer<Name>>;
  } = {
    listBackups: (tasks) => tasks.listBackups(),
    createBackup: (tasks, task) => tasks.createBackup(task.description),
    restoreBackup: (tasks, task) => tasks.restoreBackup(task.index),
    readSoftware: (tasks) => tasks.readSoftware(),
    upgrade: (tasks, task) =>
      task.packageName === undefined ? tasks.upgrade() : tasks.upgrade(task.packageName),
    install: (tasks, task) => tasks.install(task.packageName),
    reboot: (tasks) => tasks.reboot(),
    readRadioStatistics: (tasks, task) => tasks.readRadioStatistics(task.indexes),
    resetRadioStatistics: (tasks) => tasks.resetRadioStatistics(),
    spectralScan: (tasks) => tasks.spectralScan(),
    readDiagnostics: (tasks) => tasks.readDiagnostics(),
    ping: async (tasks, task, gatewayId) => {
      const at = Date.now();
      const answer = await tasks.ping(task.destination, task.packetsCount);
      const ping = {
        at,
        gatewayId,
        destination: task.destination,
        packetsSent: answer.packets_sent,
        packetsReceived: answer.packets_recv,
      };
      noteMeasurer(ping);
      pings.push(ping);
      if (pings.length > MAX_MEASUREMENTS) pings.shift();
      return answer;
    },
  };
  const runTask = <Name extends GatewayTaskName>(
    name: Name,
    tasks: GatewayTasks,
    task: GatewayTaskOf<Name>,
    gatewayId: string,
  ): Promise<GatewayTaskAnswer<Name>> => taskRunners[name](tasks, task, gatewayId);
  const validFleetChange = (fleetChange: FleetChange): FleetChange => {
    const problems = validateChange(fleetChange);
    if (problems.length > 0)
      throw new IpcError('INVALID_INPUT', `The change cannot be applied: ${problems.join('; ')}`, {
        problems,
      });
    return fleetChange;
  };
  const chooseTargets = async (
    targets: FleetTarget[] | undefined,
    gatewayGroupId: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<FleetTarget[]> => {
    let chosen: FleetTarget[] = targets ?? [];
    if (gatewayGroupId !== undefined) {
      const lister: GatewayGroupLister = {
        call: (name, request, options) => who().session.call(name, request, options),
      };
      chosen = [...chosen, ...(await listGroupTargets(lister, gatewayGroupId, { signal }))];
    }
    if (chosen.length === 0) throw new IpcError('INVALID_INPUT', 'The gateway group has no gateways.');
    return chosen;
  };
  // A job has one row per distinct gateway: the count the technician confirms is that one.
  const countGateways = (targets: FleetTarget[]) => new Set(targets.map((target) => target.gatewayId)).size;
  const startFleet = (job: FleetJob) => {
    fleetJobs.set(job.jobId, job);
    trim(fleetJobs, MAX_FLEET_JOBS, () => false);
    job.on('row', (event) => events.emit('fleet:row', event));
    job.on('finished', (result) => {
      const { change: _change, ...rest } = result;
      events.emit('fleet:finished', rest);
    });
    job.run().catch((error: unknown) => log.error('fleet job failed', error));
    return { jobId: job.jobId, description: describeChange(job.change), rows: job.table };
  };

  addShutdownHook(async () => {
    for (const { run } of wizardRuns.values()) run.cancel();
    for (const tasks of taskRuns.values()) tasks.cancel();
    for (const job of fleetJobs.values()) job.cancel();
    await Promise.all([...meters.values()].map(({ meter }) => meter.stop()));
  });

  cancellation.addFinder((callId) => {
    const wizard = wizardRuns.get(callId)?.run;
    if (wizard) return () => wizard.cancel();
    const task = taskRuns.get(callId);
    if (task) return () => task.cancel();
    const job = fleetJobs.get(callId);
    if (job) return () => job.cancel();
    return undefined;
  });

  return {
    'wizard:start': ({ wizard, gatewayId }) =>
      mapped(() => {
        const run = startWizardRun(wizard, gatewayId, {
          ...engineOptions(),
          environment: {
            hasSshTerminal: (id) => sshGateways.has(id),
            connectivityCheckUsesPing: true,
          },
        });
        run.on('event', (event) => events.emit('wizard:event', event));
        wizardRuns.set(run.runId, { run, isApplying: false });
        trim(wizardRuns, MAX_WIZARD_RUNS, (entry) => entry.isApplying);
        return { runId: run.runId };
      }),
    'wizard:read': ({ runId }) =>
      mapped(async () => {
        const { run } = requireRun(runId);
        const state = await run.read();
        return { state, edit: run.definition.editOf(state) };
      }),
    'wizard:review': ({ runId, edit }) =>
      mapped(async () => {
        const { run } = requireRun(runId);
        refreshSshGateways();
        try {
          const { edit: _edit, ...review } = run.review(edit);
          return review;
        } catch (error) {
          if (error instanceof TypeError)
            throw new IpcError('INVALID_INPUT', `The edit is incomplete: ${error.message}`);
          throw error;
        }
      }),
    'wizard:apply': ({ runId, edit, confirmations }) =>
      mapped(async () => {
        const entry = requireRun(runId);
        refreshSshGateways();
        entry.isApplying = true;
        try {
          return await entry.run.apply(edit, confirmations ?? {});
        } finally {
          entry.isApplying = false;
        }
      }),
    'gateway-task:run': ({ gatewayId, runId, task, confirmation }) =>
      mapped(async () => {
        const command = taskCommand(task);
        if (command) requireConfirmed(assessCommand(command.name, command.request), confirmation);
        const tasks = new GatewayTasks(gatewayId, { ...engineOptions(), runId: runId ?? randomUUID() });
        tasks.on('event', (event) => events.emit('gateway-task:event', { ...event, gatewayId }));
        taskRuns.set(tasks.runId, tasks);
        try {
          const value = await runTask(task.task, tasks, task, gatewayId);
          await measurements?.recordTask(gatewayId, task, value);
          return { runId: tasks.runId, value };
        } finally {
          taskRuns.delete(tasks.runId);
        }
      }),
    'rf-meter:start': ({ gatewayId, intervalMs }) =>
      mapped(() => {
        // Refused before any meter starts when nobody is signed in.
        who();
        if (meters.size >= MAX_RF_METERS)
          throw new IpcError(
            'INVALID_INPUT',
            `At most ${MAX_RF_METERS} RF meters run at once; stop one first.`,
          );
        const meterId = randomUUID();
        const meter = new RfMeter({ commander: gatewayTransport, gatewayId, intervalMs });
        const showSample = ({ sample, best }: { sample: RfSample; best: RfBest }) =>
          events.emit('rf-meter:sample', { meterId, gatewayId, sample, best });
        const onError = ({ at, message }: { at: number; message: string }) =>
          events.emit('rf-meter:error', { meterId, gatewayId, at, message });
        const onSample = measurements
          ? measurements.showingRecordedRf({ gatewayId, meterId }, showSample, (message) =>
              onError({ at: Date.now(), message }),
            )
          : showSample;
        meter.on('sample', onSample);
        meter.on('error', onError);
        meters.set(meterId, {
          meter,
          gatewayId,
          off: () => {
            meter.off('sample', onSample);
            meter.off('error', onError);
          },
        });
        meter.start();
        return { meterId };
      }),
    'rf-meter:stop': async ({ meterId }) => {
      const entry = meters.get(meterId);
      if (!entry) throw new IpcError('NOT_FOUND', 'This RF meter has already stopped.');
      meters.delete(meterId);
      await entry.meter.stop();
      entry.off();
      recordRf(entry.gatewayId, entry.meter);
      return { samples: entry.meter.samples, best: entry.meter.best };
    },
    'fleet:preview': ({ change, targets, gatewayGroupId, concurrency }, { signal }) =>
      mapped(async () => {
        const fleetChange = validFleetChange(change);
        const chosen = await chooseTargets(targets, gatewayGroupId, signal);
        const gatewayCount = countGateways(chosen);
        const offlineCount = countGateways(chosen.filter((target) => target.status === 'OFFLINE'));
        const atOnce = concurrency ?? defaultFleetConcurrency(fleetChange, gatewayCount - offlineCount);
        return {
          gatewayCount,
          offlineCount,
          concurrency: atOnce,
          ...assessFleetChange(fleetChange, gatewayCount, offlineCount, atOnce),
        };
      }),
    'fleet:start': ({ change, targets, gatewayGroupId, concurrency, confirmation }, { signal }) =>
      mapped(async () => {
        const fleetChange = validFleetChange(change);
        const options = engineOptions();
        const chosen = await chooseTargets(targets, gatewayGroupId, signal);
        return startFleet(
          new FleetJob(fleetChange, chosen, {
            ...options,
            concurrency,
            maxAttempts: timing().fleetMaxAttempts,
            confirmation,
          }),
        );
      }),
    'fleet:retry-failed': ({ jobId, includeSkipped, confirmation }) =>
      mapped(() => {
        const job = fleetJobs.get(jobId);
        if (!job) throw new IpcError('NOT_FOUND', 'This fleet job is no longer kept; start it again.');
        if (job.retryTargets({ includeSkipped }).length === 0)
          throw new IpcError('INVALID_INPUT', 'No gateway failed: nothing to retry.');
        return startFleet(job.retryFailed({ includeSkipped, confirmation }));
      }),
    'audit:read': ({ since, until, gatewayId, runId }) =>
      mapped(async () => {
        // The audit log is on disk: with no session (field mode) it is the selected profile's, and of the user
        // signed in last on it. One account never reads another's work.
        const summary = sessions.summary();
        const profileId = summary?.profileId ?? profiles.list().selectedId;
        const user = profileId ? (summary?.username ?? lastUserOf(profileId)) : undefined;
        if (!profileId || user === undefined) return { entries: [] };
        return { entries: await audit.read({ profileId, user, since, until, gatewayId, runId }) };
      }),
    ...createReportHandlers({
      sessions,
      profiles,
      audit,
      sitePacks,
      terminals,
      reports,
      lastUserOf,
      visits,
      resolveGateway,
      who,
      mapped,
      measurements: () => {
        // A meter still running counts with what it has measured so far.
        for (const { meter, gatewayId } of meters.values()) recordRf(gatewayId, meter);
        return { pings, rf: rfSeries, measuredBy: (measurement) => measuredBy.get(measurement) };
      },
    }),
  };
}
