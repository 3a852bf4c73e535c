import {
  AcceptanceCardSchema,
  type AcceptanceCard,
  type CardVerdict,
} from '../../shared/visit/acceptance-card';
import { acceptanceItemWords, verdictWords } from '../../shared/visit/acceptance-words';
import type { AcceptancePageModel, VerdictModel } from '../../shared/report/report-model';
import type { ReportJournalLine } from './journal-terminals';

const CARD_WORDS: Record<CardVerdict, string> = {
  go: 'GO',
  warn: 'GO WITH WARNINGS',
  'no-go': 'NO-GO',
  'not-finished': 'NOT FINISHED',
};

/** The acceptance cards a journal holds, oldest first (an entry that does not read as a card is left out). */
export function acceptanceCardsOf(lines: readonly ReportJournalLine[]): AcceptanceCard[] {
  return lines.flatMap(({ entry }) => {
    if (entry.kind !== 'acceptance') return [];
    const parsed = AcceptanceCardSchema.safeParse((entry as { card?: unknown }).card);
    return parsed.success ? [parsed.data] : [];
  });
}

const cardVerdict = (verdict: CardVerdict): VerdictModel => ({ verdict, words: CARD_WORDS[verdict] });

/**
 * The site report's acceptance page, from the visit journal's `acceptance` entries: one card per gateway (its
 * latest check: go / warn / no-go with the reasons and the fix of each), taken at the time it says; when the
 * gateway was checked before in the visit, each item shows before → after. Undefined when the visit has none.
 */
export function acceptancePageOf(
  lines: readonly ReportJournalLine[],
  time: (at: number) => string,
): AcceptancePageModel | undefined {
  const cards = acceptanceCardsOf(lines);
  if (cards.length === 0) return undefined;
  const byGateway = new Map<string, AcceptanceCard[]>();
  for (const card of cards) byGateway.set(card.gatewayId, [...(byGateway.get(card.gatewayId) ?? []), card]);
  return {
    cards: [...byGateway.values()].map((history) => {
      const latest = history.at(-1)!;
      // "Before" is the first check of the visit that finished: what the technician found, against what is left.
      const first = history.find((card) => card !== latest && card.verdict !== 'not-finished');
      const source =
        latest.source === 'serial-triage'
          ? 'Filled offline from the serial triage; items marked "needs the server" were not checked.'
          : `Read through the server${latest.windowSeconds ? `; LoRa traffic watched for ${latest.windowSeconds} s` : ''}.`;
      return {
        name: latest.gatewayName ?? `Gateway ${latest.gatewayId}`,
        verdict: cardVerdict(latest.verdict),
        checked: `Checked at ${time(latest.takenAt)}. ${source}${latest.thresholdsProfile ? ` Thresholds of the profile ${latest.thresholdsProfile}.` : ''}`,
        ...(first ? { before: { at: time(first.takenAt), verdict: cardVerdict(first.verdict) } } : {}),
        items: latest.items.map((item) => {
          const before = first?.items.find((candidate) => candidate.id === item.id);
          const words = acceptanceItemWords(item);
          return {
            label: words.label,
            ...(before && before.verdict !== item.verdict
              ? { before: { verdict: before.verdict, words: verdictWords(before.verdict) } }
              : {}),
            verdict: { verdict: item.verdict, words: verdictWords(item.verdict) },
            findings: words.findings,
            ...(words.fix ? { fix: words.fix } : {}),
          };
        }),
      };
    }),
  };
}
