import type { AuditEntry } from '../audit';
import { redactSecrets, redactText } from '../audit';
import type { RfBest, RfSample } from '../commissioning/rf-meter';
import { formatMac } from '../../shared/mac';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import { describeRoutesAndDns } from '../../shared/terminal/triage-health';
import { labelOfField } from '../../shared/api/field-labels';
import { UPGRADE_ALL_PACKAGES } from '../../shared/api';
import { flattenReadable, type ReadableField } from '../../shared/report/readable-value';
import { describeTimeZone, formatReportDateTime, formatVisitTime } from '../../shared/report/report-time';
import {
  describeFollowed,
  describeSettingsRead,
  foldCommands,
  matchGateway,
  isSettingsRead,
  OUTCOME_WORDS,
  responseOf,
  summarizeGateways,
  titleOfCommand,
  type ChangeSummary,
  type VisitOutcome,
} from '../../shared/report/visit-summary';
import { readTerminalWork, type ReportJournalLine } from './journal-terminals';
import { buildAcceptancePageHtml } from './acceptance-page';

/** A ping measured during the visit. */
export interface PingMeasurement {
  at: number;
  gatewayId?: string;
  destination: string;
  packetsSent: number;
  packetsReceived: number;
}

/** An RF series measured during the visit (the RF meter's samples and best values). */
export interface RfMeasurement {
  gatewayId?: string;
  samples: RfSample[];
  best: RfBest;
}

/** A terminal session log written during the visit. */
export interface TerminalLogLink {
  label: string;
  path: string;
  /** The gateway the session was with, when known: the log is listed in that gateway's section. */
  gatewayId?: string;
}

/** A gateway of the visit: its id, and its name and MAC as the server has them (shown instead of the id). */
export interface VisitGateway {
  id: string;
  name?: string;
  mac?: string;
}

/** A photo the technician attached to the visit, embedded in the report. */
export interface VisitPhoto {
  id: string;
  caption: string;
  mimeType: 'image/jpeg' | 'image/png';
  /** The image bytes, base64. */
  base64: string;
  /** When it was attached (epoch milliseconds). */
  addedAt?: number;
}

/** What the site pack held about a gateway of the visit (read before the visit, shown "as of" its time). */
export interface PackedGatewayFacts {
  id: string;
  name: string;
  mac: string;
  model?: string | null;
  bspVersion?: string | null;
  status: string;
  lastSeenTime?: number | null;
  raisedAlarms?: string[];
  asOf: number;
}

/** Everything a site report is built from. */
export interface SiteVisit {
  title?: string;
  technician: string;
  profileId: string;
  /** The profile's name, shown instead of its id when known. */
  profileName?: string;
  site?: string;
  gateways: VisitGateway[];
  /** The customer the site belongs to. */
  customer?: string;
  /** The technician's name as signed (default: the signed-in user). */
  technicianName?: string;
  /** The customer's representative who acknowledges the visit. */
  customerRepresentative?: string;
  photos?: VisitPhoto[];
  startedAt: number;
  endedAt: number;
  /** The audit entries of the visit (AuditLog.read with `since`). */
  entries: AuditEntry[];
  rf?: RfMeasurement[];
  pings?: PingMeasurement[];
  terminalLogs?: TerminalLogLink[];
  /** The health panels of "Collect diagnostics" on serial consoles. */
  serialTriage?: TriageResult[];
  /** The visit's gateways as the site pack knew them (field mode: no server to ask). */
  fromPack?: PackedGatewayFacts[];
  notes?: string;
  /** The visit journal this report was made from: its entries and the hash of the last (printed on the last page). */
  journal?: { entries: number; head: string };
  /**
   * The visit journal's lines. When given, the serial triages and terminal sessions are the ones it recorded, each
   * under the gateway its entry named (`serialTriage` and `terminalLogs` are then not read).
   */
  journalLines?: readonly ReportJournalLine[];
}

/** How the report is written. */
export interface SiteReportOptions {
  /** Time zone for times shown, said once on page one (default: this machine's). */
  timeZone?: string;
  /** Secret values known to the caller (passwords typed this session): masked wherever they appear. */
  knownSecrets?: string[];
  /** When the report is generated (default now). */
  generatedAt?: number;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to put inside HTML elements and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** The settings of a value by their label path ('' for a value that is one setting). */
function leafMap(value: unknown): Map<string, ReadableField> {
  return new Map(
    value === undefined ? [] : flattenReadable(value).map((field) => [field.label, field] as const),
  );
}

/** One setting's value: code, or a wrapped block of pretty JSON for what the report does not spell out. */
function readableText(field: ReadableField, clean: (text: string) => string): string {
  return field.isJson ? `<pre><code>${clean(field.text)}</code></pre>` : `<code>${clean(field.text)}</code>`;
}

function fileUrl(path: string): string {
  const absolute = path.startsWith('/') ? path : `/${path.replace(/\\/g, '/')}`;
  return `file://${absolute.split('/').map(encodeURIComponent).join('/')}`;
}

const STYLE = `
@page{size:A4 portrait}
*{box-sizing:border-box}
body{font:10.5pt/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;margin:2rem auto;max-width:52rem;padding:0 1rem}
h1{font-size:17pt;margin:0 0 .3rem}h2{font-size:13pt;margin:1.2rem 0 .4rem;border-bottom:1px solid #99a;padding-bottom:.15rem;break-after:avoid}
h3{font-size:11pt;margin:.9rem 0 .3rem;break-after:avoid}h4{font-size:10.5pt;margin:.6rem 0 .25rem;break-after:avoid}
p{margin:.25rem 0}ul{margin:.2rem 0;padding-left:1.2rem}
table{border-collapse:collapse;width:100%;table-layout:fixed;margin:.2rem 0 .6rem}
th,td{border:1px solid #bbc;padding:.2rem .35rem;text-align:left;vertical-align:top;font-size:9.5pt;overflow-wrap:anywhere;word-break:break-word}
th{background:#eef1f5}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:8.5pt;overflow-wrap:anywhere;word-break:break-word;white-space:pre-wrap}
.ok,.verified,.unchanged,.inspected,.done{color:#176c2e;font-weight:600}
.failed,.rollback-failed{color:#b3261e;font-weight:600}
.cancelled,.unknown,.rolled-back{color:#8a4b00;font-weight:600}
.meta{color:#4a4f57}.mac{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:9pt}
.facts th{width:24%}.change,.keep{break-inside:avoid}.change{margin:.3rem 0 .6rem}
.change-title{font-weight:600}
.fields{list-style:none;padding-left:.4rem;margin:.15rem 0}pre{margin:.15rem 0}
figure{margin:.4rem 0 .8rem;break-inside:avoid}figure img{max-width:100%;max-height:110mm;display:block;border:1px solid #bbc}
figcaption{font-size:9.5pt;color:#4a4f57}
.acknowledgement{break-inside:avoid}.journal-head{font-size:.75rem;overflow-wrap:anywhere}.signature td{height:3.2rem}
.notes{white-space:pre-wrap;border:1px solid #bbc;padding:.35rem;min-height:2.5rem}
@media print{body{margin:0;max-width:none;padding:0}.page-one{break-after:page}tr{break-inside:avoid}}`;

/** Column widths (percent) of a table, so a long value wraps inside its cell instead of widening the table. */
function columns(...widths: number[]): string {
  return `<colgroup>${widths.map((width) => `<col style="width:${width}%">`).join('')}</colgroup>`;
}

/**
 * Builds a self-contained HTML site report (inline style, no scripts, nothing fetched: photos are embedded) laid
 * out as a visit record a customer can sign. Page one: the site, customer, technician, arrival and departure,
 * and one line per gateway visited (name and MAC) with how each change ended. Then a section per gateway: each
 * setting before → after with its outcome on the same row, the measurements, the commands run (repeated reads
 * folded into one line) and the terminal sessions; then photos, notes and the acknowledgement block. Tables have
 * fixed column widths and wrap long values, so nothing is cut off on an A4 portrait page. Every value is
 * redacted again (by key, by pattern and by the known secrets) and HTML-escaped, so no secret and no markup from
 * the data can reach the page.
 */
export function buildSiteReportHtml(visit: SiteVisit, options: SiteReportOptions = {}): string {
  const known = options.knownSecrets ?? [];
  const clean = (text: string) => escapeHtml(redactText(text, known));
  // One formatter for every time of the report ("25 Nov 2026 15:48", "15:48" on the visit's day); the zone is
  // said once, on page one.
  const time = (at: number) => clean(formatReportDateTime(at, options.timeZone));
  const clock = (at: number) => clean(formatVisitTime(at, visit.startedAt, options.timeZone));
  /** A value as labelled settings, one per line (pretty JSON only for what is nested too deep). */
  const readable = (raw: unknown) => {
    const fields = flattenReadable(redactSecrets(raw));
    if (fields.length === 1 && fields[0]!.label === '') return `<br>${readableText(fields[0]!, clean)}`;
    return `<ul class="fields">${fields.map((field) => `<li>${clean(field.label)}: ${readableText(field, clean)}</li>`).join('')}</ul>`;
  };

  const byId = new Map(visit.gateways.map((gateway) => [gateway.id, gateway]));
  const packedById = new Map((visit.fromPack ?? []).map((facts) => [facts.id, facts]));
  // With no server to ask (field mode), the site pack names the gateways.
  for (const facts of packedById.values())
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
  const keyOf = (gateway: { gatewayId?: string; typed?: string; name?: string; mac?: string } | undefined) =>
    gateway?.gatewayId ?? named(gateway?.typed ?? gateway?.name ?? gateway?.mac);
  const logs: TerminalLogLink[] = work
    ? work.sessions.map((session) => ({
        label: session.title,
        path: session.logFile,
        ...(keyOf(session.gateway) ? { gatewayId: keyOf(session.gateway)! } : {}),
      }))
    : (visit.terminalLogs ?? []).map((log) => ({ ...log, gatewayId: named(log.gatewayId) }));
  const triages = work
    ? work.triages.map(({ triage, gateway }) => ({ ...triage, gatewayId: keyOf(gateway) }))
    : (visit.serialTriage ?? []).map((triage) => ({
        ...triage,
        gatewayId: named(triage.gatewayId),
      }));
  const knownIds = new Set([
    ...byId.keys(),
    ...visit.entries.flatMap((entry) => (entry.gatewayId ? [entry.gatewayId] : [])),
  ]);
  /** Gateways only named in a terminal (the text matched no gateway of the visit): a section under that name. */
  const typedNames = new Set(
    [...logs, ...triages].flatMap((item) =>
      item.gatewayId && !knownIds.has(item.gatewayId) ? [item.gatewayId] : [],
    ),
  );
  const gatewayIds = [
    ...new Set([
      ...visit.gateways.map((gateway) => gateway.id),
      ...visit.entries.flatMap((entry) => (entry.gatewayId ? [entry.gatewayId] : [])),
      ...triages.flatMap((triage) => (triage.gatewayId ? [triage.gatewayId] : [])),
      // A gateway a journal entry named by identity was worked on, if only in a terminal session.
      ...(work
        ? logs.flatMap((log) => (log.gatewayId && byId.has(log.gatewayId) ? [log.gatewayId] : []))
        : []),
      ...typedNames,
    ]),
  ];
  /** A gateway in words: its name and MAC; its id only with the words that its name is not known. */
  const gatewayName = (id: string | undefined) => {
    if (!id) return '—';
    if (typedNames.has(id)) return clean(id);
    const gateway = byId.get(id);
    return gateway?.name ? clean(gateway.name) : `Gateway (name not known, id ${clean(id)})`;
  };
  const gatewayMac = (id: string) => {
    const mac = byId.get(id)?.mac;
    return mac ? clean(formatMac(mac)) : '';
  };
  const outcomeSpan = (outcome: VisitOutcome) =>
    `<span class="${outcome}">${clean(OUTCOME_WORDS[outcome])}</span>`;
  const auditOutcome = (text: string) =>
    `<span class="${text === 'ok' || text === 'cancelled' || text === 'unknown' ? text : 'failed'}">${clean(text)}</span>`;

  const summaries = summarizeGateways(gatewayIds, visit.entries);
  const sections: string[] = [];

  const facts: Array<[string, string]> = [
    ['Site', visit.site ? clean(visit.site) : '—'],
    ['Customer', visit.customer ? clean(visit.customer) : '—'],
    ['Technician', clean(visit.technicianName ?? visit.technician)],
    ['Arrival', time(visit.startedAt)],
    ['Departure', time(visit.endedAt)],
    ['Times', `${clean(describeTimeZone(visit.startedAt, options.timeZone))} (24-hour clock)`],
  ];
  const summaryRows = summaries
    .map((summary) => {
      const mac = gatewayMac(summary.gatewayId);
      // Worst first: a fault the last health check still saw, then each change by how badly it ended.
      const findings = [
        ...healthFindings(triages.filter((triage) => triage.gatewayId === summary.gatewayId)).map(
          (finding) => ({
            severity: finding.severity,
            html: `<p><span class="${finding.style}">${clean(finding.words)}</span>${finding.detail ? ` — ${clean(finding.detail)}` : ''}</p>`,
          }),
        ),
        ...summary.changes.map((change) => ({
          severity: CHANGE_SEVERITY[change.outcome],
          html: `<p>${clean(change.what)}: ${outcomeSpan(change.outcome)}${change.reason ? ` — ${clean(change.reason)}` : ''}</p>`,
        })),
      ].sort((left, right) => right.severity - left.severity);
      const lines =
        findings.length === 0
          ? `<p>${outcomeSpan('inspected')}</p>`
          : findings.map((finding) => finding.html).join('');
      return `<tr><td><strong>${gatewayName(summary.gatewayId)}</strong>${mac ? `<br><span class="mac">${mac}</span>` : ''}</td><td>${lines}</td></tr>`;
    })
    .join('');
  sections.push(`<section class="page-one">
<h1>${clean(visit.title ?? 'Site visit report')}</h1>
<table class="facts">${facts.map(([label, text]) => `<tr><th>${label}</th><td>${text}</td></tr>`).join('')}</table>
<h2>Gateways visited</h2>
${
  summaries.length === 0
    ? '<p>No gateway was worked on.</p>'
    : `<table class="summary">${columns(34, 66)}<tr><th>Gateway</th><th>Outcome</th></tr>${summaryRows}</table>`
}
<p class="meta">Report generated ${time(options.generatedAt ?? Date.now())} · profile ${clean(visit.profileName ?? visit.profileId)} · technician ${clean(visit.technician)}. Passwords and keys are never shown.</p>
</section>`);

  const logsHtml = (items: TerminalLogLink[]) =>
    `<ul>${items.map((log) => `<li><a href="${escapeHtml(fileUrl(log.path))}">${clean(log.label)}</a><br><code>${clean(log.path)}</code></li>`).join('')}</ul>`;

  for (const summary of summaries) {
    const id = summary.gatewayId;
    const name = gatewayName(id);
    const mac = gatewayMac(id);
    const own = visit.entries.filter((entry) => entry.gatewayId === id);
    const parts: string[] = [];
    const changes = summary.changes.map((change) =>
      formatChange(change, name, { clean, clock, outcomeSpan, readable }),
    );
    const identity = typedNames.has(id)
      ? 'Named in a terminal session; not matched to a gateway of the server or the site pack.'
      : `Gateway id <code>${clean(id)}</code>`;
    // The heading is kept with the first change so a page never ends on a gateway's name alone.
    parts.push(
      `<div class="keep"><h2>${name}${mac ? ` · <span class="mac">${mac}</span>` : ''}</h2><p class="meta">${identity}</p>
<h3>Changes</h3>${changes[0] ?? '<p>No setting was changed: only inspected.</p>'}</div>${changes.slice(1).join('')}`,
    );

    const facts = packedById.get(id);
    if (facts)
      parts.push(
        `<h3>From the site pack, as of ${time(facts.asOf)}</h3><p>Read from the server before the visit, not live: model ${clean(facts.model ?? '—')}, BSP ${clean(facts.bspVersion ?? '—')}, status ${clean(facts.status)}, last seen ${facts.lastSeenTime ? time(facts.lastSeenTime) : '—'}, raised alarms: ${facts.raisedAlarms === undefined ? 'not in the pack' : clean(facts.raisedAlarms.join(', ') || 'none')}.</p>`,
      );

    const reads = own.filter(isSettingsRead);
    if (reads.length > 0)
      parts.push(
        `<p><strong>Settings read:</strong> ${reads
          .map(
            (entry) =>
              `${clean(describeSettingsRead(entry))} at ${clock(entry.at)}${entry.outcome === 'ok' ? '' : ` (${auditOutcome(entry.outcome)})`}`,
          )
          .join('; ')}</p>`,
      );

    const measurements: string[] = [];
    for (const series of (visit.rf ?? []).filter((item) => item.gatewayId === id))
      measurements.push(formatRf(series, { clock, time }));
    const pings = (visit.pings ?? []).filter((ping) => ping.gatewayId === id);
    if (pings.length > 0)
      measurements.push(
        `<table>${columns(18, 42, 20, 20)}<tr><th>Time</th><th>Ping to</th><th>Sent</th><th>Came back</th></tr>${pings
          .map(
            (ping) =>
              `<tr><td>${clock(ping.at)}</td><td>${clean(ping.destination)}</td><td>${ping.packetsSent}</td><td class="${ping.packetsReceived > 0 ? 'ok' : 'failed'}">${ping.packetsReceived}</td></tr>`,
          )
          .join('')}</table>`,
      );
    for (const triage of triages.filter((item) => item.gatewayId === id))
      measurements.push(formatTriage(triage, { clean, time, gateway: gatewayName }));
    parts.push(
      `<h3>Measurements</h3>${measurements.length > 0 ? measurements.join('') : '<p>No measurements were taken.</p>'}`,
    );

    parts.push(formatCommands(own, { clean, clock, readable, auditOutcome }));

    const gatewayLogs = logs.filter((log) => log.gatewayId === id);
    if (gatewayLogs.length > 0) parts.push(`<h3>Terminal sessions</h3>${logsHtml(gatewayLogs)}`);
    sections.push(`<section class="gateway">${parts.join('\n')}</section>`);
  }

  const general = visit.entries.filter((entry) => !entry.gatewayId);
  const otherTriages = triages.filter((triage) => !triage.gatewayId);
  const otherLogs = logs.filter((log) => !log.gatewayId || !gatewayIds.includes(log.gatewayId));
  const otherPings = (visit.pings ?? []).filter(
    (ping) => !ping.gatewayId || !gatewayIds.includes(ping.gatewayId),
  );
  if (general.length > 0 || otherTriages.length > 0 || otherLogs.length > 0 || otherPings.length > 0) {
    const parts = ['<h2>Not tied to a gateway</h2>'];
    if (general.length > 0) parts.push(formatCommands(general, { clean, clock, readable, auditOutcome }));
    if (otherPings.length > 0)
      parts.push(
        `<ul>${otherPings.map((ping) => `<li>${clock(ping.at)} ping to ${clean(ping.destination)}: ${ping.packetsReceived} of ${ping.packetsSent} came back</li>`).join('')}</ul>`,
      );
    for (const triage of otherTriages)
      parts.push(formatTriage(triage, { clean, time, gateway: gatewayName }));
    if (otherLogs.length > 0) parts.push(`<h3>Terminal sessions</h3>${logsHtml(otherLogs)}`);
    sections.push(`<section>${parts.join('\n')}</section>`);
  }

  const acceptance = buildAcceptancePageHtml(visit.journalLines ?? [], { clean, time });
  if (acceptance) sections.push(acceptance);

  const photos = visit.photos ?? [];
  if (photos.length > 0)
    sections.push(
      `<section><h2>Photos</h2>${photos
        .map(
          (photo) =>
            `<figure><img src="data:${photo.mimeType};base64,${photo.base64.replace(/[^A-Za-z0-9+/=]/g, '')}" alt="${clean(photo.caption || 'Photo')}"><figcaption>${clean(photo.caption || 'Photo')}${photo.addedAt ? ` · ${time(photo.addedAt)}` : ''}</figcaption></figure>`,
        )
        .join('')}</section>`,
    );

  sections.push(`<section class="acknowledgement"><h2>Acknowledgement</h2>
<p>Notes</p><div class="notes">${visit.notes ? clean(visit.notes) : ''}</div>
<p>The work above was carried out on site and its outcome explained to the customer's representative.</p>
<table class="signature">${columns(50, 50)}<tr><th>Technician</th><th>Customer representative</th></tr>
<tr><td>Name: ${clean(visit.technicianName ?? visit.technician)}</td><td>Name: ${visit.customerRepresentative ? clean(visit.customerRepresentative) : ''}</td></tr>
<tr><td>Signature:</td><td>Signature:</td></tr>
<tr><td>Date:</td><td>Date:</td></tr></table>${
    visit.journal
      ? `<p class="journal-head">Visit journal: ${visit.journal.entries} entries; the last one's SHA-256 (head of the chain): <code>${clean(visit.journal.head)}</code>. The exported bundle holds the journal, photos and logs; <code>npm run verify-report -- &lt;bundle&gt;</code> checks them against this.</p>`
      : ''
  }</section>`);

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${clean(visit.title ?? 'Site visit report')}</title><style>${STYLE}</style></head>
<body>
${sections.join('\n')}
</body></html>
`;
}

/** How bad each way a change ended is, for putting a gateway's worst finding first on page one. */
const CHANGE_SEVERITY: Record<VisitOutcome, number> = {
  'rollback-failed': 7,
  failed: 5,
  'rolled-back': 4,
  unknown: 3,
  verified: 2,
  done: 2,
  cancelled: 1,
  unchanged: 0,
  inspected: 0,
};

/**
 * What a gateway's serial triages found, in words for page one: "fault found" naming each fault the last check
 * saw; "fixed" for faults an earlier check saw and the last, complete, no longer does; "unknown" for a last check
 * that stopped early without a fault; "inspected, healthy" when the last complete check found none.
 */
function healthFindings(
  triages: readonly TriageResult[],
): Array<{ severity: number; style: string; words: string; detail?: string }> {
  const ordered = [...triages].sort((left, right) => left.finishedAt - right.finishedAt);
  const last = ordered.at(-1);
  if (!last) return [];
  const faultsOf = (triage: TriageResult) =>
    triage.health.findings.filter((finding) => finding.status === 'fault').map((finding) => finding.text);
  const faults = faultsOf(last);
  if (faults.length > 0)
    return [{ severity: 6, style: 'failed', words: 'fault found', detail: faults.join('; ') }];
  if (last.outcome === 'stopped')
    return [
      {
        severity: 3,
        style: 'unknown',
        words: 'unknown',
        detail: `the health check stopped early${last.problem ? `: ${last.problem}` : ''}`,
      },
    ];
  const earlier = [...new Set(ordered.slice(0, -1).flatMap(faultsOf))];
  if (earlier.length > 0) return [{ severity: 2, style: 'ok', words: 'fixed', detail: earlier.join('; ') }];
  return [{ severity: 0, style: 'ok', words: 'inspected, healthy' }];
}

/** One change: a title line naming the gateway and the outcome, why, then each setting before → after with it. */
function formatChange(
  change: ChangeSummary,
  gatewayName: string,
  format: {
    clean(text: string): string;
    clock(at: number): string;
    outcomeSpan(outcome: VisitOutcome): string;
    readable(raw: unknown): string;
  },
): string {
  const { clean, clock, outcomeSpan, readable } = format;
  const field = (leaf: ReadableField | undefined) => readableText(leaf ?? { label: '', text: '—' }, clean);
  const { entry } = change;
  const response = responseOf(entry);
  const before = redactSecrets(entry.before);
  const after = redactSecrets(entry.after);
  const isObject = (item: unknown): item is Record<string, unknown> =>
    typeof item === 'object' && item !== null;
  const keys =
    isObject(before) || isObject(after)
      ? [
          ...new Set([
            ...Object.keys(isObject(before) ? before : {}),
            ...Object.keys(isObject(after) ? after : {}),
          ]),
        ]
      : before === undefined && after === undefined
        ? []
        : [''];
  const pick = (side: unknown, key: string) => (key === '' ? side : isObject(side) ? side[key] : undefined);
  // Each setting leaf by leaf ("DoS prevention › Burst limit"), so a nested value reads as fields, not JSON.
  // A fleet change of one value (ping target, APN) names its setting by the change: "Ping target", not "—".
  const wholeName = entry.kind === 'fleet' ? fleetSettingLabel(entry.name) : '';
  // A software change's keys are package names, shown as the gateway spells them.
  const isSoftware = SOFTWARE_CHANGES.has(entry.name);
  const settings = keys.flatMap((key) => {
    const name = key === '' ? wholeName : (response.labels?.[key] ?? (isSoftware ? key : labelOfField(key)));
    const beforeFields = leafMap(pick(before, key));
    const afterFields = leafMap(pick(after, key));
    return [...new Set([...beforeFields.keys(), ...afterFields.keys()])].map((leaf) => ({
      label: [name, leaf].filter((part) => part !== '').join(' › ') || '—',
      before: beforeFields.get(leaf),
      after: afterFields.get(leaf),
    }));
  });
  const changed = settings.filter((setting) => setting.before?.text !== setting.after?.text);
  // Only what changed; when nothing did (no change needed), every setting as it stands.
  const rows = (changed.length > 0 ? changed : settings)
    .map(
      (setting) =>
        `<tr><td>${clean(setting.label)}</td><td>${field(setting.before)} → ${field(setting.after)}</td><td>${outcomeSpan(change.outcome)}</td></tr>`,
    )
    .join('');
  const checks = (response.checks ?? [])
    .map((check) => `<li>${check.ok ? '✔' : '✘'} ${clean(check.name)}: ${clean(check.detail)}</li>`)
    .join('');
  const backup = (entry.response as { backup?: { description?: unknown } } | undefined)?.backup?.description;
  const sent = entry.kind === 'fleet' ? describeFleetSent(entry.name, entry.request) : undefined;
  return `<div class="change"><p class="change-title">${clock(change.at)} ${clean(change.what)} on ${gatewayName}: ${outcomeSpan(change.outcome)}</p>
${sent === undefined ? '' : `<p>Sent: ${typeof sent === 'string' ? clean(sent) : readable(sent)}</p>`}
${change.reason ? `<p>Why: ${clean(change.reason)}</p>` : ''}
${change.followed ? `<p class="meta">${clean(describeFollowed(change.followed, clock))}</p>` : ''}
${rows ? `<table>${columns(25, 51, 24)}<tr><th>${isSoftware ? 'Package' : 'Setting'}</th><th>Before → after</th><th>Outcome</th></tr>${rows}</table>` : ''}
${checks ? `<ul>${checks}</ul>` : ''}
${typeof backup === 'string' ? `<p class="meta">Safety backup before the change: <code>${clean(backup)}</code></p>` : ''}</div>`;
}

/** Changes whose before → after are package versions by package name. */
const SOFTWARE_CHANGES = new Set([
  'softwareUpgrade',
  'upgradeSoftware',
  'installSoftware',
  'upgrade',
  'install',
]);

/** The setting a fleet change of one value sets, for its row (a firewall patch's settings are labelled). */
function fleetSettingLabel(kind: string): string {
  return { pingTarget: 'Ping target', apn: 'APN', softwareUpgrade: 'Packages' }[kind] ?? labelOfField(kind);
}

/**
 * What a fleet change sent: its words ("Ping target: 8.8.8.8"), or a firewall patch's settings; undefined when
 * the request is not a fleet change's.
 */
function describeFleetSent(kind: string, request: unknown): string | Record<string, unknown> | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const change = request as { ipAddr?: unknown; name?: unknown; packageName?: unknown; patch?: unknown };
  switch (kind) {
    case 'pingTarget':
      return typeof change.ipAddr === 'string' ? `Ping target: ${change.ipAddr}` : undefined;
    case 'apn':
      return typeof change.name === 'string' ? `APN: ${change.name}` : undefined;
    case 'softwareUpgrade':
      return `Package to upgrade: ${typeof change.packageName === 'string' && change.packageName !== UPGRADE_ALL_PACKAGES ? change.packageName : 'every package'}`;
    case 'firewall':
      return typeof change.patch === 'object' && change.patch !== null
        ? (change.patch as Record<string, unknown>)
        : undefined;
    default:
      return undefined;
  }
}

/** "Commands run": one line per command, repeated reads folded into one ("read 48 times, 10:02–10:04"). */
function formatCommands(
  entries: AuditEntry[],
  format: {
    clean(text: string): string;
    clock(at: number): string;
    readable(raw: unknown): string;
    auditOutcome(text: string): string;
  },
): string {
  const { clean, clock, readable, auditOutcome } = format;
  const lines = foldCommands(entries);
  if (lines.length === 0) return '<h3>Commands run</h3><p>No commands were run.</p>';
  const rows = lines
    .map((line) => {
      const title = titleOfCommand(line.name);
      const what = `${title ? `${clean(title)} <code>${clean(line.name)}</code>` : clean(line.name)}${line.request === undefined ? '' : readable(line.request)}`;
      const first = clock(line.firstAt);
      const last = clock(line.lastAt);
      const when =
        line.count === 1
          ? first
          : `${line.risk === 'read' ? 'read' : 'run'} ${line.count} times, ${first === last ? `at ${first}` : `${first}–${last}`}`;
      return `<tr><td>${when}</td><td>${what}</td><td>${auditOutcome(line.outcome)}${line.error ? `<br>${clean(line.error)}` : ''}</td></tr>`;
    })
    .join('');
  return `<h3>Commands run</h3><table>${columns(28, 50, 22)}<tr><th>When</th><th>Command</th><th>Outcome</th></tr>${rows}</table>`;
}

/** An RF series: how many readings when, and the best value of each figure with the time it was seen. */
function formatRf(
  series: RfMeasurement,
  format: { clock(at: number): string; time(at: number): string },
): string {
  const { clock } = format;
  const first = series.samples[0];
  const last = series.samples.at(-1);
  const cell = (metric: keyof RfBest, unit: string) => {
    const best = series.best[metric];
    return `<td>${best ? `${best.value} ${unit} at ${clock(best.at)}` : '—'}</td><td>${last ? `${last[metric]} ${unit}` : '—'}</td>`;
  };
  return `<p>RF meter: ${series.samples.length} reading(s)${first && last ? ` from ${clock(first.at)} to ${clock(last.at)}` : ''}.</p>
<table>${columns(28, 44, 28)}<tr><th>Figure</th><th>Best (when)</th><th>Last</th></tr>
<tr><td>Signal strength</td>${cell('signalStrength', 'dBm')}</tr><tr><td>SINR</td>${cell('sinr', 'dB')}</tr>
<tr><td>RSRQ</td>${cell('rsrq', 'dB')}</tr><tr><td>Ec/Io</td>${cell('ecio', 'dB')}</tr></table>`;
}

/** One gateway's health panel: findings first, then what each part showed and the commands run. */
function formatTriage(
  triage: TriageResult,
  format: { clean(text: string): string; time(at: number): string; gateway(id: string | undefined): string },
): string {
  const { clean, time } = format;
  const status = (value: string) =>
    `<span class="${value === 'ok' ? 'ok' : value === 'fault' ? 'failed' : 'unknown'}">${clean(value)}</span>`;
  const { health } = triage;
  const routesAndDns = describeRoutesAndDns(triage);
  const rows = [
    ['Network', health.network],
    ['WAN', health.wan],
    ['Modem', health.modem],
    ['Packet forwarder', health.packetForwarder],
  ] as const;
  const interfaces = health.interfaces
    .filter((item) => item.name !== 'lo')
    .map(
      (item) =>
        `<tr><td>${clean(item.name)}</td><td>${item.isUp ? 'up' : 'down'}</td><td>${item.hasCarrier === null ? '—' : item.hasCarrier ? 'yes' : 'no'}</td><td>${clean([...item.ipv4, ...item.ipv6].join(', ') || 'none')}</td></tr>`,
    )
    .join('');
  return `<h4>Serial triage: ${triage.gatewayId ? format.gateway(triage.gatewayId) : clean(triage.title)} · ${time(triage.finishedAt)}</h4>
${triage.outcome === 'stopped' ? `<p class="failed">Stopped early: ${clean(triage.problem ?? 'unknown reason')}</p>` : ''}
<ul>${health.findings.map((finding) => `<li>${status(finding.status)} ${clean(finding.text)}</li>`).join('')}</ul>
<table><tr><th>Part</th><th>Status</th><th>Seen</th></tr>${rows.map(([label, check]) => `<tr><td>${label}</td><td>${status(check.status)}</td><td>${clean(check.detail)}</td></tr>`).join('')}
<tr><td>Default route</td><td></td><td>${clean(routesAndDns.routes)}</td></tr>
<tr><td>DNS</td><td></td><td>${clean(routesAndDns.dns)}</td></tr>
<tr><td>Uptime</td><td></td><td>${clean(health.uptime ?? 'unknown')}</td></tr>
<tr><td>Versions</td><td></td><td>${clean(health.versions.map((version) => `${version.name} ${version.version}`).join(', ') || 'unknown')}</td></tr></table>
${interfaces ? `<table><tr><th>Interface</th><th>State</th><th>Carrier</th><th>Addresses</th></tr>${interfaces}</table>` : ''}
${health.logErrors.length > 0 ? `<p>Last errors in the log:</p><pre><code>${clean(health.logErrors.join('\n'))}</code></pre>` : ''}
<p class="meta">Commands: ${triage.commands.map((command) => `<code>${clean(command.command)}</code> ${command.outcome === 'timed-out' ? `timed out after ${Math.round(command.timeoutMs / 1000)} s` : command.outcome === 'prompted' ? 'asked for input, stopped' : command.outcome === 'ok' ? 'ok' : `exit ${command.exitCode}`}`).join(' · ')}</p>${triage.consoleLeft ? `\n<p class="meta">${clean(triage.consoleLeft)}</p>` : ''}`;
}

/**
 * What a visit is collected from: the audit log's entries of a time span, plus what the app measured (the
 * SiteVisit's other fields, as they will appear in it).
 */
export interface VisitSource extends Omit<SiteVisit, 'entries' | 'gateways'> {
  audit: {
    read(query: { profileId: string; user?: string; since?: number; until?: number }): Promise<AuditEntry[]>;
  };
  /**
   * Whose work the visit shows: only this user's audit entries (the app passes the signed-in user, in field mode
   * the last one signed in on the profile). null: nobody is known, so no entry is shown; left out: everyone's.
   */
  user?: string | null;
  /** Only these gateways (default: every gateway the entries name). Names shown where given. */
  gateways?: VisitGateway[];
}

/** Reads the visit's audit entries (from `startedAt` to `endedAt`) and assembles the SiteVisit a report needs. */
export async function collectVisit(source: VisitSource): Promise<SiteVisit> {
  const entries =
    source.user === null
      ? []
      : await source.audit.read({
          profileId: source.profileId,
          ...(source.user !== undefined ? { user: source.user } : {}),
          since: source.startedAt,
          until: source.endedAt,
        });
  const wanted = source.gateways ? new Set(source.gateways.map((gateway) => gateway.id)) : undefined;
  const kept = wanted
    ? entries.filter((entry) => entry.gatewayId === undefined || wanted.has(entry.gatewayId))
    : entries;
  const gateways =
    source.gateways ??
    [...new Set(kept.flatMap((entry) => (entry.gatewayId ? [entry.gatewayId] : [])))].map((id) => ({ id }));
  return {
    title: source.title,
    site: source.site,
    ...(source.customer ? { customer: source.customer } : {}),
    ...(source.technicianName ? { technicianName: source.technicianName } : {}),
    ...(source.customerRepresentative ? { customerRepresentative: source.customerRepresentative } : {}),
    ...(source.photos && source.photos.length > 0 ? { photos: source.photos } : {}),
    technician: source.technician,
    profileId: source.profileId,
    ...(source.profileName ? { profileName: source.profileName } : {}),
    gateways,
    startedAt: source.startedAt,
    endedAt: source.endedAt,
    entries: kept,
    rf: source.rf,
    pings: source.pings,
    terminalLogs: source.terminalLogs,
    ...(source.serialTriage && source.serialTriage.length > 0 ? { serialTriage: source.serialTriage } : {}),
    fromPack: source.fromPack,
    notes: source.notes,
  };
}
