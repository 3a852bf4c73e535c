import {
  AcceptanceCardSchema,
  VERDICT_WORDS,
  type AcceptanceCard,
  type CardVerdict,
  type ItemVerdict,
} from '../../shared/visit/acceptance-card';
import { formatReportDateTime } from '../../shared/report/report-time';
import type { ReportJournalLine } from './journal-terminals';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** How the page writes text and times (the report's own, so both read alike); defaults: escaped, this zone. */
export interface AcceptancePageFormat {
  /** Text made safe for HTML (and redacted, in the report). */
  clean?: (text: string) => string;
  time?: (at: number) => string;
}

const CARD_WORDS: Record<CardVerdict, string> = {
  go: 'GO',
  warn: 'GO WITH WARNINGS',
  'no-go': 'NO-GO',
  'not-finished': 'NOT FINISHED',
};

const STYLE = `<style>
.acceptance .verdict{font-weight:700;padding:0 .3rem;border:1px solid currentColor;border-radius:3px}
.acceptance .v-go,.acceptance .v-not-applicable{color:#176c2e}
.acceptance .v-warn,.acceptance .v-unknown,.acceptance .v-needs-server,.acceptance .v-not-finished{color:#8a4b00}
.acceptance .v-no-go{color:#b3261e}
.acceptance .card{break-inside:avoid;margin:.4rem 0 1rem}
</style>`;

/** The acceptance cards a journal holds, oldest first (an entry that does not read as a card is left out). */
export function acceptanceCardsOf(lines: readonly ReportJournalLine[]): AcceptanceCard[] {
  return lines.flatMap(({ entry }) => {
    if (entry.kind !== 'acceptance') return [];
    const parsed = AcceptanceCardSchema.safeParse((entry as { card?: unknown }).card);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The site report's acceptance page, from the visit journal's `acceptance` entries: one card per gateway (its
 * latest check: go / warn / no-go with the reasons and the fix of each no-go), taken at the time it says; when the
 * gateway was checked before in the visit, each item shows before → after. Every text is escaped. Empty string
 * when the visit has no acceptance check.
 */
export function buildAcceptancePageHtml(
  lines: readonly ReportJournalLine[],
  format: AcceptancePageFormat = {},
): string {
  const clean = format.clean ?? escapeText;
  const time = format.time ?? ((at: number) => clean(formatReportDateTime(at)));
  const cards = acceptanceCardsOf(lines);
  if (cards.length === 0) return '';
  const byGateway = new Map<string, AcceptanceCard[]>();
  for (const card of cards) byGateway.set(card.gatewayId, [...(byGateway.get(card.gatewayId) ?? []), card]);
  const verdictSpan = (verdict: ItemVerdict | CardVerdict, words: string) =>
    `<span class="verdict v-${verdict}">${clean(words)}</span>`;
  const sections = [...byGateway.values()].map((history) => {
    const latest = history.at(-1)!;
    // "Before" is the first check of the visit that finished: what the technician found, against what is left.
    const first = history.find((card) => card !== latest && card.verdict !== 'not-finished');
    const name = latest.gatewayName ?? `Gateway ${latest.gatewayId}`;
    const rows = latest.items
      .map((item) => {
        const before = first?.items.find((candidate) => candidate.id === item.id);
        const verdict =
          before && before.verdict !== item.verdict
            ? `${verdictSpan(before.verdict, VERDICT_WORDS[before.verdict])} → ${verdictSpan(item.verdict, VERDICT_WORDS[item.verdict])}`
            : verdictSpan(item.verdict, VERDICT_WORDS[item.verdict]);
        const findings = item.findings.map((text) => clean(text)).join('<br>');
        const fix = item.fix ? clean(item.fix.text) : '';
        return `<tr><td>${clean(item.label)}</td><td>${verdict}</td><td>${findings}</td><td>${fix}</td></tr>`;
      })
      .join('');
    const source =
      latest.source === 'serial-triage'
        ? 'Filled offline from the serial triage; items marked "needs the server" were not checked.'
        : `Read through the server${latest.windowSeconds ? `; LoRa traffic watched for ${latest.windowSeconds} s` : ''}.`;
    const beforeLine = first
      ? `<p class="meta">Checked earlier at ${time(first.takenAt)}: ${verdictSpan(first.verdict, CARD_WORDS[first.verdict])} → now ${verdictSpan(latest.verdict, CARD_WORDS[latest.verdict])}.</p>`
      : '';
    return `<div class="card"><h3>${clean(name)} · ${verdictSpan(latest.verdict, CARD_WORDS[latest.verdict])}</h3>
<p class="meta">Checked at ${time(latest.takenAt)}. ${clean(source)}${latest.thresholdsProfile ? ` Thresholds of the profile ${clean(latest.thresholdsProfile)}.` : ''}</p>${beforeLine}
<table><colgroup><col style="width:14%"><col style="width:16%"><col style="width:42%"><col style="width:28%"></colgroup><tr><th>Item</th><th>Verdict</th><th>What was found</th><th>Fix</th></tr>${rows}</table></div>`;
  });
  return `<section class="acceptance">${STYLE}<h2>Acceptance check before leaving</h2>
<p>Each gateway was checked before the technician left: go means working and expected to stay so; a warning or no-go names its cause and its fix.</p>
${sections.join('\n')}</section>`;
}
