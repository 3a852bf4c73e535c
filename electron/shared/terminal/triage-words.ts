/**
 * The serial triage in words, in any language: the screen writes with the current language's `t`, the site
 * report with the translator of the language chosen for it. A triage keeps its sentences as messages (key and
 * values); one journaled before the catalogue keeps its English sentences, shown as they are.
 */

import { t, type MessageKey, type Translator } from '../i18n';
import { writeStoredMessage } from '../visit/stored-message';
import type { TriageCheck, TriageHealth, TriageSentence, TriageStatus, TriageWait } from './triage-schemas';

/** One sentence of a triage written with `translate`, or an old triage's English as it is. */
export function triageSentenceWords(sentence: TriageSentence, translate: Translator = t): string {
  return typeof sentence === 'string'
    ? sentence
    : writeStoredMessage(sentence, 'triage', 'triage:unknownSentence', translate);
}

/** One finding of the health panel ("Ethernet eth0 has no link …") written with `translate`. */
export function triageFindingWords(
  finding: TriageHealth['findings'][number],
  translate: Translator = t,
): string {
  return triageSentenceWords(finding.text, translate);
}

/** What one part of the health panel showed (its `detail`) written with `translate`. */
export function triageCheckWords(check: TriageCheck, translate: Translator = t): string {
  return triageSentenceWords(check.detail, translate);
}

/** The parts of the health panel, in the order they are shown. */
export const TRIAGE_PARTS = ['network', 'wan', 'modem', 'packetForwarder'] as const;
/** One part of the health panel. */
export type TriagePart = (typeof TRIAGE_PARTS)[number];

const PART_NAMES: Record<TriagePart, MessageKey> = {
  network: 'triage:partNetwork',
  wan: 'triage:partWan',
  modem: 'triage:partModem',
  packetForwarder: 'triage:partPacketForwarder',
};

/** A part's name ("Network", "WAN", "Modem", "Packet forwarder"). */
export function triagePartWords(part: TriagePart, translate: Translator = t): string {
  return translate(PART_NAMES[part]);
}

const STATUS_NAMES: Record<TriageStatus, MessageKey> = {
  ok: 'triage:statusOk',
  fault: 'triage:statusFault',
  unknown: 'triage:statusUnknown',
};

/** A finding's status in one word ("OK", "Fault", "Unknown"). */
export function triageStatusWords(status: TriageStatus, translate: Translator = t): string {
  return translate(STATUS_NAMES[status]);
}

const WAIT_WORDS: Record<TriageWait, MessageKey> = {
  prompt: 'triage:waitPrompt',
  loginPrompt: 'triage:waitLoginPrompt',
  passwordPrompt: 'triage:waitPasswordPrompt',
  logoutPrompt: 'triage:waitLogoutPrompt',
  answer: 'triage:waitAnswer',
};

/** What a run waits for, as the end of "Collecting diagnostics …:" ("waiting for the password prompt."). */
export function triageWaitWords(wait: TriageWait, translate: Translator = t): string {
  return translate(WAIT_WORDS[wait]);
}
