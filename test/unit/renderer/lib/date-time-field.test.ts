import { describe, expect, it } from 'vitest';
import { formatterFor } from '../../../../electron/shared/format';
import { describeDateTimeField } from '../../../../renderer/src/lib/components/date-time-field';

describe('describeDateTimeField', () => {
  it("echoes a date as the locale writes it, in the formatter's zone", () => {
    const paris = { timeZone: 'Europe/Paris' };
    expect(describeDateTimeField('2026-11-26 14:05', formatterFor({ locale: 'en-US', ...paris }))).toBe(
      'Reads as Nov 26, 2026, 2:05 PM',
    );
    expect(describeDateTimeField('2026-11-26T14:05', formatterFor({ locale: 'de-DE', ...paris }))).toBe(
      'Reads as 26.11.2026, 14:05',
    );
  });

  it('says how to write a date while the field is empty or names none', () => {
    const formatter = formatterFor({ locale: 'en-GB', timeZone: 'UTC' });
    const help = 'YYYY-MM-DD HH:MM, year first, 24-hour clock: 2026-11-26 14:05';
    expect(describeDateTimeField('', formatter)).toBe(help);
    expect(describeDateTimeField('11/26/2026', formatter)).toBe(help);
    expect(describeDateTimeField('2026-02-30 10:00', formatter)).toBe(help);
  });
});
