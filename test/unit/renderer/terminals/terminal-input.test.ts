import { describe, expect, it } from 'vitest';
import {
  describePasteProblem,
  MAX_WRITE_CHARACTERS,
  splitForWrite,
} from '../../../../renderer/src/views/terminals/terminal-input';

describe('describePasteProblem', () => {
  it('lets a paste with a delay from 0 to 10,000 ms through', () => {
    expect(describePasteProblem('reboot\n', 0)).toBeUndefined();
    expect(describePasteProblem('reboot\n', 10_000)).toBeUndefined();
  });

  it('says the delay is wrong when its field was emptied, is fractional or is out of range', () => {
    for (const delay of [null, undefined, '', 12.5, -1, 10_001, Number.NaN]) {
      expect(describePasteProblem('reboot\n', delay)).toMatch(
        /paste delay must be a whole number .* 0 to 10,000/,
      );
    }
  });

  it('says a paste over the limit is too long, with its length', () => {
    expect(describePasteProblem('x'.repeat(MAX_WRITE_CHARACTERS + 5), 50)).toBe(
      'Not pasted: 1,000,005 characters is more than a console paste takes at once (1,000,000).',
    );
  });
});

describe('splitForWrite', () => {
  it('keeps text within the limit as one piece', () => {
    expect(splitForWrite('uname -a\r', 10)).toEqual(['uname -a\r']);
  });

  it('cuts longer text into pieces of at most the limit that join back to it', () => {
    const text = 'abcdefghij'.repeat(25);
    const pieces = splitForWrite(text, 40);
    expect(pieces.every((piece) => piece.length <= 40)).toBe(true);
    expect(pieces.join('')).toBe(text);
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    const text = 'ab😀cd😀';
    const pieces = splitForWrite(text, 3);
    expect(pieces.join('')).toBe(text);
    // A lone half of a pair would not survive UTF-8: each piece must.
    const roundTrip = (piece: string) => new TextDecoder().decode(new TextEncoder().encode(piece));
    expect(pieces.map(roundTrip)).toEqual(pieces);
  });
});
