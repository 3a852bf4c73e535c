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

// A full line is its 8-digit index, then one of ALPHABET.length tails: built once, copied per line.
const LINE_TAILS = Array.from({ length: ALPHABET.length }, (_, offset) =>
  Buffer.from(formatFloodLine(offset).slice(8), 'latin1'),
);

/**
 * Yields the flood's text in chunks of whole lines; the chunks add up to exactly `totalBytes` bytes, the lines
 * being those of formatFloodLine. Lines are assembled in a reused buffer (a 50 MB flood would otherwise make
 * 600,000 little strings for the garbage collector, on the CPU the terminal benchmarks share).
 */
export function* generateFloodChunks(totalBytes: number): Generator<string> {
  const buffer = Buffer.allocUnsafe(LINES_PER_CHUNK * FLOOD_LINE_BYTES);
  let remaining = totalBytes;
  let index = 0;
  while (remaining >= 2 * FLOOD_LINE_BYTES || remaining === FLOOD_LINE_BYTES) {
    const lines = Math.min(
      LINES_PER_CHUNK,
      remaining === FLOOD_LINE_BYTES ? 1 : Math.floor((remaining - FLOOD_LINE_BYTES) / FLOOD_LINE_BYTES),
    );
    for (let line = 0; line < lines; line += 1, index += 1) {
      const start = line * FLOOD_LINE_BYTES;
      let digits = index;
      for (let position = start + 7; position >= start; position -= 1) {
        buffer[position] = 48 + (digits % 10);
        digits = Math.floor(digits / 10);
      }
      LINE_TAILS[index % ALPHABET.length]!.copy(buffer, start + 8);
    }
    remaining -= lines * FLOOD_LINE_BYTES;
    yield buffer.toString('latin1', 0, lines * FLOOD_LINE_BYTES);
  }
  // The last one or two lines are shortened so that the total is exact.
  const tail: string[] = [];
  while (remaining > 0) {
    const length = remaining > FLOOD_LINE_BYTES ? Math.ceil(remaining / 2) : remaining;
    tail.push(formatFloodLine(index, length));
    remaining -= length;
    index += 1;
  }
  if (tail.length > 0) yield tail.join('');
}
