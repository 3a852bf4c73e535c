import { cleanConsoleText } from '../../shared/terminal/triage-parsers';

/**
 * A line that asks for a secret, in any case, once escape sequences are gone: `Password:`, `[sudo] password for
 * root:`, `root@gw's password:`, `Enter passphrase for key '…':`, `Enter PIN:`, `Passcode:` (what `passwd`, `su`,
 * `sudo`, `ssh`, `ssh-keygen`, BusyBox and modem tools print).
 */
const PASSWORD_PROMPT = /(?:pass(?:word|phrase|code)|\bpin\b)[^\n]*:\s*$/i;
/** Enough of the last line to see a prompt at its end; the rest of a long line is forgotten. */
const LAST_LINE_CHARACTERS = 256;
const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;
const DELETE = 0x7f;
const BULLET = '\u2022';

/** What local echo shows and what the session log records for one piece of typed data. */
export interface MaskedEcho {
  /** The bytes to show on the screen. */
  screen: Uint8Array;
  /** What the log records instead of `screen` (empty: nothing, the marker was already logged). */
  log: Uint8Array;
}

/** What the log records in place of characters typed into a password prompt (once per answer). */
export const PASSWORD_TYPED_MARKER = '[password typed]';

/**
 * Watches the received text for a password prompt, so that local echo can show dots and the session log a marker
 * instead of what is typed into it. The prompt counts while the last line received, without its escape sequences
 * and control bytes, ends in a password, passphrase, passcode or PIN prompt (PASSWORD_PROMPT, any case, then a
 * colon and optional spaces) and ends with the first Enter typed, or with anything the far end sends.
 */
export class PasswordPromptWatch {
  #lastLine = '';
  #isAnswered = false;
  #hasLoggedMarker = false;

  /** Notes received bytes (as displayed). */
  received(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const lineEnd = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    this.#lastLine = (lineEnd >= 0 ? text.slice(lineEnd + 1) : this.#lastLine + text).slice(
      -LAST_LINE_CHARACTERS,
    );
    this.#isAnswered = false;
    this.#hasLoggedMarker = false;
  }

  /** True while typed characters go into a password prompt. */
  get isActive(): boolean {
    return !this.#isAnswered && PASSWORD_PROMPT.test(cleanConsoleText(this.#lastLine));
  }

  /**
   * Splits typed bytes into the part typed into the prompt (masked: dots on the screen, the marker in the log) and
   * the rest from the first Enter on (for the usual echo). Outside a prompt everything is the rest.
   */
  mask(data: Uint8Array): { masked: MaskedEcho | undefined; rest: Uint8Array } {
    if (!this.isActive) return { masked: undefined, rest: data };
    let enter = data.findIndex((byte) => byte === CARRIAGE_RETURN || byte === LINE_FEED);
    if (enter < 0) enter = data.length;
    else this.#isAnswered = true;
    const typed = Buffer.from(data.buffer, data.byteOffset, enter).toString('utf8');
    let screen = '';
    for (const character of typed) screen += character.codePointAt(0) === DELETE ? '\b \b' : BULLET;
    const log = this.#hasLoggedMarker || typed === '' ? '' : PASSWORD_TYPED_MARKER;
    if (log) this.#hasLoggedMarker = true;
    if (this.#isAnswered) this.#hasLoggedMarker = false;
    return {
      masked: { screen: Buffer.from(screen, 'utf8'), log: Buffer.from(log, 'utf8') },
      rest: data.subarray(enter),
    };
  }
}
