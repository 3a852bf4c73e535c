import type { fleetChannels } from '../../shared/ipc/domains/fleet';
import type { EventHub } from '../../shared/ipc/event-hub';
import { IpcError } from '../../shared/ipc/result';
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
import type { CallCancellation } from '../call-cancellation';
import type { DomainHandlers, ErrorLog } from './context';
import { engineOptions, forgetOldest, mapped, requireSignedIn, type EngineDependencies } from './engines';

/** Fleet jobs kept for retry at once. */
const MAX_FLEET_JOBS = 16;

/** What fleet jobs use beside the engines' needs. */
export interface FleetDependencies extends EngineDependencies {
  /** Where `call:cancel` finds this domain's fleet jobs by id. */
  cancellation: Pick<CallCancellation, 'addFinder'>;
  events: Pick<EventHub, 'emit'>;
  log: ErrorLog;
  /** Registers what to stop on quit (the jobs under way). */
  addShutdownHook(hook: () => Promise<void> | void): void;
}

/** The change as given, or INVALID_INPUT listing why it cannot be applied. */
function validFleetChange(fleetChange: FleetChange): FleetChange {
  const problems = validateChange(fleetChange);
  if (problems.length > 0)
    throw new IpcError('INVALID_INPUT', `The change cannot be applied: ${problems.join('; ')}`, {
      problems,
    });
  return fleetChange;
}

/** A job has one row per distinct gateway: the count the technician confirms is that one. */
function countGateways(targets: FleetTarget[]): number {
  return new Set(targets.map((target) => target.gatewayId)).size;
}

/** Handlers of the fleet channels (electron/shared/ipc/domains/fleet.ts). */
export function createFleetHandlers(dependencies: FleetDependencies): DomainHandlers<typeof fleetChannels> {
  const { cancellation, events, log, addShutdownHook, sessions } = dependencies;
  const fleetJobs = new Map<string, FleetJob>();

  const chooseTargets = async (
    targets: FleetTarget[] | undefined,
    gatewayGroupId: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<FleetTarget[]> => {
    let chosen: FleetTarget[] = targets ?? [];
    if (gatewayGroupId !== undefined) {
      const lister: GatewayGroupLister = {
        call: (name, request, options) => requireSignedIn(sessions).session.call(name, request, options),
      };
      chosen = [...chosen, ...(await listGroupTargets(lister, gatewayGroupId, { signal }))];
    }
    if (chosen.length === 0) throw new IpcError('INVALID_INPUT', 'The gateway group has no gateways.');
    return chosen;
  };
  const startFleet = (job: FleetJob) => {
    fleetJobs.set(job.jobId, job);
    forgetOldest(fleetJobs, MAX_FLEET_JOBS, () => false);
    job.on('row', (event) => events.emit('fleet:row', event));
    job.on('finished', (result) => {
      const { change: _change, ...rest } = result;
      events.emit('fleet:finished', rest);
    });
    job.run().catch((error: unknown) => log.error('fleet job failed', error));
    return { jobId: job.jobId, description: describeChange(job.change), rows: job.table };
  };

  addShutdownHook(() => {
    for (const job of fleetJobs.values()) job.cancel();
  });
  cancellation.addFinder((callId) => {
    const job = fleetJobs.get(callId);
    return job ? () => job.cancel() : undefined;
  });

  return {
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
        const options = engineOptions(dependencies);
        const chosen = await chooseTargets(targets, gatewayGroupId, signal);
        return startFleet(
          new FleetJob(fleetChange, chosen, {
            ...options,
            concurrency,
            maxAttempts: dependencies.timing?.fleetMaxAttempts,
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
  };
}
