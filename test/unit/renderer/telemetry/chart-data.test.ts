import { describe, expect, it } from 'vitest';
import {
  buildSamplesCsv,
  describeTags,
  groupSamplesBySeries,
  toFileName,
  type ChartSample,
} from '../../../../renderer/src/lib/components/chart-data';

function buildSample(timeMs: number, value: number, tags?: Record<string, string>): ChartSample {
  return tags ? { timeMs, value, tags } : { timeMs, value };
}

describe('groupSamplesBySeries', () => {
  it('makes one series per tag combination on one ascending time axis in seconds', () => {
    const grouped = groupSamplesBySeries([
      buildSample(2000, 5, { gatewayId: 'b' }),
      buildSample(1000, 1, { gatewayId: 'a' }),
      buildSample(2000, 2, { gatewayId: 'a' }),
    ]);
    expect(grouped.labels).toEqual(['gatewayId=b', 'gatewayId=a']);
    expect(grouped.times).toEqual([1, 2]);
    expect(grouped.values).toEqual([
      [null, 5],
      [1, 2],
    ]);
  });

  it('treats the same tags in another key order as the same series', () => {
    const grouped = groupSamplesBySeries([
      buildSample(1000, 1, { period: '5m', gatewayId: 'a' }),
      buildSample(2000, 2, { gatewayId: 'a', period: '5m' }),
    ]);
    expect(grouped.labels).toEqual(['gatewayId=a, period=5m']);
    expect(grouped.values).toEqual([[1, 2]]);
  });

  it('labels an untagged series with the fallback label', () => {
    const grouped = groupSamplesBySeries([buildSample(1000, 3)], 'system/cpuUsage');
    expect(grouped.labels).toEqual(['system/cpuUsage']);
    expect(grouped.tags).toEqual([{}]);
  });

  it('orders an untagged series that arrived out of order', () => {
    const grouped = groupSamplesBySeries([buildSample(3000, 3), buildSample(1000, 1), buildSample(2000, 2)]);
    expect(grouped.times).toEqual([1, 2, 3]);
    expect(grouped.values).toEqual([[1, 2, 3]]);
  });

  it('gives no series for no samples', () => {
    expect(groupSamplesBySeries([])).toEqual({ labels: [], tags: [], times: [], values: [] });
  });
});

describe('buildSamplesCsv', () => {
  it('writes a header, one line per sample and one column per tag key', () => {
    const csv = buildSamplesCsv([
      buildSample(0, 1.5, { gatewayId: 'gw-1' }),
      buildSample(300_000, 2, { gatewayId: 'gw-2', period: '5m' }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'timeMs,isoTime,value,gatewayId,period',
      '0,1970-01-01T00:00:00.000Z,1.5,gw-1,',
      '300000,1970-01-01T00:05:00.000Z,2,gw-2,5m',
      '',
    ]);
  });

  it('quotes tag values holding commas or quotes', () => {
    const csv = buildSamplesCsv([buildSample(0, 1, { gatewayId: 'a,"b"' })]);
    expect(csv.split('\r\n')[1]).toBe('0,1970-01-01T00:00:00.000Z,1,"a,""b"""');
  });

  it('writes server text a spreadsheet would run as a formula as quoted text, numbers as numbers', () => {
    const hostile = ['=HYPERLINK("http://127.0.0.1/x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'];
    const csv = buildSamplesCsv(
      hostile.map((text) => buildSample(0, -1.5, { '=key': 'x', gatewayId: text })),
    );
    expect(csv.split('\r\n')).toEqual([
      `timeMs,isoTime,value,"'=key",gatewayId`,
      ...[
        `"'=HYPERLINK(""http://127.0.0.1/x"")"`,
        `"'+1+1"`,
        `"'-2+3"`,
        `"'@SUM(A1)"`,
        `"'\tcmd"`,
        `"'\rcmd"`,
      ].map((cell) => `0,1970-01-01T00:00:00.000Z,-1.5,x,${cell}`),
      '',
    ]);
  });

  it('writes only the header for no samples', () => {
    expect(buildSamplesCsv([])).toBe('timeMs,isoTime,value\r\n');
  });
});

describe('names', () => {
  it('writes tags sorted by key', () => {
    expect(describeTags({ period: '5m', gatewayId: 'a' })).toBe('gatewayId=a, period=5m');
  });

  it('makes a file name from free text', () => {
    expect(toFileName('system', 'cpu usage/%', '2026-01-01T00:00')).toBe('system-cpu-usage-2026-01-01T00-00');
  });
});

describe('buildSamplesCsv with a time no Date holds', () => {
  it('writes the sample with its number and an empty ISO time instead of throwing', () => {
    const csv = buildSamplesCsv([buildSample(9e15, 3)]);
    expect(csv.split('\r\n')[1]).toBe('9000000000000000,,3');
  });
});
