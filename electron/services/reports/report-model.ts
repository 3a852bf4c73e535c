import { basename } from 'node:path';
import { SYSTEM_CLOCK } from '../../shared/clock';
import { redactText } from '../audit';
import { formatMac } from '../../shared/mac';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { ReportModel, SectionBody } from '../../shared/report/report-model';
import type { VisitEntry } from '../../shared/visit/journal-entry';
import { reportWordsFor, visitTime } from '../../shared/report/report-words';
import { describeTimeZone } from '../../shared/report/report-time';
import type { Translator } from '../../shared/i18n';
import { matchGateway } from '../../shared/report/visit-lines';
import { eventNameWords, gatewayStatusWords } from '../../shared/i18n/api-words';
import { describeSettingsRead, isSettingsRead, summarizeGateways } from '../../shared/report/visit-summary';
import { acceptancePageOf } from './acceptance-page';
import { findingsOf } from './page-one-findings';
import { readTerminalWork } from './journal-terminals';
import {
  changeModelOf,
  commandRowsOf,
  rfModelOf,
  triageModelOf,
  wordAuditOutcome,
  type PartFormat,
} from './report-model-parts';
import type { SiteReportOptions, SiteVisit, TerminalLogLink, VisitGateway } from './site-visit';

type GatewayKey = { gatewayId?: string; typed?: string; name?: string; mac?: string } | undefined;

/** Where the exported bundle keeps a session's log: `logs/<file name>` (the report names it, never links it). */
function bundleLogPath(path: string): string {
  return `logs/${basename(path.replace(/\\/g, '/'))}`;
}

/** The visit's triages and terminal logs, each under the gateway it names, and the gateways' names. */
export function placeTerminalWork(visit: SiteVisit) {
  const byId = new Map<string, VisitGateway>(visit.gateways.map((gateway) => [gateway.id, gateway]));
  // With no server to ask (field mode), the site pack names the gateways.
  for (const facts of visit.fromPack ?? [])
    if (!byId.get(facts.id)?.name) byId.set(facts.id, { id: facts.id, name: facts.name, mac: facts.mac });
  // A serial console's Gateway field is free text (a name, a MAC): the session goes to the gateway it names.
  const named = (text: string | undefined) => matchGateway(text, [...byId.values()]);
  const work = visit.journalLines ? readTerminalWork(visit.journalLines) : undefined;
  // A journal entry names its gateway by identity (the server's or the pack's id, name and MAC), resolved when it
  // was recorded; only one resolved to none is matched here by what was typed.
  for (const { gateway } of [...(work?.triages ?? []), ...(work?.sessions ?? [])])
    if (gateway?.gatewayId && !byId.get(gateway.gatewayId)?.name)
      byId.set(gateway.gatewayId, {
        id: gateway.gatewayId,
        ...(gateway.name ? { name: gateway.name } : {}),
        ...(gateway.mac ? { mac: gateway.mac } : {}),
      });
  const keyOf = (gateway: GatewayKey) =>
    gateway?.gatewayId ?? named(gateway?.typed ?? gateway?.name ?? gateway?.mac);
  const logs: TerminalLogLink[] = (work?.sessions ?? []).map((session) => {
    const gatewayId = keyOf(session.gateway);
    return {
      label: session.title,
      path: session.logFile,
      openedAt: session.openedAt,
      ...(gatewayId ? { gatewayId } : {}),
    };
  });
  const triages: TriageResult[] = (work?.triages ?? []).map(({ triage, gateway }) => ({
    ...triage,
    gatewayId: keyOf(gateway),
  }));
  return { byId, logs, triages };
}

/** Every string of a value passed through `change` (photo sources aside: they are base64, not words). */
function mapStrings<Value>(value: Value, change: (text: string) => string): Value {
  if (typeof value === 'string') return change(value) as Value;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, change)) as Value;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === 'src' ? item : mapStrings(item, change)]),
    ) as Value;
  return value;
}

/** The customer's latest acknowledgement in the visit journal, as the acknowledgement page prints it. */
function recordedAcknowledgement(
  visit: SiteVisit,
  time: (at: number) => string,
): Pick<ReportModel['acknowledgement'], 'recorded'> {
  const line = [...(visit.journalLines ?? [])]
    .reverse()
    .find(({ entry }) => entry.kind === 'acknowledgement');
  if (!line) return {};
  const entry = line.entry as Extract<VisitEntry, { kind: 'acknowledgement' }>;
  return {
    recorded: {
      by: entry.customerRepresentative,
      technician: entry.technicianName,
      at: time(line.at),
      ...(entry.text ? { words: entry.text } : {}),
    },
  };
}

/** The acceptance page of a visit whose journal holds a check, as a part of the model. */
function optionalAcceptance(
  visit: SiteVisit,
  time: (at: number) => string,
  translate: Translator,
): Pick<ReportModel, 'acceptance'> {
  const acceptance = visit.journalLines ? acceptancePageOf(visit.journalLines, time, translate) : undefined;
  return acceptance ? { acceptance } : {};
}

/**
 * The site report as data (ReportModel), a pure function of the visit: page one with each gateway's findings
 * worst first (findingsOf: "fault found", "rolled back"… never "only inspected" where a fault was seen), a section
 * per gateway (changes with every setting before → after, settings read, measurements, triages, commands folded,
 * session logs named by their place in the exported bundle), photos, notes and the acknowledgement, and the visit
 * journal's head. Every string is redacted again (by pattern and by the known secrets); escaping is the
 * components' (svelte), so markup in the data stays text.
 */
export function buildReportModel(visit: SiteVisit, options: SiteReportOptions = {}): ReportModel {
  const language = options.language ?? 'en';
  const words = reportWordsFor(language, options.timeZone);
  const { translate } = words;
  const time = (at: number) => words.format.dateTime(at);
  const format: PartFormat = {
    time,
    clock: (at: number) => visitTime(words.format, at, visit.startedAt),
    number: (value: number) => words.format.number(value),
    translate,
  };
  const dash = '—';
  const { byId, logs, triages } = placeTerminalWork(visit);
  const packedById = new Map((visit.fromPack ?? []).map((facts) => [facts.id, facts]));
  const entryIds = visit.entries.flatMap((entry) => (entry.gatewayId ? [entry.gatewayId] : []));
  const knownIds = new Set([...byId.keys(), ...entryIds]);
  /** Gateways only named in a terminal (the text matched no gateway of the visit): a section under that name. */
  const typedNames = new Set(
    [...logs, ...triages].flatMap((item) =>
      item.gatewayId && !knownIds.has(item.gatewayId) ? [item.gatewayId] : [],
    ),
  );
  const gatewayIds = [
    ...new Set([
      ...visit.gateways.map((gateway) => gateway.id),
      ...entryIds,
      ...triages.flatMap((triage) => (triage.gatewayId ? [triage.gatewayId] : [])),
      // A gateway a journal entry named by identity was worked on, if only in a terminal session.
      ...logs.flatMap((log) => (log.gatewayId && byId.has(log.gatewayId) ? [log.gatewayId] : [])),
      ...typedNames,
    ]),
  ];
  /** A gateway in words: its name; its id only with the words that its name is not known. */
  const gatewayName = (id: string) => {
    if (typedNames.has(id)) return id;
    const name = byId.get(id)?.name;
    return name ? name : translate('document:gatewayNameUnknown', { id });
  };
  const gatewayMac = (id: string) => {
    const mac = byId.get(id)?.mac;
    return mac ? { mac: formatMac(mac) } : {};
  };

  const summaries = summarizeGateways(gatewayIds, visit.entries, translate);
  const sectionBody = (
    entries: SiteVisit['entries'],
    own: { logs: TerminalLogLink[]; triages: TriageResult[]; pings: NonNullable<SiteVisit['pings']> },
    gatewayId?: string,
  ): Omit<SectionBody, 'changes'> => {
    const facts = gatewayId ? packedById.get(gatewayId) : undefined;
    return {
      ...(facts
        ? {
            pack: {
              asOf: time(facts.asOf),
              text: translate('document:packFacts', {
                model: facts.model ?? dash,
                bsp: facts.bspVersion ?? dash,
                status: gatewayStatusWords(facts.status, translate),
                lastSeen: facts.lastSeenTime ? time(facts.lastSeenTime) : dash,
                alarms:
                  facts.raisedAlarms === undefined
                    ? translate('document:packAlarmsNotKept')
                    : facts.raisedAlarms.map((name) => eventNameWords(name, translate)).join(', ') ||
                      translate('document:none'),
              }),
            },
          }
        : {}),
      settingsReads: entries.filter(isSettingsRead).map((entry) => ({
        what: describeSettingsRead(entry, translate),
        when: format.clock(entry.at),
        ...(entry.outcome === 'ok' ? {} : { outcome: wordAuditOutcome(entry.outcome, translate) }),
      })),
      rf: gatewayId
        ? (visit.rf ?? [])
            .filter((series) => series.gatewayId === gatewayId)
            .map((series) => rfModelOf(series, format))
        : [],
      pings: own.pings.map((ping) => ({
        when: format.clock(ping.at),
        destination: ping.destination,
        sent: ping.packetsSent,
        received: ping.packetsReceived,
      })),
      triages: own.triages.map((triage) =>
        triageModelOf(triage, triage.gatewayId ? gatewayName(triage.gatewayId) : undefined, format),
      ),
      commands: commandRowsOf(entries, format),
      sessions: own.logs.map((log) => ({ label: log.label, file: bundleLogPath(log.path) })),
    };
  };

  const sections = summaries.map((summary) => {
    const id = summary.gatewayId;
    const name = gatewayName(id);
    return {
      name,
      ...gatewayMac(id),
      gatewayId: typedNames.has(id) ? null : id,
      changes: summary.changes.map((change) => changeModelOf(change, name, format)),
      ...sectionBody(
        visit.entries.filter((entry) => entry.gatewayId === id),
        {
          logs: logs.filter((log) => log.gatewayId === id),
          triages: triages.filter((triage) => triage.gatewayId === id),
          pings: (visit.pings ?? []).filter((ping) => ping.gatewayId === id),
        },
        id,
      ),
    };
  });

  const general = visit.entries.filter((entry) => !entry.gatewayId);
  const other = {
    logs: logs.filter((log) => !log.gatewayId || !gatewayIds.includes(log.gatewayId)),
    triages: triages.filter((triage) => !triage.gatewayId),
    pings: (visit.pings ?? []).filter((ping) => !ping.gatewayId || !gatewayIds.includes(ping.gatewayId)),
  };
  const hasOther =
    general.length > 0 || other.logs.length > 0 || other.triages.length > 0 || other.pings.length > 0;

  const model: ReportModel = {
    language,
    title: visit.title ?? translate('document:defaultTitle'),
    header: {
      site: visit.site ? visit.site : translate('document:siteNotNamed'),
      date: words.format.date(visit.startedAt),
    },
    facts: [
      { label: translate('document:factSite'), text: visit.site ? visit.site : dash },
      { label: translate('document:factCustomer'), text: visit.customer ? visit.customer : dash },
      { label: translate('document:factTechnician'), text: visit.technicianName ?? visit.technician },
      { label: translate('document:factArrival'), text: time(visit.startedAt) },
      { label: translate('document:factDeparture'), text: time(visit.endedAt) },
      {
        label: translate('document:factTimes'),
        text: translate('document:timesZone', {
          zone: describeTimeZone(visit.startedAt, words.format.timeZone),
        }),
      },
    ],
    gateways: summaries.map((summary) => ({
      name: gatewayName(summary.gatewayId),
      ...gatewayMac(summary.gatewayId),
      findings: findingsOf(
        triages.filter((triage) => triage.gatewayId === summary.gatewayId),
        (visit.acceptanceChecks ?? [])
          .filter((check) => check.gatewayId === summary.gatewayId)
          .map((check) => check.card),
        summary.changes,
        translate,
      ),
    })),
    generated: translate('document:generated', {
      time: time(options.generatedAt ?? SYSTEM_CLOCK.now()),
      profile: visit.profileName ?? visit.profileId,
      technician: visit.technician,
    }),
    sections,
    ...(hasOther ? { other: { changes: [], ...sectionBody(general, other) } } : {}),
    photos: (visit.photos ?? []).map((photo) => ({
      src: `data:${photo.mimeType};base64,${photo.base64.replace(/[^A-Za-z0-9+/=]/g, '')}`,
      caption: photo.caption || translate('document:photo'),
      ...(photo.addedAt ? { when: time(photo.addedAt) } : {}),
    })),
    ...optionalAcceptance(visit, time, translate),
    acknowledgement: {
      notes: visit.notes ?? '',
      technicianName: visit.technicianName ?? visit.technician,
      customerRepresentative: visit.customerRepresentative ?? '',
      ...recordedAcknowledgement(visit, time),
    },
    ...(visit.journal ? { evidence: { entries: visit.journal.entries, head: visit.journal.head } } : {}),
  };
  const known = options.knownSecrets ?? [];
  return mapStrings(model, (text) => redactText(text, known));
}
