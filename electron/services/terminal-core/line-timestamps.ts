import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { formatClockTime } from '../../shared/terminal/clock-time';

export { formatClockTime };
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
