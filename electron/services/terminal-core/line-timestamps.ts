import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
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

/** Formats a local time as `HH:mm:ss.SSS`. */
export function formatClockTime(time: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}`;
}
