import type { ReceiveNewline, TransmitNewline } from './options';

const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;
const DELETE = 0x7f;

const TRANSMIT_SEQUENCES: Record<TransmitNewline, number[]> = {
  cr: [CARRIAGE_RETURN],
  lf: [LINE_FEED],
  crlf: [CARRIAGE_RETURN, LINE_FEED],
};

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** Replaces each CRLF, CR or LF in outgoing data with the configured newline; every other byte is kept. */
export function translateTransmitNewlines(data: string | Uint8Array, mode: TransmitNewline): Buffer {
  const input = toBytes(data);
  const sequence = TRANSMIT_SEQUENCES[mode];
  const output: number[] = [];
  for (let index = 0; index < input.length; index += 1) {
    const byte = input[index]!;
    if (byte === CARRIAGE_RETURN) {
      output.push(...sequence);
      if (input[index + 1] === LINE_FEED) index += 1;
    } else if (byte === LINE_FEED) {
      output.push(...sequence);
    } else {
      output.push(byte);
    }
  }
  return Buffer.from(output);
}

/**
 * Escape sequences in typed data: CSI (`ESC [ … final`: arrow keys, and the terminal's own replies — DA `ESC[?1;2c`,
 * DA2 `ESC[>0;276;0c`, DSR `ESC[0n`, CPR `ESC[12;40R`, DECRQM, window reports), SS3 (`ESC O x`), OSC (colour
 * reports, to BEL or ST), DCS/APC/PM/SOS strings (to ST) and any other ESC with the byte after it (or alone).
 * Each alternative starts at ESC and ends at the first byte that can end it: linear in the data.
 */
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|O[\s\S]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[P_^X][^\x1b]*\x1b\\|[\s\S]?)/g;

/**
 * Typed data without its escape sequences (ESCAPE_SEQUENCE), for local echo. What xterm.js answers on its own to
 * a query from the device (DA, DSR, CPR…) arrives as typed data: echoed onto the screen, a DA2 reply reads as
 * another DA2 query and xterm answers it again, forever. A key's sequence (an arrow) is not echoed either: a
 * device that needs local echo does not move its own cursor for it.
 */
export function withoutEscapeSequences(data: string | Uint8Array): Buffer {
  const input = toBytes(data);
  if (!input.includes(0x1b)) return Buffer.from(input);
  return Buffer.from(Buffer.from(input).toString('latin1').replace(ESCAPE_SEQUENCE, ''), 'latin1');
}

/** What local echo shows for typed data: newlines as CRLF, Delete as an erased character. */
export function formatLocalEcho(data: string | Uint8Array): Buffer {
  const input = toBytes(data);
  const output: number[] = [];
  for (let index = 0; index < input.length; index += 1) {
    const byte = input[index]!;
    if (byte === CARRIAGE_RETURN || byte === LINE_FEED) {
      output.push(CARRIAGE_RETURN, LINE_FEED);
      if (byte === CARRIAGE_RETURN && input[index + 1] === LINE_FEED) index += 1;
    } else if (byte === DELETE) {
      output.push(0x08, 0x20, 0x08);
    } else {
      output.push(byte);
    }
  }
  return Buffer.from(output);
}

/**
 * Translates received line ends for display, remembering the last byte so a CRLF split across two chunks is
 * still one line end. `as-is` returns chunks untouched.
 */
export class ReceiveNewlineTranslator {
  #lastWasCarriageReturn = false;

  constructor(readonly mode: ReceiveNewline) {}

  /** Returns the chunk with line ends translated. */
  translate(chunk: Uint8Array): Uint8Array {
    if (this.mode === 'as-is' || chunk.length === 0) return chunk;
    const output = Buffer.allocUnsafe(chunk.length * 2);
    let length = 0;
    for (const byte of chunk) {
      const wasCarriageReturn = this.#lastWasCarriageReturn;
      this.#lastWasCarriageReturn = byte === CARRIAGE_RETURN;
      if (this.mode === 'cr-to-crlf') {
        if (byte === CARRIAGE_RETURN) {
          output[length++] = CARRIAGE_RETURN;
          output[length++] = LINE_FEED;
        } else if (!(byte === LINE_FEED && wasCarriageReturn)) {
          output[length++] = byte;
        }
      } else if (byte === LINE_FEED && !wasCarriageReturn) {
        output[length++] = CARRIAGE_RETURN;
        output[length++] = LINE_FEED;
      } else {
        output[length++] = byte;
      }
    }
    return output.subarray(0, length);
  }
}

/**
 * A paste as the pieces sent one at a time: each line with a CR (a TX newline once translated), and a last line
 * without a newline as it is; `endsLine` says a pause follows it.
 */
export function splitPaste(text: string): Array<{ text: string; endsLine: boolean }> {
  const lines = text.split(/\r\n|\r|\n/);
  const last = lines.pop() ?? '';
  const pieces = lines.map((line) => ({ text: `${line}\r`, endsLine: true }));
  return last === '' ? pieces : [...pieces, { text: last, endsLine: false }];
}
