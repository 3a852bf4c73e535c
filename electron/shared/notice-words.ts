/**
 * A notice as main holds it before it is shown: its message is a function calling `t` when the notice is about
 * to be read, so a notice raised at start-up (before the screen said its language) or before a change of language
 * is written in the language the screen shows now. A plain string stays as it is.
 */
export interface NoticeDraft {
  /** What kind of notice it is (`PROFILES_CORRUPT`): data, never shown as words. */
  code: string;
  /** The words, or a function writing them in the current language. */
  message: string | (() => string);
  /** When it was raised; left out, now. */
  at?: number;
}

/** The notice's words in the current language. */
export function writeNotice(message: NoticeDraft['message']): string {
  return typeof message === 'function' ? message() : message;
}
