import { describe, expect, it } from 'vitest';
import {
  checkText,
  checkWholeNumber,
  describeLength,
  INTEGER_SETTING_MAX,
} from '../../../../renderer/src/lib/components/field-checks';

const LIMIT = { min: 0, max: INTEGER_SETTING_MAX };

describe('checkWholeNumber', () => {
  it('accepts a whole number within the range', () => {
    expect(checkWholeNumber(' 77 ', LIMIT)).toBeNull();
    expect(checkWholeNumber(String(INTEGER_SETTING_MAX), LIMIT)).toBeNull();
  });

  it('refuses 99999999999999999999 as out of range, quoting it as typed', () => {
    expect(checkWholeNumber('99999999999999999999', LIMIT)).toBe(
      '99999999999999999999 is out of range: allowed from 0 to 2,147,483,647.',
    );
  });

  it('refuses a negative number as out of range', () => {
    expect(checkWholeNumber('-1', LIMIT)).toBe('-1 is out of range: allowed from 0 to 2,147,483,647.');
  });

  it('refuses a decimal or words as not a whole number', () => {
    expect(checkWholeNumber('1.5', { min: 1, max: 100 })).toBe(
      '“1.5” is not a whole number: enter one from 1 to 100.',
    );
    expect(checkWholeNumber('ten', { min: 1, max: 100 })).toContain('is not a whole number');
  });

  it('says an empty required field is required, with its range', () => {
    expect(checkWholeNumber('', { min: 8, max: 32 })).toBe('Required: a whole number from 8 to 32.');
  });

  it('lets an optional field stay empty', () => {
    expect(checkWholeNumber('  ', { min: 8, max: 32, isRequired: false })).toBeNull();
  });
});

describe('checkText', () => {
  const DESCRIPTION = { maxLength: 128, what: 'a description' };

  it('says an empty required text is required', () => {
    expect(checkText('   ', DESCRIPTION)).toBe('Required: enter a description.');
  });

  it('refuses a 129-character text as too long, not as missing', () => {
    expect(checkText('d'.repeat(129), DESCRIPTION)).toBe(
      'Too long: 129 characters, at most 128 allowed (remove 1).',
    );
  });

  it('accepts 128 characters', () => {
    expect(checkText('d'.repeat(128), DESCRIPTION)).toBeNull();
  });
});

describe('describeLength', () => {
  it('counts the characters typed against the limit', () => {
    expect(describeLength('é'.repeat(200), 128)).toBe('200 / 128 characters');
  });
});
