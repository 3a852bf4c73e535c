import { describe, expect, it } from 'vitest';
import { isMultiLinePaste, readPasteLines } from '../../../../renderer/src/views/terminals/paste-lines';

describe('readPasteLines', () => {
  it('counts lines ended by LF, CR LF or CR, a final line break starting none', () => {
    expect(readPasteLines('a\nb\r\nc\rd\n').count).toBe(4);
  });

  it('keeps the first three lines to show', () => {
    expect(readPasteLines('one\ntwo\nthree\nfour').first).toEqual(['one', 'two', 'three']);
  });

  it('counts nothing in an empty paste and one line in a word', () => {
    expect([readPasteLines('').count, readPasteLines('uptime').count]).toEqual([0, 1]);
  });
});

describe('isMultiLinePaste', () => {
  it('is true for two lines, not for one line with its Enter', () => {
    expect([isMultiLinePaste('reboot\nuptime'), isMultiLinePaste('uptime\n')]).toEqual([true, false]);
  });
});
