import { describe, expect, it } from 'vitest';
import {
  isCommissioningPath,
  parseCommissioningPath,
} from '../../../../renderer/src/views/wizards/commissioning-routes';
import { formatValue, outcomeTone } from '../../../../renderer/src/views/wizards/format';
import {
  rfChartSeries,
  scanChannels,
  scanPoints,
} from '../../../../renderer/src/views/diagnostics/rf-series';
import { decodeBase64 } from '../../../../renderer/src/views/report/report-download';

describe('commissioning routes', () => {
  it('reads a wizard route after the gateway id', () => {
    expect(parseCommissioningPath(['wizard', 'cellular'])).toEqual({ kind: 'wizard', name: 'cellular' });
  });

  it('reads the diagnostics route', () => {
    expect(parseCommissioningPath(['diagnostics'])).toEqual({ kind: 'diagnostics' });
  });

  it('leaves an unknown wizard and the console to the gateway page', () => {
    expect(isCommissioningPath(['wizard', 'teleport'])).toBe(false);
    expect(isCommissioningPath(['console'])).toBe(false);
  });
});

describe('values in a diff', () => {
  it('says yes and no for switches, (none) for null and JSON for lists', () => {
    expect([true, false, null, ['a']].map(formatValue)).toEqual(['yes', 'no', '(none)', '["a"]']);
  });

  it('marks a rollback as a warning and a failed rollback as danger', () => {
    expect(outcomeTone('rolled-back')).toBe('warn');
    expect(outcomeTone('rollback-failed')).toBe('danger');
  });
});

describe('RF and spectral scan plots', () => {
  const readings = [
    { at: 1_000, signalStrength: -80, sinr: 5, rsrq: -12, ecio: -8 },
    { at: 4_000, signalStrength: -70, sinr: 9, rsrq: -10, ecio: -6 },
  ];

  it('plots a figure beside a flat line at the best value seen', () => {
    expect(rfChartSeries(readings, 'signalStrength', -70)).toEqual({
      labels: ['Now', 'Best seen'],
      tags: [{}, {}],
      times: [1, 4],
      values: [
        [-80, -70],
        [-70, -70],
      ],
    });
  });

  it('keeps only the scan channels with a frequency and both levels', () => {
    const results = {
      channels: [{ frequency: 1, rssiMax: -90, rssiAverage: -100 }, { frequency: 2 }, 'noise'],
    };
    expect(scanChannels(results)).toEqual([{ frequency: 1, rssiMax: -90, rssiAverage: -100 }]);
    expect(scanChannels({ status: 'IN_PROGRESS' })).toEqual([]);
  });

  it('draws the strongest level at the top and clamps levels outside the range', () => {
    expect(scanPoints([-40, -140, 0], { width: 100, height: 50 }, { min: -140, max: -40 })).toBe(
      '0.0,0.0 50.0,50.0 100.0,0.0',
    );
  });
});

describe('report download', () => {
  it('decodes the base64 document the channel returns', () => {
    expect(new TextDecoder().decode(decodeBase64(Buffer.from('%PDF-1.7').toString('base64')))).toBe(
      '%PDF-1.7',
    );
  });
});
