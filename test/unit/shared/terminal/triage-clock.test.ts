import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCEPTANCE_TABLE } from '../../../../electron/services/acceptance';
import { t } from '../../../../electron/shared/i18n';
import {
  assessClock,
  clockSkewSeconds,
  TRIAGE_CLOCK_SKEW_SECONDS,
} from '../../../../electron/shared/terminal/triage-clock';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import { parseEpochSeconds } from '../../../../electron/shared/terminal/triage-parsers';
import { triageSentenceWords } from '../../../../electron/shared/terminal/triage-words';
import { VisitEntrySchema } from '../../../../electron/shared/visit/journal-entry';

const LAPTOP_TIME = Date.UTC(2026, 10, 28, 1, 30, 0);

/** What `date +%s` answered on a gateway `skewSeconds` from the laptop, read when the laptop said LAPTOP_TIME. */
function dateReading(skewSeconds: number) {
  return {
    command: 'date +%s',
    output: `${LAPTOP_TIME / 1000 + skewSeconds}\n`,
    exitCode: 0,
    answeredAt: LAPTOP_TIME,
  };
}

/** The clock part in English words. */
function clockInWords(reading: Parameters<typeof assessClock>[0]) {
  const part = assessClock(reading);
  return { status: part.status, words: triageSentenceWords(part.detail, t) };
}

describe('parseEpochSeconds', () => {
  it('reads the epoch seconds BusyBox prints, CR-LF and surrounding blank lines included', () => {
    expect(parseEpochSeconds('1795829400\r\n')).toBe(1_795_829_400_000);
    expect(parseEpochSeconds('\n  1795829400  \n\n')).toBe(1_795_829_400_000);
  });

  it('reads a clock that was never set (1970) as a time, not as garbage', () => {
    expect(parseEpochSeconds('0\n')).toBe(0);
    expect(parseEpochSeconds('1234\n')).toBe(1_234_000);
  });

  it('takes the last line when the shell printed something before the time', () => {
    expect(parseEpochSeconds('-sh: warning: something\n1795829400\n')).toBe(1_795_829_400_000);
  });

  it.each([
    ['empty', ''],
    ['only blank lines', '\r\n\r\n'],
    ['words', 'Sat Nov 28 01:30:00 UTC 2026\n'],
    ['a format date did not expand', '%s\n'],
    ['negative', '-5\n'],
    ['a fraction', '1795829400.5\n'],
    ['a number with words', '1795829400 seconds\n'],
    ['past year 9999', '253402300800\n'],
    ['huge', `${'9'.repeat(40)}\n`],
    ['half a megabyte of digits', '7'.repeat(600_000)],
  ])('gives no time for %s', (_, text) => {
    expect(parseEpochSeconds(text)).toBeUndefined();
  });
});

describe('the clock part of the triage', () => {
  it.each([
    [119, 'ok', "The gateway's clock is 1 min 59 s behind this laptop's."],
    [120, 'ok', "The gateway's clock is 2 min 0 s behind this laptop's."],
    [121, 'fault', "The gateway's clock is 2 min 1 s behind this laptop's."],
  ] as const)('calls a clock %s s behind %s', (seconds, status, words) => {
    expect(clockInWords(dateReading(-seconds))).toEqual({ status, words });
  });

  it.each([
    [120, 'ok'],
    [121, 'fault'],
  ] as const)('judges a clock ahead by the same limit: %s s is %s', (seconds, status) => {
    expect(clockInWords(dateReading(seconds)).status).toBe(status);
  });

  it('names the skew in its two largest units, ahead or behind', () => {
    expect(clockInWords(dateReading(-432)).words).toBe(
      "The gateway's clock is 7 min 12 s behind this laptop's.",
    );
    expect(clockInWords(dateReading(45)).words).toBe("The gateway's clock is 45 s ahead of this laptop's.");
    expect(clockInWords(dateReading(3 * 3_600 + 5 * 60 + 9)).words).toBe(
      "The gateway's clock is 3 h 5 min ahead of this laptop's.",
    );
    expect(clockInWords(dateReading(-(86_400 + 2 * 3_600))).words).toBe(
      "The gateway's clock is 1 day 2 h behind this laptop's.",
    );
    expect(clockInWords(dateReading(0)).words).toBe("The gateway's clock matches this laptop's.");
  });

  it('names a clock left at 1970 as days behind, a fault', () => {
    const part = clockInWords({ output: '86400\n', exitCode: 0, answeredAt: LAPTOP_TIME });
    expect(part).toEqual({
      status: 'fault',
      words: "The gateway's clock is 20784 days 1 h behind this laptop's.",
    });
  });

  it('keeps the gateway time and the laptop time it is compared with', () => {
    expect(assessClock(dateReading(-432)).clock).toEqual({
      gatewayTime: LAPTOP_TIME - 432_000,
      laptopTime: LAPTOP_TIME,
    });
  });

  it('rounds the difference to the nearest second, as date +%s prints whole seconds', () => {
    expect(clockSkewSeconds({ gatewayTime: 1_000_000, laptopTime: 1_000_499 })).toBe(0);
    expect(clockSkewSeconds({ gatewayTime: 1_000_000, laptopTime: 1_000_500 })).toBe(-1);
    expect(clockSkewSeconds({ gatewayTime: 1_121_000, laptopTime: 1_000_000 })).toBe(121);
  });

  it('is unknown, saying what the gateway printed, when the answer is not a time', () => {
    expect(clockInWords({ output: 'date: invalid date\n', exitCode: 0, answeredAt: LAPTOP_TIME })).toEqual({
      status: 'unknown',
      words: 'Clock unknown: the gateway answered “date: invalid date” instead of its time.',
    });
    expect(clockInWords({ output: '', exitCode: 0, answeredAt: LAPTOP_TIME })).toEqual({
      status: 'unknown',
      words: 'Clock unknown: the gateway printed no time.',
    });
    expect(assessClock({ output: '', exitCode: 0, answeredAt: LAPTOP_TIME }).clock).toBeUndefined();
  });

  it('is unknown when date failed, timed out, or was not run', () => {
    expect(clockInWords({ output: '1795829400\n', exitCode: 1, answeredAt: LAPTOP_TIME }).status).toBe(
      'unknown',
    );
    expect(clockInWords({ output: '', exitCode: null }).words).toBe(
      "Clock unknown: the gateway's time was not read.",
    );
    expect(clockInWords(undefined).status).toBe('unknown');
  });

  it('is judged by the acceptance table default, so the panel and the offline card agree', () => {
    expect(TRIAGE_CLOCK_SKEW_SECONDS).toBe(DEFAULT_ACCEPTANCE_TABLE.clockSkewSeconds);
  });
});

describe('the clock in the health panel', () => {
  it('lists a skewed clock among the faults and keeps the reading', () => {
    const health = assessHealth({ clock: dateReading(-432) });
    expect(health.findings[0]).toEqual({
      status: 'fault',
      text: { key: 'triage:clockBehindMinutes', params: { minutes: 7, seconds: 12 } },
    });
    expect(health.clock).toEqual({ gatewayTime: LAPTOP_TIME - 432_000, laptopTime: LAPTOP_TIME });
  });

  it('takes a limit of its own when given one', () => {
    const health = assessHealth({ clock: dateReading(-432) }, { clockSkewLimitSeconds: 600 });
    expect(health.findings.find((finding) => finding.status === 'fault')).toBeUndefined();
  });

  it('keeps no clock when the triage did not read one', () => {
    expect(assessHealth({}).clock).toBeUndefined();
  });
});

describe('a triage in the visit journal', () => {
  /** A triage entry as the journal keeps it, its health read from `readings`. */
  function triageEntry(readings: Parameters<typeof assessHealth>[0]) {
    return {
      kind: 'triage' as const,
      result: {
        terminalId: 'serial-1',
        title: 'kona-roof',
        startedAt: LAPTOP_TIME - 20_000,
        finishedAt: LAPTOP_TIME,
        outcome: 'complete' as const,
        commands: [],
        health: assessHealth(readings),
      },
    };
  }

  it('keeps the clock it read', () => {
    const parsed = VisitEntrySchema.parse(triageEntry({ clock: dateReading(-432) }));
    expect(parsed.kind === 'triage' && parsed.result.health.clock).toEqual({
      gatewayTime: LAPTOP_TIME - 432_000,
      laptopTime: LAPTOP_TIME,
    });
  });

  it('still reads a triage journaled before the triage read the clock', () => {
    const { clock, ...oldHealth } = assessHealth({});
    expect(clock).toBeUndefined();
    const old = triageEntry({});
    expect(VisitEntrySchema.safeParse({ ...old, result: { ...old.result, health: oldHealth } }).success).toBe(
      true,
    );
  });
});
