import { describe, expect, it } from 'vitest';
import { diffRecords, formatDiffValue } from '../../../../renderer/src/lib/components/diff-view';

describe('diffRecords', () => {
  it('lists only the fields that differ, nested ones by dotted path', () => {
    const before = {
      rxDelay: 1,
      adrNbTransRanges: { '2': { minNbTrans: 1, maxNbTrans: 1 } },
      fcntCheck: true,
    };
    const after = {
      rxDelay: 1,
      adrNbTransRanges: { '2': { minNbTrans: 1, maxNbTrans: 3 } },
      fcntCheck: true,
    };
    expect(diffRecords(before, after)).toEqual([
      { path: 'adrNbTransRanges.2.maxNbTrans', before: 1, after: 3 },
    ]);
  });

  it('reports a data rate added to the ranges and orders data rates numerically', () => {
    const changes = diffRecords(
      { ranges: { '10': { minNbTrans: 1, maxNbTrans: 1 } } },
      { ranges: { '2': { minNbTrans: 2, maxNbTrans: 2 }, '10': { minNbTrans: 1, maxNbTrans: 1 } } },
    );
    expect(changes).toEqual([
      { path: 'ranges.2', before: undefined, after: { minNbTrans: 2, maxNbTrans: 2 } },
    ]);
  });

  it('skips ignored top-level keys', () => {
    expect(
      diffRecords({ createdTime: 1, name: 'a' }, { createdTime: 2, name: 'a' }, ['createdTime']),
    ).toEqual([]);
  });

  it('shows an absent value as not set', () => {
    expect(formatDiffValue(undefined)).toBe('(not set)');
    expect(formatDiffValue(null)).toBe('null');
  });
});
