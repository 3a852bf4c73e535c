import type { AuditEntry } from '../audit';
import { redactSecrets, redactText } from '../audit';
import type { RfBest, RfSample } from '../commissioning/rf-meter';
import type { TriageResult } from '../../shared/terminal/triage-schemas';

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
  site?: string;
  gateways: Array<{ id: string; name?: string }>;
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
}

/** How the report is written. */
export interface SiteReportOptions {
  /** Time zone for times shown (default: this machine's). */
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

function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function fileUrl(path: string): string {
  const absolute = path.startsWith('/') ? path : `/${path.replace(/\\/g, '/')}`;
  return `file://${absolute.split('/').map(encodeURIComponent).join('/')}`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;margin:2rem;max-width:60rem}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:1.75rem 0 .5rem;border-bottom:1px solid #ccd;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;margin:.25rem 0 1rem}th,td{border:1px solid #ccd;padding:.25rem .45rem;text-align:left;vertical-align:top;font-size:12.5px}
th{background:#eef1f5}.ok{color:#176c2e;font-weight:600}.failed{color:#b3261e;font-weight:600}.cancelled,.unknown{color:#8a6100;font-weight:600}
.meta{color:#555}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:break-word}
@media print{body{margin:0}h2{break-after:avoid}tr{break-inside:avoid}}`;

/**
 * Builds a self-contained HTML site report (inline style, no scripts, no external resources): what was read,
 * what changed with before and after, what was verified, the measurements (RF, ping), the commands run and
 * links to terminal logs. Every value is redacted again (by key, by pattern and by the known secrets) and
 * HTML-escaped, so no secret and no markup from the data can reach the page.
 */
export function buildSiteReportHtml(visit: SiteVisit, options: SiteReportOptions = {}): string {
  const known = options.knownSecrets ?? [];
  const clean = (text: string) => escapeHtml(redactText(text, known));
  const time = (at: number) =>
    clean(
      new Date(at).toLocaleString('en-GB', {
        timeZone: options.timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'short',
      }),
    );
  const value = (raw: unknown) => `<code>${clean(formatValue(redactSecrets(raw)))}</code>`;
  const gatewayName = new Map(visit.gateways.map((gateway) => [gateway.id, gateway.name ?? gateway.id]));
  const gateway = (id: string | undefined) => clean(id ? (gatewayName.get(id) ?? id) : '—');
  const outcome = (text: string) =>
    `<span class="${clean(text === 'ok' || text === 'cancelled' || text === 'unknown' ? text : 'failed')}">${clean(text)}</span>`;

  const wizardEntries = visit.entries.filter((entry) => entry.kind === 'wizard' || entry.kind === 'fleet');
  const reads = wizardEntries.filter((entry) => entry.name.endsWith(':read'));
  const changes = wizardEntries.filter(
    (entry) => !entry.name.endsWith(':read') && (entry.before !== undefined || entry.after !== undefined),
  );
  const commands = visit.entries.filter((entry) => entry.kind === 'command' || entry.kind === 'terminal');
  // Step entries (`firewall:verifying`) are the wizard's trail; the result entry already says how it ended.
  const tasks = wizardEntries.filter(
    (entry) => !entry.name.includes(':') && entry.before === undefined && entry.after === undefined,
  );

  const sections: string[] = [];
  sections.push(`<h1>${clean(visit.title ?? 'Site report')}</h1>
<p class="meta">${clean(visit.site ? `${visit.site} · ` : '')}Technician ${clean(visit.technician)} · profile ${clean(visit.profileId)}<br>
Visit ${time(visit.startedAt)} – ${time(visit.endedAt)} · report generated ${time(options.generatedAt ?? Date.now())}</p>
<p>Gateways: ${visit.gateways.map((item) => `${clean(item.name ?? item.id)} (<code>${clean(item.id)}</code>)`).join(', ') || '—'}</p>`);

  const packed = visit.fromPack ?? [];
  if (packed.length > 0)
    sections.push(
      `<h2>From the site pack</h2><p>Read from the server before the visit, not live: each row is as of the time shown.</p><table><tr><th>Gateway</th><th>MAC</th><th>Model</th><th>BSP</th><th>Status</th><th>Last seen</th><th>Raised alarms</th><th>As of</th></tr>${packed
        .map(
          (facts) =>
            `<tr><td>${clean(facts.name)} (<code>${clean(facts.id)}</code>)</td><td><code>${clean(facts.mac)}</code></td><td>${clean(facts.model ?? '—')}</td><td>${clean(facts.bspVersion ?? '—')}</td><td>${clean(facts.status)}</td><td>${facts.lastSeenTime ? time(facts.lastSeenTime) : '—'}</td><td>${facts.raisedAlarms === undefined ? 'not in the pack' : clean(facts.raisedAlarms.join(', ') || 'none')}</td><td>as of ${time(facts.asOf)}</td></tr>`,
        )
        .join('')}</table>`,
    );

  sections.push(
    `<h2>What was read</h2>${
      reads.length === 0
        ? '<p>No settings were read through a wizard.</p>'
        : `<table><tr><th>Time</th><th>Gateway</th><th>Settings</th><th>Outcome</th></tr>${reads
            .map(
              (entry) =>
                `<tr><td>${time(entry.at)}</td><td>${gateway(entry.gatewayId)}</td><td>${clean(entry.name.replace(/:read$/, ''))}</td><td>${outcome(entry.outcome)}</td></tr>`,
            )
            .join('')}</table>`
    }`,
  );

  const changeRows = changes.flatMap((entry) => {
    const before = (redactSecrets(entry.before) ?? {}) as Record<string, unknown>;
    const after = (redactSecrets(entry.after) ?? {}) as Record<string, unknown>;
    const isObject =
      typeof before === 'object' && typeof after === 'object' && before !== null && after !== null;
    const keys = isObject ? [...new Set([...Object.keys(before), ...Object.keys(after)])] : [''];
    const response = entry.response as
      { outcome?: string; checks?: Array<{ name: string; ok: boolean; detail: string }> } | undefined;
    const checks = (response?.checks ?? [])
      .map((check) => `${check.ok ? '✔' : '✘'} ${check.name}: ${check.detail}`)
      .join('\n');
    const result = response?.outcome ?? entry.outcome;
    return keys.map(
      (key, index) =>
        `<tr>${index === 0 ? `<td rowspan="${keys.length}">${time(entry.at)}</td><td rowspan="${keys.length}">${gateway(entry.gatewayId)}</td><td rowspan="${keys.length}">${clean(entry.kind === 'fleet' ? `fleet: ${entry.name}` : entry.name)}</td>` : ''}` +
        `<td>${clean(key || '—')}</td><td>${value(isObject ? before[key] : entry.before)}</td><td>${value(isObject ? after[key] : entry.after)}</td>` +
        (index === 0
          ? `<td rowspan="${keys.length}">${outcome(result === 'applied' || result === 'unchanged' ? 'ok' : result)}${entry.error ? `<br>${clean(entry.error)}` : ''}${checks ? `<br><small>${clean(checks).replace(/\n/g, '<br>')}</small>` : ''}</td>`
          : '') +
        '</tr>',
    );
  });
  sections.push(
    `<h2>What was changed and verified</h2>${
      changeRows.length === 0
        ? '<p>Nothing was changed.</p>'
        : `<table><tr><th>Time</th><th>Gateway</th><th>Change</th><th>Field</th><th>Before</th><th>After</th><th>Result and checks</th></tr>${changeRows.join('')}</table>`
    }`,
  );

  if (tasks.length > 0)
    sections.push(
      `<h2>Operations</h2><table><tr><th>Time</th><th>Gateway</th><th>Operation</th><th>Outcome</th><th>Details</th></tr>${tasks
        .map(
          (entry) =>
            `<tr><td>${time(entry.at)}</td><td>${gateway(entry.gatewayId)}</td><td>${clean(entry.name)}</td><td>${outcome(entry.outcome)}</td><td>${clean(entry.error ?? formatValue((entry.response as { message?: unknown } | undefined)?.message ?? ''))}</td></tr>`,
        )
        .join('')}</table>`,
    );

  const rf = visit.rf ?? [];
  const pings = visit.pings ?? [];
  const rfHtml = rf
    .map((series) => {
      const last = series.samples.at(-1);
      const cell = (metric: keyof RfBest) => {
        const best = series.best[metric];
        return `<td>${best ? `${best.value} (${time(best.at)})` : '—'}</td><td>${last ? last[metric] : '—'}</td>`;
      };
      return `<p>RF meter on ${gateway(series.gatewayId)}: ${series.samples.length} reading(s)${series.samples.length > 0 ? ` from ${time(series.samples[0]!.at)} to ${time(last!.at)}` : ''}.</p>
<table><tr><th></th><th>Signal strength (dBm)</th><th>Last</th><th>SINR (dB)</th><th>Last</th><th>RSRQ (dB)</th><th>Last</th><th>Ec/Io (dB)</th><th>Last</th></tr>
<tr><th>Best</th>${cell('signalStrength')}${cell('sinr')}${cell('rsrq')}${cell('ecio')}</tr></table>`;
    })
    .join('');
  const pingHtml =
    pings.length === 0
      ? ''
      : `<table><tr><th>Time</th><th>Gateway</th><th>Destination</th><th>Sent</th><th>Received</th></tr>${pings
          .map(
            (ping) =>
              `<tr><td>${time(ping.at)}</td><td>${gateway(ping.gatewayId)}</td><td>${clean(ping.destination)}</td><td>${ping.packetsSent}</td><td class="${ping.packetsReceived > 0 ? 'ok' : 'failed'}">${ping.packetsReceived}</td></tr>`,
          )
          .join('')}</table>`;
  sections.push(
    `<h2>Measurements</h2>${rfHtml || pingHtml ? rfHtml + pingHtml : '<p>No measurements were taken.</p>'}`,
  );

  sections.push(
    `<h2>Commands run</h2>${
      commands.length === 0
        ? '<p>No commands were run.</p>'
        : `<table><tr><th>Time</th><th>Gateway</th><th>Command</th><th>Risk</th><th>Request</th><th>Outcome</th><th>ms</th></tr>${commands
            .map(
              (entry) =>
                `<tr><td>${time(entry.at)}</td><td>${gateway(entry.gatewayId)}</td><td>${clean(entry.name)}</td><td>${clean(entry.risk ?? '')}</td><td>${entry.request === undefined ? '—' : value(entry.request)}</td><td>${outcome(entry.outcome)}${entry.error ? `<br>${clean(entry.error)}` : ''}</td><td>${Math.round(entry.durationMs)}</td></tr>`,
            )
            .join('')}</table>`
    }`,
  );

  const triages = visit.serialTriage ?? [];
  if (triages.length > 0)
    sections.push(
      `<h2>Serial triage</h2>${triages.map((triage) => formatTriage(triage, { clean, time, gateway })).join('')}`,
    );

  const logs = visit.terminalLogs ?? [];
  sections.push(
    `<h2>Terminal logs</h2>${
      logs.length === 0
        ? '<p>No terminal sessions were logged.</p>'
        : `<ul>${logs.map((log) => `<li><a href="${escapeHtml(fileUrl(log.path))}">${clean(log.label)}</a> <code>${clean(log.path)}</code></li>`).join('')}</ul>`
    }`,
  );

  if (visit.notes) sections.push(`<h2>Notes</h2><p>${clean(visit.notes).replace(/\n/g, '<br>')}</p>`);

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${clean(visit.title ?? 'Site report')}</title><style>${STYLE}</style></head>
<body>
${sections.join('\n')}
</body></html>
`;
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
  return `<h3>${triage.gatewayId ? format.gateway(triage.gatewayId) : clean(triage.title)} · ${time(triage.finishedAt)}</h3>
${triage.outcome === 'stopped' ? `<p class="failed">Stopped early: ${clean(triage.problem ?? 'unknown reason')}</p>` : ''}
<ul>${health.findings.map((finding) => `<li>${status(finding.status)} ${clean(finding.text)}</li>`).join('')}</ul>
<table><tr><th>Part</th><th>Status</th><th>Seen</th></tr>${rows.map(([label, check]) => `<tr><td>${label}</td><td>${status(check.status)}</td><td>${clean(check.detail)}</td></tr>`).join('')}
<tr><td>Default route</td><td></td><td>${clean(health.defaultRoutes.map((route) => `${route.device}${route.via ? ` via ${route.via}` : ''}`).join(', ') || 'none')}</td></tr>
<tr><td>DNS</td><td></td><td>${clean(health.dns.join(', ') || 'none')}</td></tr>
<tr><td>Uptime</td><td></td><td>${clean(health.uptime ?? 'unknown')}</td></tr>
<tr><td>Versions</td><td></td><td>${clean(health.versions.map((version) => `${version.name} ${version.version}`).join(', ') || 'unknown')}</td></tr></table>
${interfaces ? `<table><tr><th>Interface</th><th>State</th><th>Carrier</th><th>Addresses</th></tr>${interfaces}</table>` : ''}
${health.logErrors.length > 0 ? `<p>Last errors in the log:</p><pre><code>${clean(health.logErrors.join('\n'))}</code></pre>` : ''}
<p class="meta">Commands: ${triage.commands.map((command) => `<code>${clean(command.command)}</code> ${command.outcome === 'timed-out' ? `timed out after ${Math.round(command.timeoutMs / 1000)} s` : command.outcome === 'prompted' ? 'asked for input, stopped' : command.outcome === 'ok' ? 'ok' : `exit ${command.exitCode}`}`).join(' · ')}</p>`;
}

/** What a visit is collected from: the audit log's entries of a time span, plus what the app measured. */
export interface VisitSource {
  audit: { read(query: { profileId: string; since?: number; until?: number }): Promise<AuditEntry[]> };
  profileId: string;
  technician: string;
  startedAt: number;
  endedAt: number;
  /** Only these gateways (default: every gateway the entries name). Names shown where given. */
  gateways?: Array<{ id: string; name?: string }>;
  title?: string;
  site?: string;
  rf?: RfMeasurement[];
  pings?: PingMeasurement[];
  terminalLogs?: TerminalLogLink[];
  serialTriage?: TriageResult[];
  fromPack?: PackedGatewayFacts[];
  notes?: string;
}

/** Reads the visit's audit entries (from `startedAt` to `endedAt`) and assembles the SiteVisit a report needs. */
export async function collectVisit(source: VisitSource): Promise<SiteVisit> {
  const entries = await source.audit.read({
    profileId: source.profileId,
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
    technician: source.technician,
    profileId: source.profileId,
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
