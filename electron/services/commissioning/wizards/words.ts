import type { MessageKey } from '../../../shared/i18n';
import {
  recorded,
  writeRecorded,
  type RecordedMessage,
  type RecordedValue,
} from '../../../shared/i18n/recorded-message';
import type { Change, Check } from '../types';

/** A check in the current language, with its name and detail kept as data for the audit record. */
export function checkOf(ok: boolean, name: RecordedMessage, detail: RecordedMessage): Check {
  return { name: writeRecorded(name), ok, detail: writeRecorded(detail), words: { name, detail } };
}

/** A change whose label is a message (with its values): written now, kept as data for the audit record. */
export function changeOf(
  path: string,
  label: MessageKey | RecordedMessage,
  before: unknown,
  after: unknown,
): Change {
  const labelWords = typeof label === 'string' ? recorded(label) : label;
  return { path, label: writeRecorded(labelWords), labelWords, before, after };
}

/** The values of a recorded message, for building one inline. */
export type Values = Readonly<Record<string, RecordedValue>>;
