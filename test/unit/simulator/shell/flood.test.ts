import { describe, expect, it } from 'vitest';
import {
  FLOOD_LINE_BYTES,
  formatFloodLine,
  generateFloodChunks,
  parseFloodSize,
} from '../../../../simulator/shell/flood';

/** The flood written line by line, as the format describes it: full lines, the last one or two shortened. */
function floodLineByLine(totalBytes: number): string {
  const lines: string[] = [];
  let remaining = totalBytes;
  while (remaining > 0) {
    const isFull = remaining >= 2 * FLOOD_LINE_BYTES || remaining === FLOOD_LINE_BYTES;
    const length = isFull
      ? FLOOD_LINE_BYTES
      : remaining > FLOOD_LINE_BYTES
        ? Math.ceil(remaining / 2)
        : remaining;
    lines.push(formatFloodLine(lines.length, length));
    remaining -= length;
  }
  return lines.join('');
}

describe('flood output', () => {
  it.each([1, 79, 80, 81, 159, 160, 161, 16_000, 16_079, 16_159, 250_000, 1_234_567])(
    'yields exactly the lines of the format for %i bytes',
    (totalBytes) => {
      const chunks = [...generateFloodChunks(totalBytes)];
      expect(chunks.join('')).toBe(floodLineByLine(totalBytes));
    },
  );

  it('yields whole lines per chunk, so an echo typed during a flood lands between lines', () => {
    for (const chunk of generateFloodChunks(1_000_000)) expect(chunk.endsWith('\r\n')).toBe(true);
  });

  it('numbers lines and never uses a character a checker strips', () => {
    const text = [...generateFloodChunks(8_000)].join('');
    expect(text.slice(0, 9)).toBe('00000000 ');
    expect(text.slice(80 * 99, 80 * 99 + 9)).toBe('00000099 ');
    expect(text).not.toMatch(/[#%~|]/);
  });

  it('reads sizes in MB of 10^6 bytes and refuses what it cannot flood', () => {
    expect(parseFloodSize('0.5')).toBe(500_000);
    expect(parseFloodSize('abc')).toMatch(/invalid number/);
    expect(parseFloodSize('0')).toMatch(/above 0/);
  });
});
