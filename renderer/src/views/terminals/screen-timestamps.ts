import type { Clock } from '../../../../electron/shared/clock';
import { appClock } from '../../lib/clock';
import { formatClockTime } from '../../../../electron/shared/terminal/clock-time';
import { concatenate } from '../../lib/bytes';

const ESCAPE = 0x1b;
const LINE_FEED = 0x0a;
const BELL = 0x07;
const TAB = 0x09;
const CANCEL = 0x18;
const SUBSTITUTE = 0x1a;
const DELETE = 0x7f;
/** A CSI longer than this is not one a terminal draws: it is dropped from the tracking, never from the output. */
const MAX_CSI_PARAMETERS = 64;

type ParserState = 'ground' | 'escape' | 'csi' | 'string' | 'string-escape';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Writes a dim `[HH:mm:ss.SSS] ` before each line a terminal stream starts, for the screen only, as SecureCRT and
 * minicom do. Works on the bytes written to xterm and keeps its state between chunks, so that:
 * a stamp goes only at a line start (after a line feed), just before the line's first printable character — never
 * inside an escape sequence (CSI, OSC, DCS… even one split across chunks), never before a line of escape sequences
 * alone; nothing is stamped on the alternate screen (vi, top, less draw there); the line's own bold or dim is
 * restored after the stamp; UTF-8 passes through untouched (its bytes are never ASCII).
 */
export class ScreenTimestamper {
  #isAtLineStart = true;
  #state: ParserState = 'ground';
  #csi = '';
  #isBold = false;
  #isDim = false;
  #isAlternateScreen = false;
  readonly #clock: Pick<Clock, 'now'>;

  constructor(clock: Pick<Clock, 'now'> = appClock) {
    this.#clock = clock;
  }

  /** Returns the chunk with a stamp before each line it starts (the same array when it starts none). */
  stamp(chunk: Uint8Array): Uint8Array {
    let pieces: Uint8Array[] | undefined;
    let copiedUpTo = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (this.#state === 'ground' && this.#isAtLineStart && !this.#isAlternateScreen && isPrintable(byte)) {
        pieces ??= [];
        pieces.push(chunk.subarray(copiedUpTo, index), this.#stampBytes());
        copiedUpTo = index;
        this.#isAtLineStart = false;
      }
      this.#advance(byte);
    }
    if (!pieces) return chunk;
    pieces.push(chunk.subarray(copiedUpTo));
    return concatenate(pieces);
  }

  /** Text in, text out: `stamp` for a string (tests, and output written as text). */
  stampText(text: string): string {
    return decoder.decode(this.stamp(encoder.encode(text)));
  }

  /**
   * Starts over in the ground state, at a line start or not: after the view wrote its own line, or when stamps are
   * switched on (the output before was not followed).
   */
  restart(isAtLineStart: boolean): void {
    this.#isAtLineStart = isAtLineStart;
    this.#state = 'ground';
    this.#csi = '';
  }

  #stampBytes(): Uint8Array {
    const restore = `${this.#isBold ? '\x1b[1m' : ''}${this.#isDim ? '\x1b[2m' : ''}`;
    return encoder.encode(`\x1b[2m[${formatClockTime(new Date(this.#clock.now()))}]\x1b[22m${restore} `);
  }

  #advance(byte: number): void {
    if (byte === LINE_FEED) {
      // xterm executes a line feed even in the middle of a CSI; a string (OSC title…) holds it as text.
      if (this.#state !== 'string' && this.#state !== 'string-escape') this.#isAtLineStart = true;
      return;
    }
    if (byte === CANCEL || byte === SUBSTITUTE) {
      this.#state = 'ground';
      return;
    }
    switch (this.#state) {
      case 'ground':
        if (byte === ESCAPE) this.#state = 'escape';
        return;
      case 'escape':
        if (byte === 0x5b) {
          this.#state = 'csi';
          this.#csi = '';
        } else if (byte === 0x5d || byte === 0x50 || byte === 0x5f || byte === 0x5e || byte === 0x58)
          this.#state = 'string';
        else if (byte === ESCAPE) this.#state = 'escape';
        // Intermediate bytes (ESC ( B and the like) keep the sequence open; a final byte ends it.
        else if (byte < 0x20 || byte > 0x2f) this.#state = 'ground';
        return;
      case 'csi':
        if (byte === ESCAPE) this.#state = 'escape';
        else if (byte >= 0x40 && byte <= 0x7e) {
          this.#finishCsi(String.fromCharCode(byte));
          this.#state = 'ground';
        } else if (byte >= 0x20 && this.#csi.length < MAX_CSI_PARAMETERS)
          this.#csi += String.fromCharCode(byte);
        return;
      case 'string':
        if (byte === BELL) this.#state = 'ground';
        else if (byte === ESCAPE) this.#state = 'string-escape';
        return;
      case 'string-escape':
        // ESC \ ends the string; any other ESC starts a new sequence, which also ends it.
        this.#state = 'ground';
        if (byte !== 0x5c) {
          this.#state = 'escape';
          this.#advance(byte);
        }
        return;
    }
  }

  #finishCsi(final: string): void {
    const parameters = this.#csi;
    this.#csi = '';
    if (final === 'm' && /^[\d;:]*$/.test(parameters)) this.#followGraphicRendition(parameters);
    else if ((final === 'h' || final === 'l') && parameters.startsWith('?')) {
      const modes = parameters.slice(1).split(';');
      if (modes.some((mode) => mode === '1049' || mode === '1047' || mode === '47'))
        this.#isAlternateScreen = final === 'h';
    }
  }

  #followGraphicRendition(parameters: string): void {
    const values = parameters.split(';');
    for (let index = 0; index < values.length; index++) {
      const value = values[index]!;
      if (value === '' || value === '0') {
        this.#isBold = false;
        this.#isDim = false;
      } else if (value === '1') this.#isBold = true;
      else if (value === '2') this.#isDim = true;
      else if (value === '22') {
        this.#isBold = false;
        this.#isDim = false;
      } else if (value === '38' || value === '48' || value === '58') {
        // An extended colour's own numbers (38;5;1 is colour 1, not bold) are skipped.
        if (values[index + 1] === '5') index += 2;
        else if (values[index + 1] === '2') index += 4;
      }
    }
  }
}

function isPrintable(byte: number): boolean {
  return byte === TAB || (byte >= 0x20 && byte !== DELETE);
}

/** True when `bytes` ends a line (its last byte is a line feed): a line the view writes then needs no new line first. */
export function endsLine(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes[bytes.length - 1] === LINE_FEED;
}
