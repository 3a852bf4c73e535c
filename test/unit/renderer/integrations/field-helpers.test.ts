import { describe, expect, it } from 'vitest';
import { parseNumberText, formatNumberText } from '../../../../renderer/src/lib/components/number-field';
import { checkPemText } from '../../../../renderer/src/lib/components/pem-field';

describe('parseNumberText', () => {
  it('leaves an empty field out', () => {
    expect(parseNumberText('  ')).toBeUndefined();
  });

  it('reads a typed number', () => {
    expect(parseNumberText(' 1883 ')).toBe(1883);
    expect(parseNumberText('-1')).toBe(-1);
  });

  it('turns text that is not a number into NaN so the schema can name the field', () => {
    expect(parseNumberText('12a')).toBeNaN();
  });

  it('writes nothing for a missing value', () => {
    expect(formatNumberText(null)).toBe('');
    expect(formatNumberText(7)).toBe('7');
  });
});

describe('checkPemText', () => {
  it('accepts a PEM block and an empty field', () => {
    expect(checkPemText('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')).toBeNull();
    expect(checkPemText('')).toBeNull();
  });

  it('says what is wrong with text that is not PEM', () => {
    expect(checkPemText('MIIBxyz')).toMatch(/PEM form/);
  });
});
