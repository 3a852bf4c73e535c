import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  format,
  formatterFor,
  setFormatLocale,
  UNKNOWN_DURATION,
  UNKNOWN_NUMBER,
} from '../../../../electron/shared/format';
import { resolveLanguage, translatorFor } from '../../../../electron/shared/i18n';

/** 26 November 2026, 21:37:54 UTC: 22:37:54 in Paris (winter time, UTC+01:00). */
const AT = Date.UTC(2026, 10, 26, 21, 37, 54);
const PARIS = 'Europe/Paris';

/** Intl writes a narrow no-break space (U+202F) or no-break space (U+00A0) in some locales: compare as spaces. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('Formatter dates and times', () => {
  it.each([
    ['en-GB', '26 Nov 2026, 22:37', '26 Nov 2026', '22:37'],
    ['en-US', 'Nov 26, 2026, 10:37 PM', 'Nov 26, 2026', '10:37 PM'],
    ['fr-FR', '26 nov. 2026, 22:37', '26 nov. 2026', '22:37'],
    ['de-DE', '26.11.2026, 22:37', '26.11.2026', '22:37'],
    ['es-ES', '26 nov 2026, 22:37', '26 nov 2026', '22:37'],
  ])('writes a moment in %s as that locale writes it, in the zone given', (locale, dateTime, date, time) => {
    const formatter = formatterFor({ locale, timeZone: PARIS });
    expect(spaced(formatter.dateTime(AT))).toBe(dateTime);
    expect(spaced(formatter.date(AT))).toBe(date);
    expect(spaced(formatter.time(AT))).toBe(time);
  });

  it('adds the seconds only when asked', () => {
    const formatter = formatterFor({ locale: 'en-GB', timeZone: PARIS });
    expect(formatter.time(AT, { seconds: true })).toBe('22:37:54');
    expect(formatter.dateTime(AT, { seconds: true })).toBe('26 Nov 2026, 22:37:54');
  });

  it('writes the same moment as another day in a zone past midnight', () => {
    expect(formatterFor({ locale: 'en-GB', timeZone: 'Asia/Tokyo' }).dateTime(AT)).toBe('27 Nov 2026, 06:37');
  });

  it('writes the first and last times a server may name', () => {
    const formatter = formatterFor({ locale: 'en-GB', timeZone: 'UTC' });
    expect(formatter.dateTime(0)).toBe('1 Jan 1970, 00:00');
    expect(formatter.dateTime(Date.UTC(9999, 11, 31, 23, 59, 59, 999))).toBe('31 Dec 9999, 23:59');
  });

  it("falls back to this computer's locale and zone for ones Intl does not know, without throwing", () => {
    const formatter = formatterFor({ locale: 'not a locale!', timeZone: 'Nowhere/Atlantis' });
    expect(formatter.locale).toBe(formatterFor().locale);
    expect(formatter.timeZone).toBe(formatterFor().timeZone);
    expect(formatter.dateTime(AT)).toBe(formatterFor().dateTime(AT));
  });

  it('gives the same formatter for the same locale and zone', () => {
    expect(formatterFor({ locale: 'fr-FR', timeZone: PARIS })).toBe(
      formatterFor({ locale: 'fr-FR', timeZone: PARIS }),
    );
  });
});

describe('Formatter relative times', () => {
  const now = AT;
  it.each([
    ['en-GB', now - 10_000, 'now'],
    ['en-GB', now - 5 * 60_000, '5 minutes ago'],
    ['en-GB', now + 4 * 60_000, 'in 4 minutes'],
    ['en-GB', now - 3 * 3_600_000, '3 hours ago'],
    ['en-GB', now - 86_400_000, 'yesterday'],
    ['en-GB', now - 3 * 86_400_000, '3 days ago'],
    ['fr-FR', now - 5 * 60_000, 'il y a 5 minutes'],
    ['de-DE', now - 3 * 3_600_000, 'vor 3 Stunden'],
    ['es-ES', now + 4 * 60_000, 'dentro de 4 minutos'],
    ['en-US', now - 59_999, 'now'],
    ['en-US', now - 60_000, '1 minute ago'],
  ])('in %s, %d reads "%s"', (locale, at, text) => {
    expect(formatterFor({ locale, timeZone: PARIS }).relative(at, now)).toBe(text);
  });

  it('gives the date itself past 60 days', () => {
    expect(formatterFor({ locale: 'en-GB', timeZone: PARIS }).relative(now - 61 * 86_400_000, now)).toBe(
      '26 Sept 2026',
    );
  });
});

describe('Formatter time zone label', () => {
  it('names the zone with its offset at that moment, summer time included', () => {
    const formatter = formatterFor({ locale: 'en-GB', timeZone: PARIS });
    expect(formatter.timeZoneLabel(AT)).toBe('Times in Europe/Paris (UTC+01:00)');
    expect(formatter.timeZoneLabel(Date.UTC(2026, 6, 1))).toBe('Times in Europe/Paris (UTC+02:00)');
    expect(formatterFor({ locale: 'en-GB', timeZone: 'UTC' }).timeZoneLabel(AT)).toBe('Times in UTC');
    expect(formatterFor({ locale: 'en-GB', timeZone: 'Europe/London' }).timeZoneLabel(AT)).toBe(
      'Times in Europe/London (UTC+00:00)',
    );
  });
});

describe('Formatter date fields', () => {
  const formatter = formatterFor({ locale: 'en-US', timeZone: PARIS });

  it('writes year first in every locale, in the zone, to the minute', () => {
    expect(formatter.dateTimeField(AT)).toBe('2026-11-26 22:37');
    expect(formatterFor({ locale: 'de-DE', timeZone: 'Asia/Tokyo' }).dateTimeField(AT)).toBe(
      '2026-11-27 06:37',
    );
  });

  it('reads back what it writes, and the ISO form with its T', () => {
    const minute = AT - (AT % 60_000);
    expect(formatter.parseDateTimeField('2026-11-26 22:37')).toBe(minute);
    expect(formatter.parseDateTimeField(' 2026-11-26T22:37 ')).toBe(minute);
    expect(formatter.parseDateTimeField('2026-11-26')).toBe(Date.UTC(2026, 10, 25, 23, 0));
  });

  it('reads a time in summer time at the summer offset', () => {
    expect(formatter.parseDateTimeField('2026-07-01 12:00')).toBe(Date.UTC(2026, 6, 1, 10, 0));
  });

  it('refuses text that names no moment', () => {
    for (const text of [
      '',
      'yesterday',
      '26/11/2026',
      '2026-02-30 10:00',
      '2026-13-01',
      '2026-11-26 24:00',
      '2026-11-26 10:60',
    ])
      expect(formatter.parseDateTimeField(text)).toBeUndefined();
  });

  it('round-trips any minute from 1970 to 9999 in several zones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Math.floor(Date.UTC(9999, 11, 31, 23, 59) / 60_000) }),
        fc.constantFrom(PARIS, 'UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'),
        (minutes, timeZone) => {
          const zoned = formatterFor({ locale: 'en-GB', timeZone });
          const at = minutes * 60_000;
          const text = zoned.dateTimeField(at);
          // A wall-clock time the fall-back hour repeats names its first occurrence: the same text either way.
          expect(zoned.dateTimeField(zoned.parseDateTimeField(text))).toBe(text);
        },
      ),
    );
  });
});

describe('Formatter numbers and sizes', () => {
  it.each([
    ['en-GB', '1,234.57', '42%', '1.5 kB', '-97.5 dBm'],
    ['en-US', '1,234.57', '42%', '1.5 kB', '-97.5 dBm'],
    ['fr-FR', '1 234,57', '42 %', '1,5 ko', '-97,5 dBm'],
    ['de-DE', '1.234,57', '42 %', '1,5 kB', '-97,5 dBm'],
    ['es-ES', '1234,57', '42 %', '1,5 kB', '-97,5 dBm'],
  ])('writes numbers in %s as that locale writes them', (locale, number, percent, bytes, level) => {
    const formatter = formatterFor({ locale });
    expect(spaced(formatter.number(1234.567))).toBe(number);
    expect(spaced(formatter.percent(0.42))).toBe(percent);
    expect(spaced(formatter.bytes(1500))).toBe(bytes);
    expect(spaced(formatter.decibelMilliwatts(-97.46))).toBe(level);
  });

  it('writes sizes in SI units, moving up a unit at 1000 after rounding', () => {
    const formatter = formatterFor({ locale: 'en-GB' });
    expect(formatter.bytes(0)).toBe('0 bytes');
    expect(formatter.bytes(1)).toBe('1 byte');
    expect(formatter.bytes(999)).toBe('999 bytes');
    expect(formatter.bytes(1000)).toBe('1 kB');
    expect(formatter.bytes(999_960)).toBe('1 MB');
    expect(formatter.bytes(2_345_678)).toBe('2.3 MB');
    expect(formatter.bytes(5e12)).toBe('5 TB');
    expect(formatter.bytes(5e15)).toBe('5,000 TB');
  });

  it('writes dB to a tenth', () => {
    expect(formatterFor({ locale: 'en-GB' }).decibels(7.46)).toBe('7.5 dB');
  });
});

describe('Formatter durations', () => {
  it.each([
    ['en-US', 300, '0.3 sec'],
    ['en-US', 45_000, '45 sec'],
    ['en-US', 59_600, '1 min'],
    ['en-US', 125_000, '2 min 5 sec'],
    ['en-US', 54_956_000, '15 hr 15 min'],
    ['en-US', 15 * 3_600_000, '15 hr'],
    ['en-US', 200_000_000, '2 days 7 hr'],
    ['fr-FR', 125_000, '2 min 5 s'],
    ['de-DE', 125_000, '2 Min., 5 Sek.'],
    ['es-ES', 45_000, '45 s'],
  ])('in %s, %d ms reads "%s"', (locale, ms, text) => {
    expect(spaced(formatterFor({ locale }).duration(ms))).toBe(text);
  });
});

describe('Formatter given hostile input', () => {
  const hostile = fc.oneof(
    fc.constantFrom(NaN, Infinity, -Infinity, 9e15, -9e15, 1e300, -1, Number.MAX_VALUE),
    fc.double({ noNaN: false }),
  );

  it('never throws, never says NaN or Invalid Date, and says unknown for what is no time', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom('en-GB', 'en-US', 'fr-FR', 'de-DE', 'es-ES'), (value, locale) => {
        const formatter = formatterFor({ locale, timeZone: PARIS });
        const texts = [
          formatter.dateTime(value),
          formatter.date(value),
          formatter.time(value),
          formatter.relative(value, AT),
          formatter.relative(AT, value),
          formatter.timeZoneLabel(value),
          formatter.dateTimeField(value),
          formatter.number(value),
          formatter.percent(value),
          formatter.bytes(value),
          formatter.decibelMilliwatts(value),
          formatter.decibels(value),
          formatter.duration(value),
        ];
        for (const text of texts) expect(text).not.toMatch(/NaN|Invalid Date|Infinity|∞/);
        const words = translatorFor(resolveLanguage([locale]));
        if (!Number.isFinite(value) || Math.abs(value) > 8.64e15) {
          expect(formatter.dateTime(value)).toBe(words('common:unknownTime'));
          expect(formatter.date(value)).toBe(words('common:unknownDate'));
          expect(formatter.relative(value, AT)).toBe(words('common:unknownTime'));
          expect(formatter.dateTimeField(value)).toBe('');
        }
        if (!Number.isFinite(value)) expect(formatter.number(value)).toBe(words('common:unknown'));
      }),
    );
  });

  it('says a negative duration or size is unknown', () => {
    const formatter = formatterFor({ locale: 'en-GB' });
    expect(formatter.duration(-1)).toBe(UNKNOWN_DURATION);
    expect(formatter.bytes(-1)).toBe(UNKNOWN_NUMBER);
  });

  it('never throws on text that is no date', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const at = formatterFor({ locale: 'en-GB', timeZone: PARIS }).parseDateTimeField(text);
        if (at !== undefined) expect(Number.isFinite(at)).toBe(true);
      }),
    );
  });
});

describe('format, the current formatter', () => {
  it('writes for the locale and zone setFormatLocale last chose', () => {
    setFormatLocale({ locale: 'de-DE', timeZone: PARIS });
    expect(format.dateTime(AT)).toBe('26.11.2026, 22:37');
    expect(format.timeZone).toBe(PARIS);
    setFormatLocale({ locale: 'en-GB', timeZone: 'UTC' });
    expect(format.dateTime(AT)).toBe('26 Nov 2026, 21:37');
    expect(format.locale).toBe('en-GB');
    setFormatLocale({});
    expect(format.locale).toBe(formatterFor().locale);
  });
});
