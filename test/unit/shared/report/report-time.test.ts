import { describe, expect, it } from 'vitest';
import {
  describeTimeZone,
  formatReportDateTime,
  formatVisitTime,
} from '../../../../electron/shared/report/report-time';

const AT = Date.UTC(2026, 10, 25, 15, 48, 20);

describe('report times', () => {
  it('writes a moment as day, month, year and a 24-hour clock, in the zone asked for', () => {
    expect(formatReportDateTime(AT, 'UTC')).toBe('25 Nov 2026 15:48');
    expect(formatReportDateTime(AT, 'America/Edmonton')).toBe('25 Nov 2026 08:48');
    expect(formatReportDateTime(Date.UTC(2026, 8, 3, 0, 5), 'UTC')).toBe('3 Sep 2026 00:05');
  });

  it('writes a time of the visit as its clock time, with its date once it is another day', () => {
    expect(formatVisitTime(AT + 60_000, AT, 'UTC')).toBe('15:49');
    expect(formatVisitTime(AT + 9 * 3_600_000, AT, 'UTC')).toBe('26 Nov 2026 00:48');
  });

  it('names the zone with its offset from UTC', () => {
    expect(describeTimeZone(AT, 'UTC')).toBe('UTC');
    expect(describeTimeZone(AT, 'Europe/Berlin')).toBe('Europe/Berlin, UTC+01:00');
    expect(describeTimeZone(Date.UTC(2026, 6, 1), 'Europe/Berlin')).toBe('Europe/Berlin, UTC+02:00');
  });
});
