import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { z } from 'zod';
import type { DomainHandlers, ProfileReader, SignedInSession } from './context';
import type { ReportPreviewInputSchema, reportChannels } from '../../shared/ipc/domains/report';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { JournalLine } from '../../shared/visit/journal-entry';
import { IpcError } from '../../shared/ipc/result';
import { matchGateway } from '../../shared/report/visit-lines';
import type { AuditLog } from '../../services/audit';
import type { SitePacks } from '../../services/site-pack';
import {
  buildReportModel,
  collectVisit,
  exportSiteReport,
  VisitPhotos,
  type PackedGatewayFacts,
  type PdfPrinter,
  type SiteVisit,
} from '../../services/reports';
import { gatherVisitEvidence, writeVisitBundle, type VisitEvidence } from '../../services/visit';
import type { Clock } from '../../shared/clock';
import { translatorFor } from '../../shared/i18n';
import type { FieldMeasurements } from './field-measurements';

/** What a report is made of, as the page sends it (an export's input without its format). */
type ReportSource = z.infer<typeof ReportPreviewInputSchema>;

/** What the report channels use: who is signed in, the audit log, the site packs, the visits and the measurements. */
export interface ReportDependencies {
  sessions: SignedInSession;
  profiles: ProfileReader;
  audit: AuditLog;
  sitePacks: Pick<SitePacks, 'gateway'>;
  /** The serial triages of this run, and the terminal logs main knows (the page's paths are not trusted). */
  terminals(): { triages(): TriageResult[]; logs?(): Array<{ path: string; id: string }> } | undefined;
  /** Where reports go and how they are printed; none: the report channels answer that reports are not set up. */
  reports?: { reportsDir: string; printer?: PdfPrinter };
  lastUserOf(profileId: string): string | undefined;
  visits?: Parameters<typeof gatherVisitEvidence>[0] & { current(): { id: string } | null };
  /** Names a log's gateway by identity when the log is attached (the visit's one resolver). */
  resolveGateway?: Parameters<typeof gatherVisitEvidence>[2];
  /** The pings and RF series measured in this run (the tasks domain records them; running RF meters included). */
  measurements: Pick<FieldMeasurements, 'forReport'>;
  /** The end of a visit reported without one, and the bundle's time. */
  clock: Pick<Clock, 'now'>;
  /** The signed-in profile and user; throws UNAUTHENTICATED when nobody is. */
  who(): { profileId: string; user: string };
  mapped<Value>(action: () => Promise<Value> | Value): Promise<Value>;
}

/** The site pack's facts about the report's gateways (none when no gateway is named or no pack is kept). */
async function packedFacts(
  sitePacks: Pick<SitePacks, 'gateway'>,
  profileId: string,
  gateways: ReadonlyArray<{ id: string }> | undefined,
): Promise<PackedGatewayFacts[] | undefined> {
  if (!gateways || gateways.length === 0 || profileId === 'none') return undefined;
  const facts: PackedGatewayFacts[] = [];
  for (const { id } of gateways) {
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

/** The photos of visits live beside the reports, one folder per profile and visit. */
function photosOf(options: { reportsDir: string }): VisitPhotos {
  return new VisitPhotos(join(options.reportsDir, 'visit-photos'));
}

/** Handlers of the site report's channels (electron/shared/ipc/domains/report.ts). */
export function createReportHandlers(
  dependencies: ReportDependencies,
): DomainHandlers<typeof reportChannels> {
  const {
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
  } = dependencies;
  const requireReports = () => {
    if (!reports) throw new IpcError('INTERNAL', 'Site reports are not set up in this build.');
    return reports;
  };

  /**
   * The visit a report tells, from what the page sent and what main knows: the audit entries, measurements and
   * triages of this account, and the visit journal (`journal`: the export's evidence, or the open visit's lines
   * for a preview, which records nothing).
   */
  const assembleVisit = async (
    input: ReportSource,
    journal: { lines: readonly JournalLine[]; entries: number; head: string } | undefined,
    photos: SiteVisit['photos'],
  ): Promise<SiteVisit> => {
    // A report needs no server: with no session (field mode) it is the selected profile's, by nobody signed in.
    const summary = sessions.summary();
    const profileId = summary?.profileId ?? profiles.list().selectedId ?? 'none';
    const profile = profiles.list().profiles.find((candidate) => candidate.id === profileId);
    // Only this user's work is reported: the signed-in user's, in field mode the one signed in last here (said as
    // not signed in).
    const owner = summary?.username ?? lastUserOf(profileId);
    const translate = translatorFor(input.language ?? 'en');
    const user =
      summary?.username ??
      (owner
        ? translate('document:technicianFieldMode', { name: owner })
        : translate('document:nobodyFieldMode'));
    const endedAt = input.endedAt ?? dependencies.clock.now();
    const wanted = input.gateways ? new Set(input.gateways.map((gateway) => gateway.id)) : undefined;
    const inSpan = (at: number, gatewayId?: string) =>
      at >= input.startedAt && at <= endedAt && (!wanted || !gatewayId || wanted.has(gatewayId));
    const measured = dependencies.measurements.forReport(owner, inSpan);
    // A triage's gateway is the serial console's free text: matched to the chosen gateways by id, name or MAC.
    const serialTriage = (terminals()?.triages() ?? []).filter((triage) =>
      inSpan(triage.finishedAt, matchGateway(triage.gatewayId, input.gateways ?? [])),
    );
    const visit = await collectVisit({
      audit,
      profileId,
      user: owner ?? null,
      profileName: summary?.profileName ?? profile?.name,
      technician: user,
      startedAt: input.startedAt,
      endedAt,
      gateways: input.gateways,
      title: input.title,
      site: input.site,
      customer: input.customer,
      technicianName: input.technicianName,
      customerRepresentative: input.customerRepresentative,
      photos: [...(await photosOf(requireReports()).readAll(profileId, input.startedAt)), ...(photos ?? [])],
      notes: input.notes,
      terminalLogs: input.terminalLogs,
      serialTriage,
      fromPack: await packedFacts(sitePacks, profileId, input.gateways),
      pings: measured.pings,
      rf: measured.rf,
    });
    if (journal) {
      visit.journal = { entries: journal.entries, head: journal.head };
      // The serial triages and terminal sessions are the journal's, recorded as they happened.
      visit.journalLines = journal.lines;
    }
    return visit;
  };

  /** The open visit's journal as it stands, read without recording anything (a preview). */
  const openJournal = () => {
    const open = visits?.current();
    if (!visits || !open) return undefined;
    const lines = visits.entries(open.id);
    return { lines, entries: lines.length, head: lines.at(-1)?.hash ?? '' };
  };

  return {
    'report:preview': (input) =>
      mapped(async () =>
        buildReportModel(await assembleVisit(input, openJournal(), undefined), {
          ...(input.language ? { language: input.language } : {}),
        }),
      ),
    'report:export': ({ format, ...input }) =>
      mapped(async () => {
        const options = requireReports();
        if (format === 'pdf' && !options.printer)
          throw new IpcError('INTERNAL', 'PDF printing is not available here; export HTML instead.');
        // Only logs of this account's terminals are attached (main knows their paths; the page's are not trusted).
        const knownLogs = new Map((terminals()?.logs?.() ?? []).map((log) => [log.path, log]));
        const evidence: VisitEvidence | undefined = visits
          ? await gatherVisitEvidence(
              visits,
              (input.terminalLogs ?? []).flatMap((log) => {
                const known = knownLogs.get(log.path);
                return known ? [{ path: known.path, sessionId: known.id, typed: log.gatewayId }] : [];
              }),
              resolveGateway,
            )
          : undefined;
        const visit = await assembleVisit(input, evidence?.journal, evidence?.photos);
        const written = await exportSiteReport(visit, options.reportsDir, {
          printer: format === 'pdf' ? options.printer : undefined,
          ...(input.language ? { language: input.language } : {}),
        });
        const path = format === 'pdf' && written.pdfPath ? written.pdfPath : written.htmlPath;
        const bundlePath = join(options.reportsDir, written.baseName);
        if (evidence)
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
          ...(evidence ? { bundlePath } : {}),
          fileName: basename(path),
          mimeType: format === 'pdf' ? ('application/pdf' as const) : ('text/html' as const),
          base64: (await readFile(path)).toString('base64'),
        };
      }),
    'report:photos': ({ startedAt }) =>
      mapped(async () => ({ photos: await photosOf(requireReports()).list(who().profileId, startedAt) })),
    'report:photo': ({ startedAt, id }) =>
      mapped(async () => {
        const photo = await photosOf(requireReports()).read(who().profileId, startedAt, id);
        if (!photo) throw new IpcError('NOT_FOUND', 'This photo is no longer kept with the visit.');
        return { mimeType: photo.mimeType, base64: photo.base64 };
      }),
    'report:photo-add': ({ startedAt, caption, base64 }) =>
      mapped(async () =>
        photosOf(requireReports()).add(who().profileId, startedAt, {
          caption,
          bytes: Buffer.from(base64, 'base64'),
        }),
      ),
    'report:photo-remove': ({ startedAt, id }) =>
      mapped(async () => {
        await photosOf(requireReports()).remove(who().profileId, startedAt, id);
        return null;
      }),
  };
}
