import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DomainHandlers, ProfileReader, SignedInSession } from './context';
import type { reportChannels } from '../../shared/ipc/domains/report';
import type { JournalLine, VisitEntry } from '../../shared/visit/journal-entry';
import { IpcError } from '../../shared/ipc/result';
import type { SitePacks } from '../../services/site-pack';
import {
  buildReportModel,
  exportSiteReport,
  journalGateways,
  readJournalPhotos,
  visitFromJournal,
  type PackedGatewayFacts,
  type PdfPrinter,
} from '../../services/reports';
import {
  gatherClosedVisitEvidence,
  gatherVisitEvidence,
  sessionLogsOf,
  writeVisitBundle,
  type VisitEvidence,
  type Visits,
} from '../../services/visit';
import type { Clock } from '../../shared/clock';
import { reportLinesOf } from '../../services/reports/report-lines';
import { reportWordsFor, visitTime } from '../../shared/report/report-words';
import { t, translatorFor, type DisplayLanguage } from '../../shared/i18n';

/** What the report channels use: who is signed in, the visits and their journals, the site packs, the logs. */
export interface ReportDependencies {
  sessions: SignedInSession;
  profiles: ProfileReader;
  sitePacks: Pick<SitePacks, 'gateway'>;
  /** The terminal logs main knows (an export bundles those of the visit's sessions). */
  terminals(): { logs?(): Array<{ path: string; id: string }> } | undefined;
  /** Where reports go and how they are printed; none: the report channels answer that reports are not set up. */
  reports?: { reportsDir: string; printer?: PdfPrinter };
  lastUserOf(profileId: string): string | undefined;
  visits: Pick<
    Visits,
    'current' | 'get' | 'entries' | 'pathsOf' | 'ensureOpen' | 'append' | 'snapshot' | 'list'
  >;
  /** Names a log's gateway by identity when the log is attached (the visit's one resolver). */
  resolveGateway?: Parameters<typeof gatherVisitEvidence>[2];
  /** A still open visit's end in its report, and the bundle's time. */
  clock: Pick<Clock, 'now'>;
  mapped<Value>(action: () => Promise<Value> | Value): Promise<Value>;
}

/**
 * The site pack's facts about the gateways a journal names (context read when the report is made, shown "as of"
 * the pack's time; none when no pack is kept).
 */
async function packedFacts(
  sitePacks: Pick<SitePacks, 'gateway'>,
  profileId: string,
  ids: readonly string[],
): Promise<PackedGatewayFacts[] | undefined> {
  if (ids.length === 0 || profileId === 'none') return undefined;
  const facts: PackedGatewayFacts[] = [];
  for (const id of ids) {
    const packed = await sitePacks.gateway(profileId, id).catch(() => null);
    if (!packed) continue;
    const alarms = packed.details?.sections.alarms;
    const raised =
      alarms && 'value' in alarms
        ? ((alarms.value as { data?: Array<{ eventName: string; endTs: number | null }> }).data ?? [])
            .filter((event) => event.endTs === null)
            .map((event) => event.eventName)
        : undefined;
    const { gateway } = packed;
    facts.push({
      id,
      name: gateway.name,
      mac: gateway.gatewayMac,
      model: gateway.gatewayModelName,
      bspVersion: gateway.bspVersion,
      status: gateway.status,
      lastSeenTime: gateway.lastSeenTime,
      ...(raised ? { raisedAlarms: raised } : {}),
      asOf: packed.asOf,
    });
  }
  return facts;
}

/** What a report channel is asked: which visit (default: the open one), in which language, which gateways. */
interface ReportQuestion {
  visitId?: string | undefined;
  language?: DisplayLanguage | undefined;
  gateways?: string[] | undefined;
}

/** Handlers of the site report's channels (electron/shared/ipc/domains/report.ts). */
export function createReportHandlers(
  dependencies: ReportDependencies,
): DomainHandlers<typeof reportChannels> {
  const { sessions, profiles, sitePacks, terminals, reports, lastUserOf, visits, resolveGateway, mapped } =
    dependencies;
  const requireReports = () => {
    if (!reports) throw new IpcError('INTERNAL', 'Site reports are not set up in this build.');
    return reports;
  };

  /**
   * The visit asked for: the one named, else the open one; none is a refusal the technician can act on. A visit
   * opened by another account (its `visit-opened` names the user) is that account's: refused to anyone else signed
   * in, or last signed in for field mode.
   */
  const visitOf = (visitId: string | undefined) => {
    const visit = visitId === undefined ? visits.current() : visits.get(visitId);
    if (!visit)
      throw new IpcError(
        visitId === undefined ? 'INVALID_INPUT' : 'NOT_FOUND',
        visitId === undefined ? t('report:startVisitFirst') : t('report:visitNotKept'),
      );
    const summary = sessions.summary();
    const owner = summary?.username ?? lastUserOf(summary?.profileId ?? profiles.list().selectedId ?? '');
    if (visit.user !== undefined && owner !== undefined && visit.user !== owner)
      throw new IpcError('FORBIDDEN', t('report:visitOfAnotherAccount', { user: visit.user }));
    return visit;
  };

  /** Names found for gateway ids in this run (a preview is asked again at each entry; the server once per id). */
  const names = new Map<string, { id: string; name: string; mac?: string }>();
  const nameOf = async (id: string) => {
    const kept = names.get(id);
    if (kept) return [kept];
    const found = await resolveGateway?.({ gatewayId: id }).catch(() => undefined);
    if (found?.gatewayId !== id || !found.name) return [];
    const named = { id, name: found.name, ...(found.mac ? { mac: found.mac } : {}) };
    names.set(id, named);
    return [named];
  };

  /** The report of one visit's journal lines: the one rendering that preview and export share. */
  const render = async (
    lines: readonly JournalLine[],
    folder: string,
    question: ReportQuestion,
    withPhotos = true,
  ) => {
    // A report needs no server: with no session (field mode) it is the visit's profile's, by nobody signed in.
    const summary = sessions.summary();
    const opened = lines[0]?.entry as VisitEntry | undefined;
    const profileId =
      (opened?.kind === 'visit-opened' ? opened.profileId : undefined) ??
      summary?.profileId ??
      profiles.list().selectedId ??
      'none';
    const profile = profiles.list().profiles.find((candidate) => candidate.id === profileId);
    const owner = summary?.username ?? lastUserOf(profileId);
    const translate = translatorFor(question.language ?? 'en');
    const technician =
      summary?.username ??
      (owner
        ? translate('document:technicianFieldMode', { name: owner })
        : translate('document:nobodyFieldMode'));
    const gateways = [...journalGateways(lines).gateways.values()];
    const ids = gateways.map((gateway) => gateway.id);
    // A gateway the journal names by id alone is named as the server (signed in) or the pack knows it now.
    const named = await Promise.all(
      gateways.filter((gateway) => !gateway.name).map(async ({ id }) => nameOf(id)),
    );
    return visitFromJournal(lines, {
      named: named.flat(),
      technician,
      profileId,
      ...(profile?.name || summary?.profileName
        ? { profileName: summary?.profileName ?? profile?.name }
        : {}),
      fromPack: (await packedFacts(sitePacks, profileId, ids)) ?? [],
      photos: withPhotos ? await readJournalPhotos(lines, folder) : [],
      ...(question.gateways ? { gateways: question.gateways } : {}),
      now: dependencies.clock.now(),
    });
  };

  /** The evidence an export bundles: the open visit's (its logs attached first), or a closed visit's as kept. */
  const evidenceOf = async (visitId: string | undefined): Promise<VisitEvidence> => {
    const visit = visitOf(visitId);
    if (!visit.isOpen) return gatherClosedVisitEvidence(visits, visit.id);
    // Only logs of this account's terminals whose sessions the journal recorded are attached (main knows their
    // paths; the page sends none); those attached before (sessions closed) are bundled from the visit's copies.
    const logs = sessionLogsOf(visits.entries(visit.id), terminals()?.logs?.() ?? []);
    return gatherVisitEvidence(visits, logs, resolveGateway);
  };

  return {
    'report:preview': (question) =>
      mapped(async () => {
        const visit = visitOf(question.visitId);
        const lines = visits.entries(visit.id);
        return buildReportModel(await render(lines, visits.pathsOf(visit.id).folder, question), {
          ...(question.language ? { language: question.language } : {}),
          generatedAt: dependencies.clock.now(),
        });
      }),
    'report:export': ({ format, ...question }) =>
      mapped(async () => {
        const options = requireReports();
        if (format === 'pdf' && !options.printer)
          throw new IpcError('INTERNAL', 'PDF printing is not available here; export HTML instead.');
        const evidence = await evidenceOf(question.visitId);
        // The report is rendered from the very lines the bundle holds: its printed head is the bundle's.
        const visit = await render(
          evidence.journal.lines,
          visits.pathsOf(evidence.visit.id).folder,
          question,
        );
        const written = await exportSiteReport(visit, options.reportsDir, {
          printer: format === 'pdf' ? options.printer : undefined,
          ...(question.language ? { language: question.language } : {}),
          generatedAt: dependencies.clock.now(),
        });
        const path = format === 'pdf' && written.pdfPath ? written.pdfPath : written.htmlPath;
        const bundlePath = join(options.reportsDir, written.baseName);
        await writeVisitBundle(bundlePath, {
          visitId: evidence.visit.id,
          journal: evidence.journal.bytes,
          reportPaths: [written.htmlPath, ...(written.pdfPath ? [written.pdfPath] : [])],
          photos: evidence.photos,
          logs: evidence.logs,
          createdAt: dependencies.clock.now(),
        });
        return {
          htmlPath: written.htmlPath,
          ...(written.pdfPath ? { pdfPath: written.pdfPath } : {}),
          bundlePath,
          fileName: basename(path),
          mimeType: format === 'pdf' ? ('application/pdf' as const) : ('text/html' as const),
          base64: (await readFile(path)).toString('base64'),
        };
      }),
    'report:lines': (question) =>
      mapped(async () => {
        const visit = visitOf(question.visitId);
        const rendered = await render(visits.entries(visit.id), '', question, false);
        const words = reportWordsFor(question.language ?? 'en');
        return {
          lines: reportLinesOf(rendered, {
            translate: words.translate,
            formatTime: (at) => visitTime(words.format, at, rendered.startedAt),
            ...(question.gateways ? { gateways: question.gateways } : {}),
          }),
        };
      }),
    'report:gateways': ({ visitId }) =>
      mapped(() => {
        const visit = visitOf(visitId);
        return { gateways: [...journalGateways(visits.entries(visit.id)).gateways.values()] };
      }),
  };
}
