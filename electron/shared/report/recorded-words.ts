import { isRecordedMessage, writeRecorded } from '../i18n/recorded-message';
import type { MessageKey, Translator } from '../i18n';

/**
 * The words of an audit entry in the report's language. Wizard results, gateway tasks and fleet rows record,
 * beside their English sentences, the same messages as data (`response.words`, `labelWords`, `checkWords`:
 * docs/wizards.md); the report writes those with its own translator. An older entry without them, or one whose
 * data has another shape, shows the sentence it recorded, as it is.
 */

/** A wizard check as the report shows it. */
export interface ShownCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** The parts of a recorded response the report reads. */
interface RecordedResponse {
  checks?: unknown;
  labels?: unknown;
  words?: unknown;
  labelWords?: unknown;
  checkWords?: unknown;
}

function responseOf(response: unknown): RecordedResponse {
  return typeof response === 'object' && response !== null ? (response as RecordedResponse) : {};
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The message `value` holds, written by `translate`, or undefined when it is not a recorded message. */
function written(value: unknown, translate: Translator): string | undefined {
  return isRecordedMessage(value) ? writeRecorded(value, translate) : undefined;
}

/** A wizard's checks, names and details in the report's language when the entry recorded them as data. */
export function checksOf(response: unknown, translate: Translator): ShownCheck[] {
  const { checks, checkWords } = responseOf(response);
  if (!Array.isArray(checks)) return [];
  const words = Array.isArray(checkWords) && checkWords.length === checks.length ? checkWords : [];
  return checks.filter(isRecord).map((check, index) => {
    const recorded: unknown = words[index];
    const said = isRecord(recorded) ? recorded : {};
    return {
      name: written(said.name, translate) ?? String(check.name ?? ''),
      ok: check.ok === true,
      detail: written(said.detail, translate) ?? String(check.detail ?? ''),
    };
  });
}

/** A changed setting's label (by its path) in the report's language, or undefined when none was recorded. */
export function labelOf(response: unknown, path: string, translate: Translator): string | undefined {
  const { labels, labelWords } = responseOf(response);
  const recorded = isRecord(labelWords) && Object.hasOwn(labelWords, path) ? labelWords[path] : undefined;
  const english = isRecord(labels) && Object.hasOwn(labels, path) ? labels[path] : undefined;
  return written(recorded, translate) ?? (typeof english === 'string' ? english : undefined);
}

/** The entry's result message (`response.words`) in the report's language, or undefined when not recorded. */
export function resultWordsOf(response: unknown, translate: Translator): string | undefined {
  return written(responseOf(response).words, translate);
}

/**
 * Wizard results whose sentence goes on, after the reason, with how the settings were put back: the report's
 * "why" is their `reason` alone (as `firstReason` cuts an older English sentence).
 */
const ROLLBACK_RESULTS: ReadonlySet<MessageKey> = new Set<MessageKey>([
  'wizards:resultRolledBack',
  'wizards:resultRestoredBackup',
  'wizards:resultRollbackFailed',
  'wizards:resultRollbackFailedWithBackup',
]);

/** The reason of a result recorded as data, without the rollback story, or undefined when not recorded. */
export function firstReasonWordsOf(response: unknown, translate: Translator): string | undefined {
  const words = responseOf(response).words;
  if (!isRecordedMessage(words)) return undefined;
  const reason = words.params?.reason;
  if (ROLLBACK_RESULTS.has(words.key) && reason !== undefined) {
    return isRecordedMessage(reason) ? writeRecorded(reason, translate) : String(reason);
  }
  return writeRecorded(words, translate);
}
