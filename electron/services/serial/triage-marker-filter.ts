/** The start of every piece of text serial triage adds to a command line or prints to find its end. */
const MARKER_HEADS = ['; echo __FK_', 'echo __FK_', '__FK_'] as const;
/** Longest tail held back while it may still become a marker (a marker line is far shorter). */
const MAX_HELD_CHARACTERS = 96;

/**
 * Takes serial triage's bookkeeping out of what the technician sees: the `; echo __FK_END_<run>-<n>_$?` the
 * shell echoes after each command, the `__FK_END_<run>-<n>_<status>` line it then prints, and the
 * `echo __FK_SYNC_…` line and its answer after a command that timed out. Only markers of this run (`runToken`)
 * are removed; everything else passes byte for byte. A marker split across chunks is recognised: a tail that
 * may still become one is held (at most MAX_HELD_CHARACTERS, never past a line end) until the next chunk or
 * `flush()`.
 */
export class TriageMarkerFilter {
  /** Markers as they end within a chunk: an answer line only with its line end (else it may still go on). */
  readonly #patterns: RegExp[];
  /** The same with the answer line's end optional, for what is left when the triage is over. */
  readonly #lastPatterns: RegExp[];
  #held = '';

  constructor(runToken: string) {
    const number = String.raw`\d+b?`;
    const build = (lineEnd: string) => [
      new RegExp(String.raw`; echo __FK_END_${runToken}-${number}_\$\?`, 'g'),
      new RegExp(String.raw`__FK_END_${runToken}-${number}_\d+\r*${lineEnd}`, 'g'),
      new RegExp(
        String.raw`echo __FK_SYNC_${runToken}-${number}${lineEnd === '' ? '' : String.raw`(?=\r|\n)`}`,
        'g',
      ),
      new RegExp(String.raw`__FK_SYNC_${runToken}-${number}\r*${lineEnd}`, 'g'),
    ];
    this.#patterns = build(String.raw`\n`);
    this.#lastPatterns = build('');
  }

  /** The chunk without markers; may hold back its last characters (see the class). */
  filter(chunk: Uint8Array): Uint8Array {
    // latin1 maps each byte to one character and back: bytes that are not UTF-8 pass unchanged.
    let text = this.#held + Buffer.from(chunk).toString('latin1');
    for (const pattern of this.#patterns) text = text.replace(pattern, '');
    const keep = heldFrom(text);
    this.#held = text.slice(keep);
    return Buffer.from(text.slice(0, keep), 'latin1');
  }

  /** What is still held back, to be shown once the triage is over. */
  flush(): Uint8Array {
    let held = this.#held;
    this.#held = '';
    for (const pattern of this.#lastPatterns) held = held.replace(pattern, '');
    return Buffer.from(held, 'latin1');
  }
}

/** Where the tail that may still become a marker starts (the text's length when there is none). */
function heldFrom(text: string): number {
  for (let index = Math.max(0, text.length - MAX_HELD_CHARACTERS); index < text.length; index += 1) {
    const tail = text.slice(index);
    if (tail.includes('\n')) continue;
    if (MARKER_HEADS.some((head) => head.startsWith(tail) || tail.startsWith(head))) return index;
  }
  return text.length;
}
