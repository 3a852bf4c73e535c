import {
  DATA_RATE_KEYS,
  toNetworkSettingsWrite,
  type NetworkSettings,
} from '../../../../electron/shared/api/network-settings';
import { formatNumberText, parseNumberText } from '../../lib/components/number-field';
import { t, type MessageKey } from '../../lib/i18n';

/** The groups the record's fields are shown in, each field once. */
export const FIELD_GROUPS: ReadonlyArray<{ title: MessageKey; fields: readonly string[] }> = [
  {
    title: 'network:groupRxWindows',
    fields: ['rxWindow', 'rxDelay', 'rx1DataRateOffset', 'rx2DataRate', 'rx2Frequency'],
  },
  {
    title: 'network:groupAdr',
    fields: [
      'adrInterval',
      'installationMargin',
      'adrMinDr',
      'adrMaxDr',
      'adrMinTxPower',
      'adrMaxTxPower',
      'adrGracePeriod',
      'adrConservativeSlope',
    ],
  },
  { title: 'network:groupChannels', fields: ['newChIndex', 'newChFrequency', 'newChMinDr', 'newChMaxDr'] },
  { title: 'network:groupClassB', fields: ['pingSlotDr', 'pingSlotFreq', 'beaconFreq'] },
  { title: 'network:groupDwell', fields: ['uplinkDwellTime', 'downlinkDwellTime', 'maxEIRP'] },
  { title: 'network:groupJoin', fields: ['clearDlQueueUponJoin', 'fcntCheck'] },
];

/** Each field of FIELD_GROUPS in words; the server's name stays beside it as a hint. */
const FIELD_WORDS: Readonly<Record<string, MessageKey>> = {
  rxWindow: 'network:fieldRxWindow',
  rxDelay: 'network:fieldRxDelay',
  rx1DataRateOffset: 'network:fieldRx1DataRateOffset',
  rx2DataRate: 'network:fieldRx2DataRate',
  rx2Frequency: 'network:fieldRx2Frequency',
  adrInterval: 'network:fieldAdrInterval',
  installationMargin: 'network:fieldInstallationMargin',
  adrMinDr: 'network:fieldAdrMinDr',
  adrMaxDr: 'network:fieldAdrMaxDr',
  adrMinTxPower: 'network:fieldAdrMinTxPower',
  adrMaxTxPower: 'network:fieldAdrMaxTxPower',
  adrGracePeriod: 'network:fieldAdrGracePeriod',
  adrConservativeSlope: 'network:fieldAdrConservativeSlope',
  newChIndex: 'network:fieldNewChIndex',
  newChFrequency: 'network:fieldNewChFrequency',
  newChMinDr: 'network:fieldNewChMinDr',
  newChMaxDr: 'network:fieldNewChMaxDr',
  pingSlotDr: 'network:fieldPingSlotDr',
  pingSlotFreq: 'network:fieldPingSlotFreq',
  beaconFreq: 'network:fieldBeaconFreq',
  uplinkDwellTime: 'network:fieldUplinkDwellTime',
  downlinkDwellTime: 'network:fieldDownlinkDwellTime',
  maxEIRP: 'network:fieldMaxEirp',
  clearDlQueueUponJoin: 'network:fieldClearDlQueueUponJoin',
  fcntCheck: 'network:fieldFcntCheck',
};

/** A setting in words, in the current language ("Receive delay (s)" for rxDelay). */
export function fieldWords(field: string): string {
  const key = FIELD_WORDS[field];
  return key ? t(key) : t('network:fieldOther', { name: field });
}

/** Fields that may be null (the spec's sample sends null): an empty entry sends null. */
export const NULLABLE_FIELDS: ReadonlySet<string> = new Set([
  'adrMinDr',
  'adrMaxDr',
  'adrMinTxPower',
  'adrMaxTxPower',
  'adrGracePeriod',
  'downlinkDwellTime',
  'uplinkDwellTime',
  'maxEIRP',
]);

/** Fields edited as a check box. */
export const BOOLEAN_FIELDS: ReadonlySet<string> = new Set([
  'adrConservativeSlope',
  'clearDlQueueUponJoin',
  'fcntCheck',
]);

/** One row of the NbTrans editor: whether the data rate has a range, and its typed bounds. */
export interface NbTransRow {
  dataRate: string;
  isSet: boolean;
  min: string;
  max: string;
}

/** What the form edits: typed text per numeric field, flags per boolean field, and 16 NbTrans rows. */
export interface NetworkSettingsDraft {
  numbers: Record<string, string>;
  flags: Record<string, boolean>;
  ranges: NbTransRow[];
}

/** A draft showing a record as read. */
export function createDraft(record: NetworkSettings): NetworkSettingsDraft {
  const numbers: Record<string, string> = {};
  const flags: Record<string, boolean> = {};
  const source = record as Record<string, unknown>;
  for (const group of FIELD_GROUPS) {
    for (const field of group.fields) {
      if (BOOLEAN_FIELDS.has(field)) flags[field] = source[field] === true;
      else numbers[field] = formatNumberText(source[field] as number | null | undefined);
    }
  }
  const ranges = DATA_RATE_KEYS.map((dataRate) => {
    const range = record.adrNbTransRanges?.[dataRate];
    return {
      dataRate,
      isSet: range !== undefined,
      min: range ? String(range.minNbTrans) : '1',
      max: range ? String(range.maxNbTrans) : '1',
    };
  });
  return { numbers, flags, ranges };
}

/**
 * The POST body the draft describes: the record as read with the edits applied, adrMaxNbTrans/adrMinNbTrans
 * dropped (toNetworkSettingsWrite). An empty nullable field becomes null; an empty other field is left out.
 */
export function bodyOf(record: NetworkSettings, draft: NetworkSettingsDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { ...toNetworkSettingsWrite(record) };
  for (const [field, text] of Object.entries(draft.numbers)) {
    const value = parseNumberText(text);
    if (value === undefined) {
      if (NULLABLE_FIELDS.has(field)) body[field] = null;
      else delete body[field];
    } else body[field] = value;
  }
  for (const [field, flag] of Object.entries(draft.flags)) {
    if (flag || field in body) body[field] = flag;
  }
  const ranges: Record<string, { minNbTrans: number | undefined; maxNbTrans: number | undefined }> = {};
  for (const row of draft.ranges) {
    if (row.isSet)
      ranges[row.dataRate] = { minNbTrans: parseNumberText(row.min), maxNbTrans: parseNumberText(row.max) };
  }
  body.adrNbTransRanges = ranges;
  return body;
}
