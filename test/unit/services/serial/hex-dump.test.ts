import { describe, expect, it } from 'vitest';
import { formatHexDump } from '../../../../electron/services/serial/hex-dump';

describe('formatHexDump', () => {
  it('formats bytes like hexdump -C, with non-printables as dots', () => {
    expect(formatHexDump(Buffer.from('login: root\r\nPassword: '))).toBe(
      [
        '00000000  6c 6f 67 69 6e 3a 20 72  6f 6f 74 0d 0a 50 61 73  |login: root..Pas|',
        '00000010  73 77 6f 72 64 3a 20                              |sword: |',
      ].join('\n'),
    );
  });

  it('starts addresses at the given offset', () => {
    expect(formatHexDump(new Uint8Array([0xff]), 0x1f0)).toBe(
      '000001f0  ff                                                |.|',
    );
  });

  it('returns an empty string for no bytes', () => {
    expect(formatHexDump(new Uint8Array())).toBe('');
  });
});
