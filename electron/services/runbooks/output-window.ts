import { RUNBOOK_PATTERN_LINE_MAX, RUNBOOK_PATTERN_PARTIAL_MAX } from '../../shared/terminal/runbook-pattern';
import type { RunbookWait } from '../../shared/terminal/runbook-schemas';
import { stripEscapeSequences } from '../../shared/terminal/triage-parsers';

/** A step searches at most the last this many characters of what the session printed since its line was sent. */
export const RUNBOOK_WINDOW_CHARACTERS = 64 * 1024;

/** The text of a line as a technician reads it: no escape sequences (colours, cursor moves), no carriage returns. */
function readable(text: string): string {
  return stripEscapeSequences(text).replaceAll('\r', '');
}

/**
 * What a session printed since a step sent its line, searched for what the step waits for. Bounded: at most
 * RUNBOOK_WINDOW_CHARACTERS are kept (the oldest dropped), a pattern is tried on each line's first
 * RUNBOOK_PATTERN_LINE_MAX characters, each finished line once, and the unfinished last line again as it grows only
 * while it is at most RUNBOOK_PATTERN_PARTIAL_MAX characters long.
 *
 * The echo of the line sent is not searched: a wait for `pkt_fwd` after `ps | grep pkt_fwd` must not be met by the
 * command line itself. When what comes back starts with the line sent, that first line is skipped; when it does
 * not (a password, a device that does not echo), everything is searched.
 */
export class OutputWindow {
  #decoder = new TextDecoder();
  #text = '';
  #echo: string | undefined;
  /** Where the lines not yet tried against a pattern start in #text. */
  #untried = 0;

  /** Starts over for a step that sends `line`. */
  reset(line: string): void {
    this.#decoder = new TextDecoder();
    this.#text = '';
    this.#echo = line;
    this.#untried = 0;
  }

  /** Adds what the session printed. */
  push(chunk: Uint8Array): void {
    this.#text += this.#decoder.decode(chunk, { stream: true });
    if (this.#text.length > RUNBOOK_WINDOW_CHARACTERS) {
      const dropped = this.#text.length - RUNBOOK_WINDOW_CHARACTERS;
      this.#text = this.#text.slice(dropped);
      this.#untried = Math.max(0, this.#untried - dropped);
      this.#echo = undefined;
    }
    this.#skipEcho();
  }

  /** The line (readable, at most 200 characters) in which `wait` is seen, or undefined while it is not. */
  find(wait: RunbookWait, pattern: RegExp | undefined): string | undefined {
    if (this.#echo !== undefined) return undefined;
    if (wait.kind === 'text') {
      const text = readable(this.#text);
      const at = text.indexOf(wait.value);
      if (at < 0) return undefined;
      const start = text.lastIndexOf('\n', at) + 1;
      const end = text.indexOf('\n', at + wait.value.length);
      return text.slice(start, end < 0 ? undefined : end).slice(0, 200);
    }
    if (!pattern) return undefined;
    for (;;) {
      const end = this.#text.indexOf('\n', this.#untried);
      const line = readable(this.#text.slice(this.#untried, end < 0 ? undefined : end));
      // The last line may still grow: it is tried again with the next output while it is short (a prompt).
      if (end < 0 && line.length > RUNBOOK_PATTERN_PARTIAL_MAX) return undefined;
      if (pattern.test(line.slice(0, RUNBOOK_PATTERN_LINE_MAX))) return line.slice(0, 200);
      if (end < 0) return undefined;
      this.#untried = end + 1;
    }
  }

  #skipEcho(): void {
    const echo = this.#echo;
    if (echo === undefined) return;
    const lineEnd = this.#text.indexOf('\n');
    const first = readable(lineEnd < 0 ? this.#text : this.#text.slice(0, lineEnd));
    if (lineEnd < 0) {
      // Still typing back what was sent: wait for the rest of the line before searching anything.
      if (echo.startsWith(first)) return;
      this.#echo = undefined;
      return;
    }
    this.#echo = undefined;
    if (first === echo || first.endsWith(echo)) {
      this.#text = this.#text.slice(lineEnd + 1);
      this.#untried = 0;
    }
  }
}
