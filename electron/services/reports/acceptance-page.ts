import {
  AcceptanceCardSchema,
  type AcceptanceCard,
  type CardVerdict,
  type ItemVerdict,
} from '../../shared/visit/acceptance-card';
import type { MessageKey, Translator } from '../../shared/i18n';
import { acceptanceItemWords } from '../../shared/visit/acceptance-words';
import type { AcceptancePageModel, VerdictModel } from '../../shared/report/report-model';
import type { ReportJournalLine } from './journal-terminals';

const CARD_WORDS: Record<CardVerdict, MessageKey> = {
  go: 'document:cardGo',
  warn: 'document:cardWarn',
  'no-go': 'document:cardNoGo',
  'not-finished': 'document:cardNotFinished',
};

const ITEM_WORDS: Record<ItemVerdict, MessageKey> = {
  go: 'document:itemGo',
  warn: 'document:itemWarn',
  'no-go': 'document:itemNoGo',
  unknown: 'document:itemUnknown',
  'not-applicable': 'document:itemNotApplicable',
  'needs-server': 'document:itemNeedsServer',
  'not-finished': 'document:itemNotFinished',
};

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
 * latest check: go / warn / no-go with the reasons and the fix of each), taken at the time it says; when the
 * gateway was checked before in the visit, each item shows before → after. Undefined when the visit has none.
 */
export function acceptancePageOf(
  lines: readonly ReportJournalLine[],
  time: (at: number) => string,
  translate: Translator,
): AcceptancePageModel | undefined {
  const cardVerdict = (verdict: CardVerdict): VerdictModel => ({
    verdict,
    words: translate(CARD_WORDS[verdict]),
  });
  const itemVerdict = (verdict: ItemVerdict): VerdictModel => ({
    verdict,
    words: translate(ITEM_WORDS[verdict]),
  });
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
          ? translate('document:acceptanceFromTriage')
          : latest.windowSeconds
            ? translate('document:acceptanceFromServerWatched', { seconds: latest.windowSeconds })
            : translate('document:acceptanceFromServer');
      const checked = [
        translate('document:acceptanceCheckedAt', { time: time(latest.takenAt) }),
        source,
        ...(latest.thresholdsProfile
          ? [translate('document:acceptanceThresholds', { profile: latest.thresholdsProfile })]
          : []),
      ];
      return {
        name: latest.gatewayName ?? translate('document:gatewayWithId', { id: latest.gatewayId }),
        verdict: cardVerdict(latest.verdict),
        checked: checked.join(' '),
        ...(first ? { before: { at: time(first.takenAt), verdict: cardVerdict(first.verdict) } } : {}),
        items: latest.items.map((item) => {
          const before = first?.items.find((candidate) => candidate.id === item.id);
          const text = acceptanceItemWords(item, translate);
          return {
            label: text.label,
            ...(before && before.verdict !== item.verdict ? { before: itemVerdict(before.verdict) } : {}),
            verdict: itemVerdict(item.verdict),
            findings: text.findings,
            ...(text.fix ? { fix: text.fix } : {}),
          };
        }),
      };
    }),
  };
}
