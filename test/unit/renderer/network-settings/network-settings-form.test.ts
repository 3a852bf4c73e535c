import { describe, expect, it } from 'vitest';
import {
  NetworkSettingsWriteSchema,
  type NetworkSettings,
} from '../../../../electron/shared/api/network-settings';
import { bodyOf, createDraft } from '../../../../renderer/src/views/network-settings/network-settings-form';

function buildRecord(overrides: Partial<NetworkSettings> = {}): NetworkSettings {
  return {
    entityId: { entityType: 'APPLICATION', id: 'app-1' },
    rxDelay: 1,
    adrMinDr: null,
    adrConservativeSlope: false,
    adrNbTransRanges: { '0': { minNbTrans: 1, maxNbTrans: 2 } },
    ...overrides,
  } as NetworkSettings;
}

describe('network settings body', () => {
  it('sends the record as read when nothing was edited, without the removed NbTrans fields', () => {
    const record = buildRecord({ adrMaxNbTrans: 3, adrMinNbTrans: 1 } as Partial<NetworkSettings>);
    const body = bodyOf(record, createDraft(record));
    expect(body).not.toHaveProperty('adrMaxNbTrans');
    expect(body).not.toHaveProperty('adrMinNbTrans');
    expect(body).toMatchObject({
      rxDelay: 1,
      adrMinDr: null,
      adrNbTransRanges: { '0': { minNbTrans: 1, maxNbTrans: 2 } },
    });
    expect(NetworkSettingsWriteSchema.safeParse(body).success).toBe(true);
  });

  it('sends null for an emptied nullable field and a range for each data rate that is set', () => {
    const record = buildRecord({ adrMaxDr: 5 });
    const draft = createDraft(record);
    draft.numbers.adrMaxDr = '';
    const row = draft.ranges[7];
    if (row) Object.assign(row, { isSet: true, min: '2', max: '3' });
    const body = bodyOf(record, draft);
    expect(body.adrMaxDr).toBeNull();
    expect(body.adrNbTransRanges).toEqual({
      '0': { minNbTrans: 1, maxNbTrans: 2 },
      '7': { minNbTrans: 2, maxNbTrans: 3 },
    });
  });

  it('leaves a range with min above max for the schema to refuse next to the cell', () => {
    const record = buildRecord();
    const draft = createDraft(record);
    const row = draft.ranges[3];
    if (row) Object.assign(row, { isSet: true, min: '3', max: '1' });
    const result = NetworkSettingsWriteSchema.safeParse(bodyOf(record, draft));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['adrNbTransRanges', '3', 'minNbTrans']);
  });
});
