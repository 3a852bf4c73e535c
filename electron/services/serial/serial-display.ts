import { StringDecoder } from 'node:string_decoder';
import type { Clock } from '../../shared/clock';
import { LineTimestamper } from '../terminal-core/line-timestamps';
import { PasswordPromptWatch } from '../terminal-core/password-prompt';
import { formatLocalEcho, ReceiveNewlineTranslator, withoutEscapeSequences } from './newline';
import type { SerialOpenOptions } from './options';

/** Rewrites what the gateway sends before the screen and the log get it (serial triage hides its markers). */
export interface DisplayFilter {
  /** The bytes to show for a chunk; may hold some back for the next chunk. */
  filter(chunk: Uint8Array): Uint8Array;
  /** What is still held back. */
  flush(): Uint8Array;
}

/** A piece of the screen, and what the log records instead when that differs (an echoed password). */
export interface ScreenPiece {
  screen: Uint8Array;
  log?: Uint8Array;
}

/**
 * What a serial console's screen shows: received bytes through the display filter, the RX newline translation
 * and line times (none in raw view), and the local echo of typed data with a password typed at a prompt masked.
 */
export class SerialDisplay {
  /**
   * While on, received bytes are shown exactly as the port gave them — no RX newline translation, no
   * timestamps — and local echo is off, so a hex view shows what is on the wire (and the log gets those bytes).
   */
  isRawView = false;
  #displayFilter: DisplayFilter | undefined;
  readonly #receiveNewlines: ReceiveNewlineTranslator;
  readonly #timestamper: LineTimestamper | undefined;
  readonly #decoder = new StringDecoder('utf8');
  readonly #passwordPrompt = new PasswordPromptWatch();

  constructor(
    private readonly options: Pick<SerialOpenOptions, 'rxNewline' | 'timestamps' | 'localEcho'>,
    clock: Clock,
  ) {
    this.#receiveNewlines = new ReceiveNewlineTranslator(options.rxNewline);
    this.#timestamper = options.timestamps ? new LineTimestamper(clock) : undefined;
  }

  /** What the screen shows for bytes the port gave (empty: nothing yet). */
  received(received: Uint8Array): Uint8Array {
    const chunk = this.#displayFilter ? this.#displayFilter.filter(received) : received;
    if (chunk.length === 0) return chunk;
    this.#passwordPrompt.received(chunk);
    if (this.isRawView) return chunk;
    const display = this.#receiveNewlines.translate(chunk);
    return this.#timestamper
      ? Buffer.from(this.#timestamper.stamp(this.#decoder.write(Buffer.from(display))))
      : display;
  }

  /**
   * Local echo of typed data (when on and not in raw view), without escape sequences: the terminal's own replies
   * (DA, DSR, CPR…) are sent to the device but never shown or logged (withoutEscapeSequences). Into a password
   * prompt it shows a dot per character and the log records PASSWORD_TYPED_MARKER instead: the log must never
   * hold a typed password.
   */
  echo(data: string | Uint8Array): ScreenPiece[] {
    if (!this.options.localEcho || this.isRawView) return [];
    const typed = withoutEscapeSequences(data);
    if (typed.length === 0) return [];
    const pieces: ScreenPiece[] = [];
    const { masked, rest } = this.#passwordPrompt.mask(typed);
    if (masked && masked.screen.length > 0) pieces.push({ screen: masked.screen, log: masked.log });
    if (rest.length > 0) pieces.push({ screen: formatLocalEcho(rest) });
    return pieces;
  }

  /**
   * Puts a filter between the port and the screen (and the log, which holds what the screen shows); undefined
   * removes it. Answers what the screen shows of the bytes the previous filter still held.
   */
  setFilter(filter: DisplayFilter | undefined): Uint8Array {
    const previous = this.#displayFilter;
    this.#displayFilter = filter;
    const held = previous?.flush();
    return held && held.length > 0 ? this.received(held) : new Uint8Array(0);
  }
}
