/**
 * `flood <MB>` output. One MB is 1,000,000 bytes (SI, like the MB/s the benchmarks report). Every line is
 * printable ASCII (`0-9`, `A-Z`, `a-z`, space) ending in CRLF, 80 bytes long except the last one or two, which
 * are shortened so that the total is exact. The characters `#`, `%`, `~` and `|` never appear in a flood, so a
 * checker can strip keystroke echoes typed during one.
 */
export const FLOOD_BYTES_PER_MB = 1_000_000;
/** The largest flood the shell accepts, in MB. */
export const FLOOD_MAX_MB = 1_000;
/** Bytes per flood line, CRLF included. */
export const FLOOD_LINE_BYTES = 80;
/** Lines per chunk handed to the sink: whole lines only, so echoes land between lines. */
const LINES_PER_CHUNK = 200;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PATTERN = ALPHABET.repeat(3);

/** Parses a `flood` size argument ("2", "0.5") into a byte count, or returns an error message. */
export function parseFloodSize(argument: string | undefined): number | string {
  if (argument === undefined) return 'usage: flood <MB>   (1 MB = 1000000 bytes)';
  if (!/^\d+(\.\d{1,6})?$/.test(argument)) return `flood: invalid number '${argument}'`;
  const megabytes = Number(argument);
  if (megabytes <= 0 || megabytes > FLOOD_MAX_MB)
    return `flood: size must be above 0 and at most ${FLOOD_MAX_MB} MB`;
  return Math.round(megabytes * FLOOD_BYTES_PER_MB);
}

/** One flood line of `length` bytes (CRLF included; a 1-byte line is a bare LF). */
export function formatFloodLine(index: number, length: number = FLOOD_LINE_BYTES): string {
  if (length <= 1) return '\n';
  const offset = index % ALPHABET.length;
  const text = `${String(index).padStart(8, '0')} ${PATTERN.slice(offset, offset + FLOOD_LINE_BYTES - 11)}`;
  return `${text.slice(0, length - 2)}\r\n`;
}

/** Yields the flood's text in chunks of whole lines; the chunks add up to exactly `totalBytes` bytes. */
export function* generateFloodChunks(totalBytes: number): Generator<string> {
  let remaining = totalBytes;
  let index = 0;
  let chunk: string[] = [];
  while (remaining > 0) {
    let length: number;
    if (remaining >= 2 * FLOOD_LINE_BYTES || remaining === FLOOD_LINE_BYTES) length = FLOOD_LINE_BYTES;
    else if (remaining > FLOOD_LINE_BYTES) length = Math.ceil(remaining / 2);
    else length = remaining;
    chunk.push(formatFloodLine(index, length));
    remaining -= length;
    index += 1;
    if (chunk.length === LINES_PER_CHUNK) {
      yield chunk.join('');
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk.join('');
}
