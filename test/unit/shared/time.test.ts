import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewaySchema, KnownServerTimeSchema, ServerTimeSchema } from '../../../electron/shared/api';
import {
  describeTimeZone,
  formatReportDate,
  formatReportDateTime,
  formatVisitTime,
} from '../../../electron/shared/report/report-time';
import { format } from '../../../electron/shared/format';
import { isServerTime, LATEST_SERVER_TIME_MS, toIsoTime, UNKNOWN_TIME } from '../../../electron/shared/time';
import { makeGateway } from '../../helpers/factories';

/** Numbers a hostile server sends for a time: past Date's range, fractions, negatives, huge, not finite. */
const hostileTime = fc.oneof(
  fc.constantFrom(
    9e15,
    8.64e15 + 1,
    -8.64e15 - 1,
    1e300,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER,
    LATEST_SERVER_TIME_MS + 1,
  ),
  fc.double({ noNaN: false }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
);

describe('time formatters given hostile times', () => {
  it('never throw, and say "unknown time" for what a Date cannot hold', () => {
    fc.assert(
      fc.property(hostileTime, (at) => {
        const formatted = [
          format.dateTime(at),
          format.time(at),
          formatReportDateTime(at, 'UTC'),
          formatReportDate(at, 'UTC'),
          formatVisitTime(at, 0, 'UTC'),
          describeTimeZone(at, 'Europe/Berlin'),
          format.dateTime(at, { seconds: true }),
          format.relative(at, 1_700_000_000_000),
          toIsoTime(at) ?? '',
        ];
        if (!Number.isFinite(at) || Math.abs(at) > 8.64e15)
          expect(formatted.slice(0, 3).concat(formatted.slice(6, 8))).toEqual(Array(5).fill(UNKNOWN_TIME));
        for (const text of formatted) expect(text).not.toMatch(/Invalid Date|NaN/);
      }),
    );
  });

  it('write 9e15, the last seen time a hostile server sent, as "unknown time"', () => {
    expect(formatReportDateTime(9e15)).toBe(UNKNOWN_TIME);
    expect(format.dateTime(9e15)).toBe(UNKNOWN_TIME);
    expect(format.time(9e15)).toBe(UNKNOWN_TIME);
    expect(toIsoTime(9e15)).toBeUndefined();
  });

  it('still write a time in range as before', () => {
    expect(formatReportDateTime(Date.UTC(2026, 10, 25, 14, 48), 'UTC')).toBe('25 Nov 2026 14:48');
    expect(toIsoTime(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('ServerTimeSchema', () => {
  it('keeps a time from 1970 to the end of year 9999 and reads any other number as null (unknown)', () => {
    fc.assert(
      // JSON carries no NaN or Infinity: every number a server can send is finite.
      fc.property(hostileTime.filter(Number.isFinite), (at) => {
        const parsed = ServerTimeSchema.parse(at);
        expect(parsed).toBe(isServerTime(at) ? at : null);
        if (parsed !== null) expect(toIsoTime(parsed)).toBeDefined();
      }),
    );
  });

  it('reads a gateway with lastSeenTime 9e15 and createdTime 1e300 with both unknown, the rest kept', () => {
    const gateway = GatewaySchema.parse({ ...makeGateway(1), lastSeenTime: 9e15, createdTime: 1e300 });
    expect(gateway).toEqual({ ...makeGateway(1), lastSeenTime: null, createdTime: null });
    expect(GatewaySchema.parse(JSON.parse(JSON.stringify(gateway)))).toEqual(gateway);
  });

  it('still refuses a time that is not a number, naming the field', () => {
    const result = GatewaySchema.safeParse({ ...makeGateway(1), lastSeenTime: 'yesterday' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['lastSeenTime']);
  });
});

describe('KnownServerTimeSchema', () => {
  it('refuses a time out of range where unknown cannot be said, with the range in words', () => {
    const result = KnownServerTimeSchema.safeParse(9e15);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'must be a time from 1970 to the end of year 9999 in milliseconds',
    );
  });
});
