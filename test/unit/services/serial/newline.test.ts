import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatLocalEcho,
  ReceiveNewlineTranslator,
  translateTransmitNewlines,
  withoutEscapeSequences,
} from '../../../../electron/services/serial/newline';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('translateTransmitNewlines', () => {
  it('sends Enter as CR, LF or CRLF as configured', () => {
    expect(text(translateTransmitNewlines('ls\r', 'cr'))).toBe('ls\r');
    expect(text(translateTransmitNewlines('ls\r', 'lf'))).toBe('ls\n');
    expect(text(translateTransmitNewlines('ls\r', 'crlf'))).toBe('ls\r\n');
  });

  it('turns each pasted CRLF, CR or LF into one newline', () => {
    expect(text(translateTransmitNewlines('a\r\nb\nc\rd', 'crlf'))).toBe('a\r\nb\r\nc\r\nd');
  });

  it('leaves every other byte alone', () => {
    expect([...translateTransmitNewlines(new Uint8Array([0, 3, 0x1b, 0xff]), 'lf')]).toEqual([
      0, 3, 0x1b, 0xff,
    ]);
  });
});

describe('formatLocalEcho', () => {
  it('shows Enter as a new line and Delete as an erased character', () => {
    expect(text(formatLocalEcho('ab\x7f\r'))).toBe('ab\b \b\r\n');
  });
});

describe('ReceiveNewlineTranslator', () => {
  it('passes bytes through untouched as-is', () => {
    const chunk = Buffer.from('a\rb\nc');
    expect(new ReceiveNewlineTranslator('as-is').translate(chunk)).toBe(chunk);
  });

  it('shows a lone CR as CRLF without doubling an existing CRLF', () => {
    expect(text(new ReceiveNewlineTranslator('cr-to-crlf').translate(Buffer.from('a\rb\r\nc')))).toBe(
      'a\r\nb\r\nc',
    );
  });

  it('shows a lone LF as CRLF without doubling an existing CRLF', () => {
    expect(text(new ReceiveNewlineTranslator('lf-to-crlf').translate(Buffer.from('a\nb\r\nc')))).toBe(
      'a\r\nb\r\nc',
    );
  });

  it('gives the same result however the stream is split into chunks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('cr-to-crlf' as const, 'lf-to-crlf' as const),
        fc.array(fc.constantFrom('a', '\r', '\n', 'z'), { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 10 }),
        (mode, characters, cuts) => {
          const input = Buffer.from(characters.join(''), 'latin1');
          const whole = text(new ReceiveNewlineTranslator(mode).translate(input));
          const translator = new ReceiveNewlineTranslator(mode);
          let pieces = '';
          for (let start = 0, cut = 0; start < input.length; cut += 1) {
            const end = start + cuts[cut % cuts.length]!;
            pieces += text(translator.translate(input.subarray(start, end)));
            start = end;
          }
          expect(pieces).toBe(whole);
        },
      ),
    );
  });
});

describe('withoutEscapeSequences', () => {
  it('drops the terminal replies and key sequences and keeps the text around them, UTF-8 included', () => {
    const typed =
      'l\x1b[>0;276;0cs\x1b[?1;2c \x1b[0n-\x1b[12;40R\x1b[A\x1bOP\x1b]11;rgb:0000/0000/0000\x07' +
      '\x1bP1$r0m\x1b\\ä\x1b';
    expect(withoutEscapeSequences(typed).toString('utf8')).toBe('ls -ä');
  });

  it('hands text without escape sequences back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const clean = text.replaceAll('\x1b', '');
        expect(withoutEscapeSequences(clean).toString('utf8')).toBe(
          Buffer.from(clean, 'utf8').toString('utf8'),
        );
      }),
    );
  });
});
