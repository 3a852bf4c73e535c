import { z } from 'zod';
import type { Namespace } from '../i18n/catalogue';
import { isMessageKey, type MessageKey, type MessageParams, type Translator } from '../i18n';

/** The most alarms one sentence names (judgeAlarms keeps the first ones). */
export const MAX_NAMED_ALARMS = 100;

/**
 * A message kept as data in a record on disk (the visit journal): its catalogue key and the values of its
 * placeholders, so a report exported in French writes the sentence in French. The words are written when shown.
 */
export const StoredMessageSchema = z
  .object({
    key: z.string().min(1).max(100),
    // Values are what a gateway or server said (a line of mmcli, an error, a package list): bounded, not short.
    params: z.record(z.string().max(50), z.union([z.string().max(10_000), z.number()])).optional(),
    /**
     * The alarms a sentence names, by their API event name and severity: written as words (eventNameWords) into
     * its `{{alarms}}` when shown, so no API name is frozen into the sentence.
     */
    alarms: z
      .array(z.object({ name: z.string().max(100), severity: z.string().max(50) }).strict())
      .max(MAX_NAMED_ALARMS)
      .optional(),
  })
  .strict();
/** A message kept as data. */
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

/** The message `key` with `params`, as data to keep. */
export function storedMessage(key: MessageKey, params?: MessageParams): StoredMessage {
  return params ? { key, params: { ...params } } : { key };
}

/** True when the catalogue has `key` in `namespace` (as it is, or with a plural ending). */
function isKnownKey(key: string, namespace: Namespace): key is MessageKey {
  return key.startsWith(`${namespace}:`) && isMessageKey(key);
}

/**
 * Writes a kept message with `translate`. Only keys of `namespace` are written (a record cannot make the app say
 * another area's words); a key this version does not know — a journal from a newer Field Kit — is written as
 * `unknownKey`.
 */
export function writeStoredMessage(
  message: StoredMessage,
  namespace: Namespace,
  unknownKey: MessageKey,
  translate: Translator,
): string {
  return isKnownKey(message.key, namespace) ? translate(message.key, message.params) : translate(unknownKey);
}
