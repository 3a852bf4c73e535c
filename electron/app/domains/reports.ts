import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { reportsChannels } from '../../shared/ipc/domains/reports';
import { IpcError } from '../../shared/ipc/result';
import { matchGateway } from '../../shared/report/visit-summary';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { AuditLog } from '../../services/audit';
import type { SitePacks } from '../../services/site-pack';
import type { TerminalManager } from '../../services/terminals';
import { type PackedGatewayFacts, collectVisit, exportSiteReport, VisitPhotos } from '../../services/reports';
import { gatherVisitEvidence, writeVisitBundle } from '../../services/visit';
import type { DomainHandlers, ProfileReader, SignedInSession } from './context';
import { mapped, requireSignedIn, type CommissioningOptions } from './engines';
import type { FieldMeasurements } from './field-measurements';

/** What the audit log and site report channels use. */
export interface ReportsDependencies {
  sessions: SignedInSession;
  profiles: Pick<ProfileReader, 'list'>;
  audit: AuditLog;
  sitePacks: Pick<SitePacks, 'gateway'>;
  /** The pings and RF series measured in this run (the tasks domain records them). */
  measurements: Pick<FieldMeasurements, 'forReport'>;
  /**
   * The terminal manager once attached: its serial triages and session logs for the report. None (a build
   * without terminals): no triage is reported, no log attached.
   */
  terminals(): (Pick<TerminalManager, 'triages'> & Partial<Pick<TerminalManager, 'logs'>>) | undefined;
  /** Where reports go and how they are printed; none: `report:export` answers that reports are not set up. */
  reports?: CommissioningOptions;
  /** The user signed in last on a profile (FieldKitServices.lastUserOf): whose work field mode shows. */
  lastUserOf(profileId: string): string | undefined;
  /**
   * The visits: an export prints the open visit's journal head, takes its photos, attaches its logs and writes
   * the bundle (report, journal, photos, logs, manifest) beside the report. None: report files only.
   */
  visits?: Parameters<typeof gatherVisitEvidence>[0];
  /** The end of a visit exported without one, and the bundle's time (default: the system clock). */
  clock?: Pick<Clock, 'now'>;
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
function photosOf(options: CommissioningOptions, clock: Pick<Clock, 'now'>): VisitPhotos {
  return new VisitPhotos(join(options.reportsDir, 'visit-photos'), clock);
}

/** Handlers of the audit log, site report and visit photo channels (electron/shared/ipc/domains/reports.ts). */
export function createReportsHandlers({
  sessions,
  profiles,
  audit,
  sitePacks,
  measurements,
  terminals,
  reports,
  lastUserOf,
  visits,
  clock = SYSTEM_CLOCK,
}: ReportsDependencies): DomainHandlers<typeof reportsChannels> {
  const requireReports = () => {
    if (!reports) throw new IpcError('INTERNAL', 'Site reports are not set up in this build.');
    return reports;
  };
  /** The serial triages of this run (the terminal manager keeps them); none in a build without terminals. */
  const listTriages = (): TriageResult[] => terminals()?.triages() ?? [];
  const signedInProfile = () => requireSignedIn(sessions).profileId;

  return {
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
    'report:export': (input) =>
      mapped(async () => {
        const options = requireReports();
        if (input.format === 'pdf' && !options.printer)
          throw new IpcError('INTERNAL', 'PDF printing is not available here; export HTML instead.');
        // A report needs no server: with no session (field mode) it is the selected profile's, by nobody signed in.
        const summary = sessions.summary();
        const profileId = summary?.profileId ?? profiles.list().selectedId ?? 'none';
        const profile = profiles.list().profiles.find((candidate) => candidate.id === profileId);
        // Only this user's work is reported: the signed-in user's, in field mode the one signed in last here
        // (said as not signed in).
        const owner = summary?.username ?? lastUserOf(profileId);
        const user =
          summary?.username ??
          (owner ? `${owner} (not signed in: field mode)` : 'not signed in (field mode)');
        const endedAt = input.endedAt ?? clock.now();
        const wanted = input.gateways ? new Set(input.gateways.map((gateway) => gateway.id)) : undefined;
        const inSpan = (at: number, gatewayId?: string) =>
          at >= input.startedAt && at <= endedAt && (!wanted || !gatewayId || wanted.has(gatewayId));
        const measured = measurements.forReport(owner, inSpan);
        // A triage's gateway is the serial console's free text: matched to the chosen gateways by id, name or MAC.
        const serialTriage = listTriages().filter((triage) =>
          inSpan(triage.finishedAt, matchGateway(triage.gatewayId, input.gateways ?? [])),
        );
        // Only logs of this account's terminals are attached (main knows their paths; the page's are not trusted).
        const knownLogs = new Map((terminals()?.logs?.() ?? []).map((log) => [log.path, log]));
        const evidence = visits
          ? await gatherVisitEvidence(
              visits,
              (input.terminalLogs ?? []).flatMap((log) => {
                const known = knownLogs.get(log.path);
                return known ? [{ path: known.path, sessionId: known.id, typed: log.gatewayId }] : [];
              }),
            )
          : undefined;
        const photos = [
          ...(await photosOf(options, clock).readAll(profileId, input.startedAt)),
          ...(evidence?.photos ?? []),
        ];
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
          photos,
          notes: input.notes,
          terminalLogs: input.terminalLogs,
          serialTriage,
          fromPack: await packedFacts(sitePacks, profileId, input.gateways),
          pings: measured.pings,
          rf: measured.rf,
        });
        if (evidence) {
          visit.journal = { entries: evidence.journal.entries, head: evidence.journal.head };
          // The serial triages and terminal sessions are the journal's, recorded as they happened.
          visit.journalLines = evidence.journal.lines;
        }
        const written = await exportSiteReport(visit, options.reportsDir, {
          printer: input.format === 'pdf' ? options.printer : undefined,
        });
        const path = input.format === 'pdf' && written.pdfPath ? written.pdfPath : written.htmlPath;
        const bundlePath = join(options.reportsDir, written.baseName);
        if (evidence)
          await writeVisitBundle(bundlePath, {
            visitId: evidence.visit.id,
            journal: evidence.journal.bytes,
            reportPaths: [written.htmlPath, ...(written.pdfPath ? [written.pdfPath] : [])],
            photos: evidence.photos,
            logs: evidence.logs,
            createdAt: clock.now(),
          });
        return {
          htmlPath: written.htmlPath,
          ...(written.pdfPath ? { pdfPath: written.pdfPath } : {}),
          ...(evidence ? { bundlePath } : {}),
          fileName: basename(path),
          mimeType: input.format === 'pdf' ? ('application/pdf' as const) : ('text/html' as const),
          base64: (await readFile(path)).toString('base64'),
        };
      }),
    'report:photos': ({ startedAt }) =>
      mapped(async () => {
        const options = requireReports();
        return { photos: await photosOf(options, clock).list(signedInProfile(), startedAt) };
      }),
    'report:photo': ({ startedAt, id }) =>
      mapped(async () => {
        const photo = await photosOf(requireReports(), clock).read(signedInProfile(), startedAt, id);
        if (!photo) throw new IpcError('NOT_FOUND', 'This photo is no longer kept with the visit.');
        return { mimeType: photo.mimeType, base64: photo.base64 };
      }),
    'report:photo-add': ({ startedAt, caption, base64 }) =>
      mapped(async () => {
        const photos = photosOf(requireReports(), clock);
        return photos.add(signedInProfile(), startedAt, { caption, bytes: Buffer.from(base64, 'base64') });
      }),
    'report:photo-remove': ({ startedAt, id }) =>
      mapped(async () => {
        await photosOf(requireReports(), clock).remove(signedInProfile(), startedAt, id);
        return null;
      }),
  };
}
