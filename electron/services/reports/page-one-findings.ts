import type { TriageResult } from '../../shared/terminal/triage-schemas';
import { triageFindingWords, triageSentenceWords } from '../../shared/terminal/triage-words';
import type { Translator } from '../../shared/i18n';
import type { Finding } from '../../shared/report/report-model';
import { outcomeWords, type ChangeSummary, type VisitOutcome } from '../../shared/report/visit-summary';
import type { AcceptanceCard, AcceptanceItem } from '../../shared/visit/acceptance-card';
import { acceptanceItemWords, verdictWords } from '../../shared/visit/acceptance-words';

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

/** Severity of a fault a health check still sees: above every change but a rollback that failed. */
const FAULT_SEVERITY = 6;

type Ranked = { severity: number; finding: Finding };

/**
 * Sentences as one text: each is a sentence of its own (ending as it ends, or with a full stop when it does not),
 * joined by a space — never "…port).; The clock…".
 */
export function joinSentences(sentences: readonly string[]): string {
  return sentences
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '')
    .map((sentence) => (/[.!?…]["'”»)]*$/u.test(sentence) ? sentence : `${sentence}.`))
    .join(' ');
}

/**
 * Page one's findings for a gateway, worst first: what its serial triages found (healthFindings), what its
 * checks before leaving judged (acceptanceFindings) and how each change ended. A gateway with none of them was
 * "only inspected"; a gateway where a fault was seen never is.
 */
export function findingsOf(
  triages: readonly TriageResult[],
  cards: readonly AcceptanceCard[],
  changes: readonly ChangeSummary[],
  translate: Translator,
): Finding[] {
  const findings = [
    ...healthFindings(triages, translate),
    ...acceptanceFindings(cards, translate),
    ...changes.map((change) => ({
      severity: CHANGE_SEVERITY[change.outcome],
      finding: {
        tone: change.outcome,
        what: change.what,
        words: outcomeWords(change.outcome, translate),
        ...(change.reason ? { detail: change.reason } : {}),
      } satisfies Finding,
    })),
  ].sort((left, right) => right.severity - left.severity);
  if (findings.length === 0) return [{ tone: 'inspected', words: outcomeWords('inspected', translate) }];
  return findings.map((item) => item.finding);
}

/**
 * What a gateway's serial triages found, in words for page one: "fault found" naming each fault the last check
 * saw; "fixed" for faults an earlier check saw and the last, complete, no longer does; "unknown" for a last check
 * that stopped early without a fault; "inspected, healthy" when the last complete check found none.
 */
function healthFindings(triages: readonly TriageResult[], translate: Translator): Ranked[] {
  const ordered = [...triages].sort((left, right) => left.finishedAt - right.finishedAt);
  const last = ordered.at(-1);
  if (!last) return [];
  const faultsOf = (triage: TriageResult) =>
    triage.health.findings
      .filter((finding) => finding.status === 'fault')
      .map((finding) => triageFindingWords(finding, translate));
  const faults = faultsOf(last);
  if (faults.length > 0)
    return [
      {
        severity: FAULT_SEVERITY,
        finding: { tone: 'failed', words: translate('document:findingFault'), detail: joinSentences(faults) },
      },
    ];
  if (last.outcome === 'stopped')
    return [
      {
        severity: CHANGE_SEVERITY.unknown,
        finding: {
          tone: 'unknown',
          words: translate('document:outcomeUnknown'),
          detail: last.problem
            ? translate('document:findingStoppedBecause', {
                problem: triageSentenceWords(last.problem, translate),
              })
            : translate('document:findingStopped'),
        },
      },
    ];
  const earlier = [...new Set(ordered.slice(0, -1).flatMap(faultsOf))];
  if (earlier.length > 0)
    return [
      {
        severity: CHANGE_SEVERITY.verified,
        finding: { tone: 'ok', words: translate('document:findingFixed'), detail: joinSentences(earlier) },
      },
    ];
  return [{ severity: 0, finding: { tone: 'ok', words: translate('document:findingHealthy') } }];
}

const isProblem = (item: AcceptanceItem) => item.verdict === 'no-go' || item.verdict === 'warn';

/** An item judged no-go or warn, named in words from its card: "Cellular no-go at the check before leaving — …". */
function itemSentence(item: AcceptanceItem, translate: Translator): string {
  const words = acceptanceItemWords(item, translate);
  const named = { item: words.label, verdict: verdictWords(item.verdict, translate) };
  return words.findings.length > 0
    ? translate('document:findingAcceptanceItem', { ...named, found: joinSentences(words.findings) })
    : translate('document:findingAcceptanceItemBare', named);
}

/**
 * What a gateway's checks before leaving judged, for page one, from its latest finished card: a no-go is a
 * "fault found" and a warn a "warning found", each naming the items with the card's own words; a go after an
 * earlier no-go or warn is "fixed" (naming what was); a go alone "inspected, healthy"; a check never finished
 * "unknown".
 */
function acceptanceFindings(cards: readonly AcceptanceCard[], translate: Translator): Ranked[] {
  if (cards.length === 0) return [];
  const finished = cards.filter((card) => card.verdict !== 'not-finished');
  const last = finished.at(-1);
  if (!last)
    return [
      {
        severity: CHANGE_SEVERITY.unknown,
        finding: {
          tone: 'unknown',
          words: translate('document:outcomeUnknown'),
          detail: translate('document:findingAcceptanceNotFinished'),
        },
      },
    ];
  const problems = (card: AcceptanceCard) =>
    card.items.filter(isProblem).map((item) => itemSentence(item, translate));
  if (last.verdict === 'no-go' || last.verdict === 'warn')
    return [
      {
        severity: last.verdict === 'no-go' ? FAULT_SEVERITY : CHANGE_SEVERITY.unknown,
        finding: {
          tone: last.verdict === 'no-go' ? 'failed' : 'unknown',
          words: translate(last.verdict === 'no-go' ? 'document:findingFault' : 'document:findingWarning'),
          detail: joinSentences(problems(last)),
        },
      },
    ];
  // Each item that was a problem earlier in the visit, as the latest card that judged it so said.
  const earlier = new Map<string, string>();
  for (const card of finished.slice(0, -1))
    for (const item of card.items.filter(isProblem)) earlier.set(item.id, itemSentence(item, translate));
  if (earlier.size > 0)
    return [
      {
        severity: CHANGE_SEVERITY.verified,
        finding: {
          tone: 'ok',
          words: translate('document:findingFixed'),
          detail: joinSentences([...earlier.values()]),
        },
      },
    ];
  return [{ severity: 0, finding: { tone: 'ok', words: translate('document:findingHealthy') } }];
}
