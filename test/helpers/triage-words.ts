import type { TriageHealth, TriageSentence } from '../../electron/shared/terminal/triage-schemas';
import {
  triageCheckWords,
  triageFindingWords,
  triageSentenceWords,
} from '../../electron/shared/terminal/triage-words';
import type { Translator } from '../../electron/shared/i18n';

/** A health panel with every finding and part written in words (English unless `translate` says otherwise). */
export function healthInWords(health: TriageHealth, translate?: Translator) {
  const check = (part: TriageHealth['network']) => ({
    status: part.status,
    detail: triageCheckWords(part, translate),
  });
  return {
    ...health,
    findings: health.findings.map((finding) => ({
      status: finding.status,
      text: triageFindingWords(finding, translate),
    })),
    network: check(health.network),
    wan: check(health.wan),
    modem: check(health.modem),
    packetForwarder: check(health.packetForwarder),
  };
}

/** A triage outcome or result with why it stopped and how it left the console written in words. */
export function outcomeInWords<Outcome extends { problem?: TriageSentence; consoleLeft?: TriageSentence }>(
  outcome: Outcome,
  translate?: Translator,
) {
  return {
    ...outcome,
    problem: outcome.problem && triageSentenceWords(outcome.problem, translate),
    consoleLeft: outcome.consoleLeft && triageSentenceWords(outcome.consoleLeft, translate),
  };
}
