/**
 * The acceptance card in words, in any language: the screen writes with the current language's `t`, the site
 * report with the translator of the language chosen for it. Sentences are kept in the journal as messages (key
 * and values); a card journaled before the catalogue keeps its English sentences, shown as they are.
 */

import { t, type MessageKey, type Translator } from '../i18n';
import { eventNameWords, severityWords } from '../i18n/api-words';
import type { AcceptanceItem, AcceptanceItemId, CardVerdict, ItemVerdict } from './acceptance-card';
import { writeStoredMessage, type StoredMessage } from './stored-message';

const ITEM_NAMES: Record<AcceptanceItemId, MessageKey> = {
  uplink: 'acceptance:itemUplink',
  cellular: 'acceptance:itemCellular',
  lora: 'acceptance:itemLora',
  position: 'acceptance:itemPosition',
  software: 'acceptance:itemSoftware',
  backup: 'acceptance:itemBackup',
  alarms: 'acceptance:itemAlarms',
  clock: 'acceptance:itemClock',
  'packet-forwarder': 'acceptance:itemPacketForwarder',
};

const VERDICT_KEYS: Record<ItemVerdict, MessageKey> = {
  go: 'acceptance:verdictGo',
  warn: 'acceptance:verdictWarn',
  'no-go': 'acceptance:verdictNoGo',
  unknown: 'acceptance:verdictUnknown',
  'not-applicable': 'acceptance:verdictNotApplicable',
  'needs-server': 'acceptance:verdictNeedsServer',
  'not-finished': 'acceptance:verdictNotFinished',
};

const CARD_VERDICT_KEYS: Record<CardVerdict, MessageKey> = {
  go: 'acceptance:cardGo',
  warn: 'acceptance:cardWarn',
  'no-go': 'acceptance:cardNoGo',
  'not-finished': 'acceptance:cardNotFinished',
};

/** An item's name ("Uplink", « Liaison Internet »). */
export function itemNameWords(id: AcceptanceItemId, translate: Translator = t): string {
  return translate(ITEM_NAMES[id]);
}

/** An item's verdict in words ("go", "warn", "no-go", "not fitted", …). */
export function verdictWords(verdict: ItemVerdict, translate: Translator = t): string {
  return translate(VERDICT_KEYS[verdict]);
}

/** A whole card's verdict in the words of its badge ("GO", "GO, with warnings", …). */
export function cardVerdictWords(verdict: CardVerdict, translate: Translator = t): string {
  return translate(CARD_VERDICT_KEYS[verdict]);
}

/**
 * A WAN link type as the API names it (`Ethernet`, `Cellular`) in words; a type Field Kit does not know stays as
 * the server wrote it.
 */
function linkWords(type: string | number | undefined, translate: Translator): string | number | undefined {
  if (typeof type !== 'string') return type;
  if (/eth/i.test(type)) return translate('acceptance:linkEthernet');
  if (/cell|lte|wwan/i.test(type)) return translate('acceptance:linkCellular');
  return type;
}

/** The GPS fix states that only say there is no fix ("none", "no fix"): "No GPS fix" says it in words. */
export const NO_FIX_WORDS = /^(none|no[ _-]?fix|false|invalid|unknown)$/i;

/** One sentence of a card: a kept message written with `translate`, or an old card's English as it is. */
export function acceptanceSentenceWords(sentence: string | StoredMessage, translate: Translator = t): string {
  if (typeof sentence === 'string') return sentence;
  // Cards judged before the fix state was read as words keep "none" as the state of no fix.
  const kind = sentence.params?.kind;
  if (
    sentence.key === 'acceptance:noGpsFixKind' &&
    typeof kind === 'string' &&
    NO_FIX_WORDS.test(kind.trim())
  )
    return translate('acceptance:noGpsFix');
  const alarms = sentence.alarms
    ?.map((alarm) =>
      translate('acceptance:alarmWithSeverity', {
        name: eventNameWords(alarm.name, translate),
        severity: severityWords(alarm.severity, translate),
      }),
    )
    .join(', ');
  // Link types are kept as the API names them and written as words here.
  const params = { ...sentence.params };
  for (const name of ['link', 'fallback']) {
    const words = linkWords(params[name], translate);
    if (words !== undefined) params[name] = words;
  }
  const message = { ...sentence, params: alarms === undefined ? params : { ...params, alarms } };
  // An offline card's uplink holds the serial triage's own sentences.
  return sentence.key.startsWith('triage:')
    ? writeStoredMessage(message, 'triage', 'triage:unknownSentence', translate)
    : writeStoredMessage(message, 'acceptance', 'acceptance:unknownSentence', translate);
}

/** An item written out: its name, each finding, and the fix of a warn or no-go. */
export interface AcceptanceItemText {
  label: string;
  findings: string[];
  fix?: string;
}

/**
 * An item's sentences written with `translate` (the report's language, or `t` for the screen). A card journaled
 * before the catalogue shows its English label and sentences as they were written.
 */
export function acceptanceItemWords(item: AcceptanceItem, translate: Translator = t): AcceptanceItemText {
  return {
    label: item.label ?? itemNameWords(item.id, translate),
    findings: item.findings.map((finding) => acceptanceSentenceWords(finding, translate)),
    ...(item.fix ? { fix: acceptanceSentenceWords(item.fix.text, translate) } : {}),
  };
}
