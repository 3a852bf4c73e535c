import { randomUUID } from 'node:crypto';
import type { DomainContext, DomainHandlers } from './context';
import type { PackProgressEvent, sitePackChannels } from '../../../shared/ipc/domains/site-pack';
import { IpcError } from '../../../shared/ipc/result';
import { PackCancelledError, prepareSitePack, type PackScope, type PackSelection } from '../../site-pack';
import { mapServiceError } from '../error-mapping';

/** Options of the site pack handlers (the benchmark sets the concurrency it compares against). */
export interface SitePackHandlerOptions {
  concurrency?: number;
}

/** The error codes that mean the server went away or the session ended: the preparation stops. */
const FATAL_CODES = new Set(['NETWORK', 'TIMEOUT', 'UNAUTHENTICATED', 'SESSION_EXPIRED']);

/**
 * Handlers of the site pack channels (electron/shared/ipc/domains/site-pack.ts). One preparation runs at a time;
 * it reads through the signed-in session, so it needs one; status and gateway reads need no session and no server
 * (they use the signed-in profile, else the selected one). A pack file set aside is reported once as a notice.
 */
export function createSitePackHandlers(
  context: DomainContext,
  options: SitePackHandlerOptions = {},
): DomainHandlers<typeof sitePackChannels> {
  let job: { progress: PackProgressEvent; controller: AbortController } | null = null;
  const profileOf = () => context.sessions.summary()?.profileId ?? context.profiles.list().selectedId;
  const emit = (progress: PackProgressEvent) => {
    if (job && job.progress.jobId === progress.jobId) job.progress = progress;
    context.events.emit('site-pack:progress', progress);
  };

  const run = async (
    jobId: string,
    profileId: string,
    input: { scope: PackScope; selection: PackSelection },
  ) => {
    const controller = job!.controller;
    try {
      const session = context.sessions.requireSession();
      // One keychain read for the whole pack, not one per gateway.
      const storedPasswords = context.rootPasswords
        .storedGatewayIds(profileId)
        .catch(() => new Set<string>());
      const pack = await prepareSitePack({
        reader: session,
        profileId,
        scope: input.scope,
        selection: input.selection,
        signal: controller.signal,
        concurrency: options.concurrency,
        isFatal: (error) => FATAL_CODES.has(mapServiceError(error)?.code ?? ''),
        isRootPasswordStored: async (gatewayId) => (await storedPasswords).has(gatewayId),
        onProgress: (progress) => emit({ jobId, ...progress }),
      });
      if (controller.signal.aborted) throw new PackCancelledError();
      await context.sitePacks.save(pack);
      emit({ jobId, phase: 'done', done: Object.keys(pack.details).length, total: pack.gateways.length });
    } catch (error) {
      const previous = job?.progress ?? { done: 0, total: 0 };
      if (error instanceof PackCancelledError) {
        emit({ jobId, phase: 'cancelled', done: previous.done, total: previous.total });
        return;
      }
      const mapped = mapServiceError(error);
      if (!mapped) context.log.error('site pack preparation failed', error);
      emit({
        jobId,
        phase: 'failed',
        done: previous.done,
        total: previous.total,
        message: `The site pack was not saved (the previous one, if any, is kept): ${mapped?.message ?? 'something went wrong inside Field Kit; the details are in the log.'}`,
      });
    }
  };

  return {
    'site-pack:status': async () => {
      const profileId = profileOf();
      const current = job?.progress ?? null;
      if (!profileId) return { profileId: null, pack: null, job: current };
      const stored = await context.sitePacks.get(profileId);
      return {
        profileId,
        pack: stored
          ? {
              preparedAt: stored.pack.preparedAt,
              scope: stored.pack.scope,
              gatewayCount: stored.pack.gateways.length,
              detailedCount: Object.keys(stored.pack.details).length,
              sizeBytes: stored.sizeBytes,
              rootPasswordStored: stored.pack.rootPasswordStored,
            }
          : null,
        job: current,
      };
    },
    'site-pack:prepare': (input) => {
      const summary = context.sessions.summary();
      if (!summary) throw new IpcError('UNAUTHENTICATED', 'Sign in to prepare a site pack.');
      if (job && ['list', 'details', 'writing'].includes(job.progress.phase)) {
        throw new IpcError(
          'INVALID_INPUT',
          'A site pack is being prepared already; wait for it or cancel it.',
        );
      }
      const jobId = randomUUID();
      job = { controller: new AbortController(), progress: { jobId, phase: 'list', done: 0, total: 1 } };
      void run(jobId, summary.profileId, input);
      return { jobId };
    },
    'site-pack:cancel': ({ jobId }) => {
      if (job?.progress.jobId === jobId) job.controller.abort();
      return null;
    },
    'site-pack:gateway': async ({ gatewayId }) => {
      const profileId = profileOf();
      if (!profileId) return null;
      return context.sitePacks.gateway(profileId, gatewayId);
    },
  };
}
