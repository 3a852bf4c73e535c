import { listVisitLines, type VisitLine } from '../../shared/report/visit-lines';
import type { Translator } from '../../shared/i18n';
import { placeTerminalWork } from './report-model';
import type { SiteVisit } from './site-visit';

/**
 * What the report of `visit` will hold, as the report view lists it ("What the report will hold"): its changes,
 * settings read, commands (reads folded), terminal sessions and serial triages, in time order — made from the
 * visit the report is rendered from (visitFromJournal), so the list shows nothing the report will not. With a
 * gateway filter, the sessions and triages of the other gateways are left out, as their work is.
 */
export function reportLinesOf(
  visit: SiteVisit,
  options: { translate: Translator; formatTime: (at: number) => string; gateways?: readonly string[] },
): VisitLine[] {
  const { logs, triages } = placeTerminalWork(visit);
  const wanted = options.gateways && options.gateways.length > 0 ? new Set(options.gateways) : undefined;
  const isKept = (gatewayId: string | undefined) =>
    !wanted || gatewayId === undefined || wanted.has(gatewayId);
  return listVisitLines(visit.entries, {
    terminalLogs: logs
      .filter((log) => isKept(log.gatewayId))
      .map((log) => ({
        label: log.label,
        ...(log.openedAt === undefined ? {} : { openedAt: log.openedAt }),
        ...(log.gatewayId ? { gatewayId: log.gatewayId } : {}),
      })),
    triages: triages
      .filter((triage) => isKept(triage.gatewayId))
      .map((triage) => ({
        title: triage.title,
        finishedAt: triage.finishedAt,
        outcome: triage.outcome,
        ...(triage.gatewayId ? { gatewayId: triage.gatewayId } : {}),
        ...(triage.problem ? { problem: triage.problem } : {}),
      })),
    formatTime: options.formatTime,
    translate: options.translate,
  });
}
