import { randomUUID } from 'node:crypto';
import type { DomainHandlers, ErrorLog, ProfileReader, SignedInSession } from './context';
import type { EventHub } from '../../shared/ipc/event-hub';
import type { RootPasswords } from '../../services/terminals/terminal-secrets';
import type { PackProgressEvent, sitePackChannels } from '../../shared/ipc/domains/site-pack';
import { IpcError } from '../../shared/ipc/result';
import { t } from '../../shared/i18n';
import {
  isCommandName,
  type CommandRequest,
  type EndpointName,
  type EndpointRequest,
} from '../../shared/api';
import type { CommandService } from '../../services/commands';
import {
  PackCancelledError,
  prepareSitePack,
  type PackScope,
  type PackSelection,
  type SitePacks,
} from '../../services/site-pack';
import type { KnownCustomers } from '../../services/customers';
import type { CallCancellation } from '../call-cancellation';
import { mapServiceError } from '../error-mapping';

/** What the site pack domain uses: the session it reads through, where packs are kept, and the events hub. */
export interface SitePackDependencies {
  sessions: SignedInSession;
  /** Where `call:cancel` finds the preparation under way by its job id. */
  cancellation: Pick<CallCancellation, 'addFinder'>;
  /** The pack's gateway reads go through it, cancelled with the preparation. */
  commands: Pick<CommandService, 'send'>;
  profiles: ProfileReader;
  events: Pick<EventHub, 'emit'>;
  sitePacks: Pick<SitePacks, 'get' | 'gateway' | 'save'>;
  rootPasswords: Pick<RootPasswords, 'storedGatewayIds'>;
  /** The profile's known customers go into the pack, so that its pickers name them offline. */
  customers?: Pick<KnownCustomers, 'list'>;
  log: ErrorLog;
  /** Requests a preparation keeps in flight (the benchmark sets the concurrency it compares against). */
  concurrency?: number;
}

/** The error codes that mean the server went away or the session ended: the preparation stops. */
const FATAL_CODES = new Set(['NETWORK', 'INTERRUPTED', 'TIMEOUT', 'UNAUTHENTICATED', 'SESSION_EXPIRED']);

/**
 * Handlers of the site pack channels (electron/shared/ipc/domains/site-pack.ts). One preparation runs at a time;
 * it reads through the signed-in session, so it needs one; status and gateway reads need no session and no server
 * (they use the signed-in profile, else the selected one). A pack file set aside is reported once as a notice.
 */
export function createSitePackHandlers({
  sessions,
  cancellation,
  commands,
  profiles,
  events,
  sitePacks,
  rootPasswords,
  customers,
  log,
  concurrency,
}: SitePackDependencies): DomainHandlers<typeof sitePackChannels> {
  let job: { progress: PackProgressEvent; controller: AbortController } | null = null;
  cancellation.addFinder((callId) => {
    const current = job;
    return current?.progress.jobId === callId ? () => current.controller.abort() : undefined;
  });
  const profileOf = () => sessions.summary()?.profileId ?? profiles.list().selectedId;
  const emit = (progress: PackProgressEvent) => {
    if (job && job.progress.jobId === progress.jobId) job.progress = progress;
    events.emit('site-pack:progress', progress);
  };

  const run = async (
    jobId: string,
    profileId: string,
    input: { scope: PackScope; selection: PackSelection },
  ) => {
    const controller = job!.controller;
    try {
      const session = sessions.requireSession();
      // One keychain read for the whole pack, not one per gateway.
      const storedPasswords = rootPasswords.storedGatewayIds(profileId).catch(() => new Set<string>());
      const known = (await customers?.list(profileId).catch(() => [])) ?? [];
      const pack = await prepareSitePack({
        reader: {
          // The builder names endpoints of the table; the API client validates the request against its schema.
          call: (endpoint, request) =>
            session.call(endpoint as EndpointName, request as EndpointRequest<EndpointName>, {
              signal: controller.signal,
            }),
          command: (gatewayId, command, body) => {
            if (!isCommandName(command))
              throw new IpcError('INVALID_INPUT', `No gateway command named ${command}`);
            return commands.send({
              gatewayId,
              name: command,
              body: body as CommandRequest<typeof command>,
              signal: controller.signal,
            });
          },
        },
        profileId,
        scope: input.scope,
        selection: input.selection,
        customers: known,
        signal: controller.signal,
        concurrency,
        isFatal: (error) => FATAL_CODES.has(mapServiceError(error)?.code ?? ''),
        isRootPasswordStored: async (gatewayId) => (await storedPasswords).has(gatewayId),
        onProgress: (progress) => emit({ jobId, ...progress }),
      });
      if (controller.signal.aborted) throw new PackCancelledError();
      await sitePacks.save(pack);
      const unresolved = pack.unresolved ?? [];
      emit({
        jobId,
        phase: 'done',
        done: Object.keys(pack.details).length,
        total: pack.gateways.length,
        ...(unresolved.length > 0
          ? {
              message: t('sitePack:doneUnresolved', {
                count: pack.gateways.length,
                scope: pack.scope.name ?? t('sitePack:theScope'),
                entries: unresolved.join(', '),
              }),
            }
          : {}),
      });
    } catch (error) {
      const previous = job?.progress ?? { done: 0, total: 0 };
      if (error instanceof PackCancelledError) {
        emit({ jobId, phase: 'cancelled', done: previous.done, total: previous.total });
        return;
      }
      const mapped = mapServiceError(error);
      if (!mapped) log.error('site pack preparation failed', error);
      emit({
        jobId,
        phase: 'failed',
        done: previous.done,
        total: previous.total,
        message: t('sitePack:notSaved', { reason: mapped?.message ?? t('sitePack:internalFailure') }),
      });
    }
  };

  return {
    'site-pack:status': async () => {
      const profileId = profileOf();
      const current = job?.progress ?? null;
      if (!profileId) return { profileId: null, pack: null, job: current };
      const stored = await sitePacks.get(profileId);
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
              unresolved: stored.pack.unresolved ?? [],
            }
          : null,
        job: current,
      };
    },
    'site-pack:prepare': (input) => {
      const summary = sessions.summary();
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
    'site-pack:gateway': async ({ gatewayId }) => {
      const profileId = profileOf();
      if (!profileId) return null;
      return sitePacks.gateway(profileId, gatewayId);
    },
  };
}
