import { z } from 'zod';
import {
  EntityReferenceSchema,
  optionalBoolean,
  optionalInt,
  optionalString,
  KnownServerTimeSchema,
  ServerTimeSchema,
} from './common';

/** A device record, an element of `data` in the device lists. `state` is the server's string: no fixed set. */
export const DeviceSchema = z.object({
  id: EntityReferenceSchema.optional(),
  abp: optionalBoolean,
  applicationAbp: optionalBoolean,
  multicastGroup: optionalBoolean,
  useAppNetworkSettings: optionalBoolean,
  active: z.boolean(),
  additionalInfo: z.unknown().optional(),
  appEUI: optionalString,
  appKey: optionalString,
  appSKey: optionalString,
  appSKeyEncrypted: optionalString,
  applicationName: optionalString,
  asKekLabel: optionalString,
  devAddress: optionalString,
  deviceEUI: optionalString,
  deviceModelName: optionalString,
  name: optionalString,
  nsKekLabel: optionalString,
  nwkSKey: optionalString,
  nwkSKeyEncrypted: optionalString,
  sessionKeyId: optionalString,
  applicationId: EntityReferenceSchema.nullish(),
  customerId: EntityReferenceSchema.nullish(),
  deviceModelId: EntityReferenceSchema.nullish(),
  providerId: EntityReferenceSchema.nullish(),
  createdTime: ServerTimeSchema.optional(),
  deviceClass: optionalString,
  eventThresholdDownlinkQueueSize: optionalInt,
  eventThresholdJoinRequestWithoutUl: optionalInt,
  eventThresholdUlPerMinuteCounter: optionalInt,
  inactivityTimeout: optionalInt,
  lastActivityTime: KnownServerTimeSchema.nullable(),
  previousDevNonces: z.array(z.int()).nullish(),
  state: z.string(),
});

/** Response of both device-list endpoints. */
export const DeviceListSchema = z.object({
  data: z.array(DeviceSchema),
  totalElements: z.int().nonnegative(),
});

/** Query of the device lists: without `active` all devices; true only online; false only offline. */
export const DeviceListQuerySchema = z.strictObject({
  active: z.boolean('active must be true or false').optional(),
});
