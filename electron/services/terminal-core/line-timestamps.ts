import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { formatClockTime } from '../../shared/terminal/clock-time';

export { formatClockTime };

const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;
/**
 * Prefixes every line of a terminal stream with the time it started (`[HH:mm:ss.SSS] `), keeping state between
 * chunks so a line split across chunks gets one stamp. Input and output are text (decode before, encode after).
 */
export class LineTimestamper {
  #isAtLineStart = true;
  readonly #clock: Pick<Clock, 'now'>;

  constructor(clock: Pick<Clock, 'now'> = SYSTEM_CLOCK) {
    this.#clock = clock;
  }

  /**
   * `stamp` for bytes, without decoding: the bytes that end and start lines are ASCII, never part of a UTF-8
   * character, so a character split across chunks stays whole. Returns the same array when no line starts in it.
   */
  stampBytes(chunk: Uint8Array): Uint8Array {
    let pieces: Uint8Array[] | undefined;
    let copiedUpTo = 0;
    let stamp: Uint8Array | undefined;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (this.#isAtLineStart && byte !== CARRIAGE_RETURN && byte !== LINE_FEED) {
        stamp ??= new TextEncoder().encode(`[${formatClockTime(new Date(this.#clock.now()))}] `);
        pieces ??= [];
        pieces.push(chunk.subarray(copiedUpTo, index), stamp);
        copiedUpTo = index;
        this.#isAtLineStart = false;
      }
      if (byte === LINE_FEED) this.#isAtLineStart = true;
    }
    if (!pieces) return chunk;
    pieces.push(chunk.subarray(copiedUpTo));
    return Buffer.concat(pieces);
  }

  /** Returns the chunk with a stamp before each line that starts in it. */
  stamp(text: string): string {
    if (text === '') return text;
    const stamp = `[${formatClockTime(new Date(this.#clock.now()))}] `;
    let output = '';
    for (const character of text) {
      if (this.#isAtLineStart && character !== '\r' && character !== '\n') {
        output += stamp;
        this.#isAtLineStart = false;
      }
      output += character;
      if (character === '\n') this.#isAtLineStart = true;
    }
    return output;
  }
}
