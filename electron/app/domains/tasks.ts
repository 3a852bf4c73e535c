import { randomUUID } from 'node:crypto';
import type { tasksChannels } from '../../shared/ipc/domains/tasks';
import type {
  GatewayTaskAnswer,
  GatewayTaskName,
  GatewayTaskOf,
} from '../../shared/ipc/domains/gateway-task-answers';
import type { EventHub } from '../../shared/ipc/event-hub';
import { IpcError } from '../../shared/ipc/result';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { GatewayTasks, RfMeter, type RfBest, type RfSample } from '../../services/commissioning';
import { assessCommand, requireConfirmed, taskCommand } from '../../services/commands';
import type { CallCancellation } from '../call-cancellation';
import type { DomainHandlers } from './context';
import { engineOptions, mapped, requireSignedIn, type EngineDependencies } from './engines';
import type { FieldMeasurements } from './field-measurements';
import type { MeasurementJournal } from '../../services/visit';

/** RF meters running at once (one per gateway page is the normal case). */
const MAX_RF_METERS = 8;

/** What the gateway tasks and the RF meter use beside the engines' needs. */
export interface TasksDependencies extends EngineDependencies {
  /** Where `call:cancel` finds this domain's gateway tasks by id. */
  cancellation: Pick<CallCancellation, 'addFinder'>;
  events: Pick<EventHub, 'emit'>;
  /** Where pings and RF series are kept for the site report, with the meters running. */
  measurements: FieldMeasurements;
  /** Records RF readings, pings and diagnostics reads in the open visit before they are shown (none: not). */
  measurementJournal?: MeasurementJournal;
  /** Registers what to stop on quit (tasks under way, RF meters). */
  addShutdownHook(hook: () => Promise<void> | void): void;
  /** When a ping was measured (default: the system clock). */
  clock?: Pick<Clock, 'now'>;
}

/** Handlers of the gateway task and RF meter channels (electron/shared/ipc/domains/tasks.ts). */
export function createTasksHandlers(dependencies: TasksDependencies): DomainHandlers<typeof tasksChannels> {
  const { cancellation, events, measurements, measurementJournal, addShutdownHook } = dependencies;
  const clock = dependencies.clock ?? SYSTEM_CLOCK;
  const taskRuns = new Map<string, GatewayTasks>();
  const { meters } = measurements;

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
    ping: (tasks, task) => tasks.ping(task.destination, task.packetsCount),
  };
  const runTask = <Name extends GatewayTaskName>(
    name: Name,
    tasks: GatewayTasks,
    task: GatewayTaskOf<Name>,
    gatewayId: string,
  ): Promise<GatewayTaskAnswer<Name>> => taskRunners[name](tasks, task, gatewayId);

  addShutdownHook(async () => {
    for (const tasks of taskRuns.values()) tasks.cancel();
    await Promise.all([...meters.values()].map(({ meter }) => meter.stop()));
  });
  cancellation.addFinder((callId) => {
    const task = taskRuns.get(callId);
    return task ? () => task.cancel() : undefined;
  });

  return {
    'gateway-task:run': ({ gatewayId, runId, task, confirmation }) =>
      mapped(async () => {
        const command = taskCommand(task);
        if (command) requireConfirmed(assessCommand(command.name, command.request), confirmation);
        const tasks = new GatewayTasks(gatewayId, {
          ...engineOptions(dependencies),
          runId: runId ?? randomUUID(),
        });
        tasks.on('event', (event) => events.emit('gateway-task:event', { ...event, gatewayId }));
        taskRuns.set(tasks.runId, tasks);
        try {
          const value = await runTask(task.task, tasks, task, gatewayId);
          await measurementJournal?.recordTask(gatewayId, task, value);
          return { runId: tasks.runId, value };
        } finally {
          taskRuns.delete(tasks.runId);
        }
      }),
    'rf-meter:start': ({ gatewayId, intervalMs }) =>
      mapped(() => {
        // Refused before any meter starts when nobody is signed in.
        requireSignedIn(dependencies.sessions);
        if (meters.size >= MAX_RF_METERS)
          throw new IpcError(
            'INVALID_INPUT',
            `At most ${MAX_RF_METERS} RF meters run at once; stop one first.`,
          );
        const meterId = randomUUID();
        const meter = new RfMeter({ commander: dependencies.gatewayTransport, gatewayId, intervalMs });
        const showSample = ({ sample, best }: { sample: RfSample; best: RfBest }) =>
          events.emit('rf-meter:sample', { meterId, gatewayId, sample, best });
        const onError = ({ at, message }: { at: number; message: string }) =>
          events.emit('rf-meter:error', { meterId, gatewayId, at, message });
        // A reading is shown only once the visit journal holds it.
        const onSample = measurementJournal
          ? measurementJournal.showingRecordedRf({ gatewayId, meterId }, showSample, (message) =>
              onError({ at: clock.now(), message }),
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
      return { samples: entry.meter.samples, best: entry.meter.best };
    },
  };
}
