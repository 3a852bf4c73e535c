import { format } from '../../../../electron/shared/format';
import { t } from '../../lib/i18n';

/**
 * The most characters one `terminal:write` or `serial:paste` takes (the IPC contract's limit,
 * electron/shared/terminal/terminal-schemas.ts).
 */
export const MAX_WRITE_CHARACTERS = 1_000_000;

/** The longest pause a serial paste may make after each line (the contract's limit). */
export const MAX_PASTE_DELAY_MS = 10_000;

/**
 * Why a serial paste cannot be sent as asked, in words for the status line, or undefined when it can: the delay
 * field may be empty or out of range, and a console paste goes in one message.
 */
export function describePasteProblem(text: string, delayMs: unknown): string | undefined {
  if (
    typeof delayMs !== 'number' ||
    !Number.isInteger(delayMs) ||
    delayMs < 0 ||
    delayMs > MAX_PASTE_DELAY_MS
  ) {
    return t('terminals:pasteDelayInvalid', { max: format.number(MAX_PASTE_DELAY_MS) });
  }
  if (text.length > MAX_WRITE_CHARACTERS) {
    return t('terminals:pasteTooLong', {
      characters: format.number(text.length),
      max: format.number(MAX_WRITE_CHARACTERS),
    });
  }
  return undefined;
}

/**
 * Cuts text into pieces of at most `maxCharacters` UTF-16 code units, in order, never between the two halves of a
 * surrogate pair (a cut there would turn one emoji into two replacement characters on the wire).
 */
export function splitForWrite(text: string, maxCharacters: number): string[] {
  if (text.length <= maxCharacters) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + maxCharacters, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff && end - 1 > start) end -= 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
