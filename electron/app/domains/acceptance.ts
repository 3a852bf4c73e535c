import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { ChannelHandlers, ErrorLog, SignedInSession } from './context';
import type { EventHub } from '../../shared/ipc/event-hub';
import type { AcceptanceProgress } from '../../shared/ipc/domains/acceptance';
import { IpcError } from '../../shared/ipc/result';
import { t } from '../../shared/i18n';
import { CALL_TIME_LIMITS_MS } from '../../shared/api/timeouts';
import type { Clock } from '../../shared/clock';
import type { AcceptanceCard } from '../../shared/visit/acceptance-card';
import type { GatewayIdentity, VisitEntry } from '../../shared/visit/journal-entry';
import type { CommandService } from '../../services/commands';
import type { GatewayHint, Visits } from '../../services/visit';
import {
  buildOfflineCard,
  resolveAcceptanceTable,
  runAcceptanceCheck,
  ThresholdOverridesError,
  type AcceptanceOverride,
} from '../../services/acceptance';
import type { SitePacks } from '../../services/site-pack';
import type { CallCancellation } from '../call-cancellation';
import { mapServiceError } from '../error-mapping';
import type { ServerSessionPort } from '../server-session-port';

/** What the acceptance domain uses: the session it reads through, the command service, the visits, the events hub. */
export interface AcceptanceDependencies {
  /** Who is signed in, and the session the alarms are read through (SessionController). */
  sessions: { summary: SignedInSession['summary']; requireSession(): Pick<ServerSessionPort, 'call'> };
  /** Where `call:cancel` finds the check under way by its check id. */
  cancellation: Pick<CallCancellation, 'addFinder'>;
  /** Every gateway read of the check goes through it (unrecorded reads: the card is the record). */
  commands: Pick<CommandService, 'send'>;
  visits: Pick<Visits, 'append' | 'current' | 'entries'>;
  events: Pick<EventHub, 'emit'>;
  clock: Pick<Clock, 'now' | 'sleep'>;
  /** The signed-in profile's overrides of the thresholds table and the profile's name, if any. */
  thresholds?: (profileId: string) => Promise<{ name: string; override: AcceptanceOverride } | undefined>;
  /** The profile chosen on the sign-in page: whose thresholds the offline card uses when nobody is signed in. */
  selectedProfileId?: () => string | undefined;
  /** Names the gateway of an offline card as other entries are named: the server, else the site pack, else as given. */
  resolveGateway?: (hint: GatewayHint) => Promise<GatewayIdentity | undefined>;
  /** The site packs: what the profile's pack holds about a gateway (its backups, alarms, software) fills the card. */
  sitePacks?: Pick<SitePacks, 'gateway'>;
  log: ErrorLog;
}

/**
 * Handlers of the acceptance channels (electron/shared/ipc/domains/acceptance.ts). One check runs at a time, on one
 * gateway or all of a visit's together; `call:cancel` with its check id stops it and its cards say "not finished".
 * Each card goes into the open visit's journal as an `acceptance` entry when the check ends, finished or not; an
 * offline card goes in before it is answered, and a journal that refuses it refuses the card with its reason.
 */
export function createAcceptanceHandlers(
  dependencies: AcceptanceDependencies,
): ChannelHandlers<'acceptance:start' | 'acceptance:status' | 'acceptance:cards' | 'acceptance:offline'> {
  const { sessions, cancellation, commands, visits, events, clock, log } = dependencies;
  let check: { progress: AcceptanceProgress; controller: AbortController } | null = null;
  cancellation.addFinder((callId) => {
    const current = check;
    return current?.progress.checkId === callId && !isEnded(current.progress)
      ? () => current.controller.abort()
      : undefined;
  });
  const emit = (progress: AcceptanceProgress) => {
    if (check?.progress.checkId === progress.checkId) check.progress = progress;
    events.emit('acceptance:progress', progress);
  };

  const journal = async (cards: AcceptanceCard[]): Promise<string | undefined> => {
    try {
      for (const card of cards)
        await visits.append({
          kind: 'acceptance',
          gateway: { gatewayId: card.gatewayId, ...(card.gatewayName ? { name: card.gatewayName } : {}) },
          card,
        });
      return undefined;
    } catch (error) {
      log.error('the visit journal refused an acceptance card', error);
      const reason = mapServiceError(error)?.message;
      return reason ? t('acceptance:journalRefused', { reason }) : t('acceptance:journalRefusedUnknown');
    }
  };

  const readThresholds = async (profileId: string) => {
    try {
      return await dependencies.thresholds?.(profileId);
    } catch (error) {
      if (error instanceof ThresholdOverridesError) throw new IpcError('INVALID_INPUT', error.message);
      throw error;
    }
  };

  const journalCards = (gatewayIds?: readonly string[]): AcceptanceCard[] => {
    const open = visits.current();
    if (!open) return [];
    const wanted = gatewayIds ? new Set(gatewayIds) : undefined;
    return visits.entries(open.id).flatMap(({ entry }) => {
      const acceptance = entry as VisitEntry;
      return acceptance.kind === 'acceptance' && (!wanted || wanted.has(acceptance.card.gatewayId))
        ? [acceptance.card]
        : [];
    });
  };

  return {
    'acceptance:start': async (input) => {
      const summary = sessions.summary();
      if (!summary) throw new IpcError('UNAUTHENTICATED', t('acceptance:signInToCheck'));
      if (check && !isEnded(check.progress))
        throw new IpcError('INVALID_INPUT', t('acceptance:checkUnderWay'));
      const session = sessions.requireSession();
      const thresholds = await readThresholds(summary.profileId);
      const table = resolveAcceptanceTable({
        ...thresholds?.override,
        ...(input.observationSeconds === undefined ? {} : { observationSeconds: input.observationSeconds }),
      });
      const checkId = randomUUID();
      const gatewayIds = input.targets.map((target) => target.gatewayId);
      const total = gatewayIds.length;
      const controller = new AbortController();
      // Every read of every gateway listens to this one signal (about 20 a gateway).
      setMaxListeners(0, controller.signal);
      const readingEndsAt = clock.now() + 2 * CALL_TIME_LIMITS_MS.command;
      check = {
        controller,
        progress: { checkId, gatewayIds, phase: 'reading', done: 0, total, readingEndsAt },
      };
      const run = async () => {
        try {
          const cards = await runAcceptanceCheck({
            targets: input.targets,
            table,
            clock,
            signal: controller.signal,
            ...(thresholds?.override ? { thresholdsProfile: thresholds.name } : {}),
            reader: {
              command: (gatewayId, name, body, signal) => commands.send({ gatewayId, name, body, signal }),
              events: async (gatewayId, sinceMs, signal) =>
                (
                  await session.call(
                    'listEnhancedEvents',
                    {
                      query: {
                        entityIdUuid: gatewayId,
                        startTs: sinceMs,
                        sortField: 'start_ts',
                        sortOrder: 'desc',
                        limit: 100,
                      },
                    },
                    { signal },
                  )
                ).data,
            },
            onPhase: (phase) =>
              emit(
                phase.phase === 'reading'
                  ? { checkId, gatewayIds, phase: 'reading', done: phase.done, total, readingEndsAt }
                  : {
                      checkId,
                      gatewayIds,
                      phase: 'observing',
                      done: total,
                      total,
                      windowStartedAt: phase.windowStartedAt,
                      windowEndsAt: phase.windowEndsAt,
                    },
              ),
          });
          const journalProblem = await journal(cards);
          emit({
            checkId,
            gatewayIds,
            phase: controller.signal.aborted ? 'cancelled' : 'done',
            done: total,
            total,
            cards,
            ...(journalProblem ? { journalProblem } : {}),
          });
        } catch (error) {
          const mapped = mapServiceError(error);
          if (!mapped) log.error('acceptance check failed', error);
          emit({
            checkId,
            gatewayIds,
            phase: 'failed',
            done: check?.progress.done ?? 0,
            total,
            message: mapped
              ? t('acceptance:checkStopped', { reason: mapped.message })
              : t('acceptance:checkStoppedInternal'),
          });
        }
      };
      void run();
      return { checkId };
    },
    'acceptance:status': () => check?.progress ?? null,
    'acceptance:cards': ({ gatewayIds }) => ({ cards: journalCards(gatewayIds) }),
    'acceptance:offline': async ({ gatewayId, name }) => {
      const open = visits.current();
      if (!open) return null;
      const triages = visits.entries(open.id).flatMap(({ entry }) => {
        const triage = entry as VisitEntry;
        return triage.kind === 'triage' &&
          (triage.gateway?.gatewayId === gatewayId || triage.result.gatewayId === gatewayId)
          ? [triage.result]
          : [];
      });
      const latest = triages.at(-1);
      if (!latest) return null;
      // Field mode has no session: the profile chosen on the sign-in page says whose thresholds apply.
      const profileId = sessions.summary()?.profileId ?? dependencies.selectedProfileId?.();
      const thresholds = profileId ? await readThresholds(profileId) : undefined;
      const details = profileId
        ? (
            await dependencies.sitePacks?.gateway(profileId, gatewayId).catch((error: unknown) => {
              log.error('the site pack could not be read for an offline acceptance card', error);
              return null;
            })
          )?.details
        : undefined;
      const pack = details ? { readAt: details.readAt, sections: details.sections } : undefined;
      const built = buildOfflineCard({
        gatewayId,
        ...(name ? { name } : {}),
        triage: latest,
        table: resolveAcceptanceTable(thresholds?.override),
        now: clock.now(),
        ...(pack ? { pack } : {}),
      });
      const card = thresholds ? { ...built, thresholdsProfile: thresholds.name } : built;
      const gateway = (await dependencies.resolveGateway?.({ gatewayId, name })) ?? {
        gatewayId,
        ...(name ? { name } : {}),
      };
      try {
        await visits.append({ kind: 'acceptance', gateway, card });
      } catch (error) {
        log.error('the visit journal refused an offline acceptance card', error);
        // The journal's own sentence says what happened and what to do; the screen prefixes it with the card.
        const mapped = mapServiceError(error);
        const reason = mapped?.message ?? (error instanceof Error ? error.message : '');
        throw new IpcError(mapped?.code ?? 'INTERNAL', reason || t('acceptance:offlineNotKeptUnknown'));
      }
      return card;
    },
  };
}

function isEnded(progress: AcceptanceProgress): boolean {
  return progress.phase === 'done' || progress.phase === 'cancelled' || progress.phase === 'failed';
}
