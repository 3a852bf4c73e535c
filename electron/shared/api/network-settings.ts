import { z } from 'zod';
import { ServerTimeSchema, spoken } from './common';

/** Data-rate indexes allowed as adrNbTransRanges keys: DR0 to DR15, written "0" to "15" (API assumption). */
export const DATA_RATE_KEYS = Array.from({ length: 16 }, (_, index) => String(index)) as [
  string,
  ...string[],
];

const nbTrans = z
  .int({ error: spoken('errors:wholeNumber') })
  .min(1, { error: spoken('errors:rangeFromOne', { max: 3 }) })
  .max(3, { error: spoken('errors:rangeFromOne', { max: 3 }) });

/** Repetitions for one data rate: 1 ≤ minNbTrans ≤ maxNbTrans ≤ 3. */
export const NbTransRangeSchema = z
  .object({
    minNbTrans: nbTrans,
    maxNbTrans: nbTrans,
  })
  .refine((range) => range.minNbTrans <= range.maxNbTrans, {
    path: ['minNbTrans'],
    error: spoken('errors:nbTransOrder'),
  });

/** adrNbTransRanges: keys "0"…"15" (data-rate indexes), each an NbTrans range. */
export const NbTransRangesSchema = z.partialRecord(
  z.enum(DATA_RATE_KEYS, { error: 'keys must be data-rate indexes "0" to "15"' }),
  NbTransRangeSchema,
);

/** The entities network settings belong to. */
export const NETWORK_SETTINGS_ENTITY_TYPES = ['APPLICATION', 'DEVICE'] as const;

const nullableNumber = z.number().nullish();
const int = z.int({ error: spoken('errors:wholeNumber') });

const networkSettingsFields = {
  id: z.looseObject({ id: z.string() }).nullish(),
  createdTime: ServerTimeSchema.optional(),
  additionalInfo: z.unknown().optional(),
  entityId: z.looseObject({
    entityType: z.enum(NETWORK_SETTINGS_ENTITY_TYPES, { error: 'entityType must be APPLICATION or DEVICE' }),
    id: z.string().min(1, 'id must not be empty'),
  }),
  rxWindow: int.optional(),
  rxDelay: int.optional(),
  rx2DataRate: int.optional(),
  rx2Frequency: int.optional(),
  rx1DataRateOffset: int.optional(),
  adrInterval: int.optional(),
  installationMargin: int.optional(),
  cfList: z.array(z.unknown()).optional(),
  chMaskCtrlDataList: z.array(z.unknown()).nullish(),
  newChIndex: int.optional(),
  newChFrequency: int.optional(),
  newChMaxDr: int.optional(),
  newChMinDr: int.optional(),
  pingSlotDr: int.optional(),
  pingSlotFreq: int.optional(),
  beaconFreq: int.optional(),
  clearDlQueueUponJoin: z.boolean().optional(),
  adrMinDr: nullableNumber,
  adrMaxDr: nullableNumber,
  adrMinTxPower: nullableNumber,
  adrMaxTxPower: nullableNumber,
  adrGracePeriod: nullableNumber,
  downlinkDwellTime: nullableNumber,
  uplinkDwellTime: nullableNumber,
  maxEIRP: nullableNumber,
  adrNbTransRanges: NbTransRangesSchema.optional(),
  adrConservativeSlope: z.boolean().optional(),
  fcntCheck: z.boolean().optional(),
};

/** A network settings record as read (GET /api/networkSettings/{entityType}/{entityId}). */
export const NetworkSettingsSchema = z.looseObject(networkSettingsFields);
export type NetworkSettings = z.infer<typeof NetworkSettingsSchema>;

/** The fields the spec removed from the POST body; a body carrying them is refused. */
export const REMOVED_NETWORK_SETTINGS_FIELDS = ['adrMaxNbTrans', 'adrMinNbTrans'] as const;

const removed = z.never({ error: 'was removed from the API: use adrNbTransRanges and adrConservativeSlope' });

/** Body of POST /api/networkSettings: every field of the record; adrMaxNbTrans/adrMinNbTrans never sent. */
export const NetworkSettingsWriteSchema = z.looseObject({
  ...networkSettingsFields,
  adrMaxNbTrans: removed.optional(),
  adrMinNbTrans: removed.optional(),
});
export type NetworkSettingsWrite = z.infer<typeof NetworkSettingsWriteSchema>;

/** A record read from the server made ready to POST back: the removed fields dropped. */
export function toNetworkSettingsWrite(record: NetworkSettings): NetworkSettingsWrite {
  const body: Record<string, unknown> = { ...record };
  for (const field of REMOVED_NETWORK_SETTINGS_FIELDS) delete body[field];
  return body as NetworkSettingsWrite;
}

/** Path parameters of GET /api/networkSettings/{entityType}/{entityId}. */
export const NetworkSettingsParamsSchema = z.object({
  entityType: z.enum(NETWORK_SETTINGS_ENTITY_TYPES, { error: 'entityType must be APPLICATION or DEVICE' }),
  entityId: z.string().min(1),
});
