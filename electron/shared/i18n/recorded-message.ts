/**
 * A message kept as data (its key and its values) rather than as a sentence in one language, so a record on disk
 * (the audit log, the visit journal) can be written later in any language: the site report's, not the screen's at
 * the time. A value may itself be a recorded message ("The change failed: {{reason}}" with the reason's own key),
 * or plain text that is not ours to translate (a server's message, a gateway name, a version).
 */

import { isMessageKey, t, type MessageKey, type Translator } from './index';

/** A value of a recorded message: text or a number as it is, or another recorded message. */
export type RecordedValue = string | number | RecordedMessage;

/** A message as data: its catalogue key and its placeholders' values. */
export interface RecordedMessage {
  key: MessageKey;
  params?: Readonly<Record<string, RecordedValue>>;
}

/** A recorded message (its values may be recorded messages too). */
export function recorded(key: MessageKey, params?: Readonly<Record<string, RecordedValue>>): RecordedMessage {
  return params === undefined ? { key } : { key, params };
}

/**
 * True for a value that has the shape of a recorded message whose key this version's catalogue has (as read back
 * from a record on disk: a key it does not know is not written, the record's own text is shown instead).
 */
export function isRecordedMessage(value: unknown): value is RecordedMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { key?: unknown }).key === 'string' &&
    isMessageKey((value as { key: string }).key)
  );
}

/** The message written by `translate` (the current language's `t` by default), nested messages first. */
export function writeRecorded(message: RecordedMessage, translate: Translator = t): string {
  const params = Object.fromEntries(
    Object.entries(message.params ?? {}).map(([name, value]) => [
      name,
      isRecordedMessage(value) ? writeRecorded(value, translate) : value,
    ]),
  );
  return translate(message.key, params);
}
