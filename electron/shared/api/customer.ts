import { z } from 'zod';
import {
  entityReference,
  EntityReferenceSchema,
  optionalInt,
  optionalString,
  ServerTimeSchema,
} from './common';

/** The token-lifetime keys a customer's additionalInfo object may hold (seconds). */
export const TokenLifetimesSchema = z.looseObject({
  accessTokenTtlSeconds: z
    .int('must be a whole number of seconds')
    .positive('must be at least 1 second')
    .optional(),
  refreshTokenTtlSeconds: z
    .int('must be a whole number of seconds')
    .positive('must be at least 1 second')
    .optional(),
});
export type TokenLifetimes = z.infer<typeof TokenLifetimesSchema>;

/** A customer record. additionalInfo is a string when read, or an object when it carries token lifetimes. */
export const CustomerSchema = z.looseObject({
  id: entityReference('CUSTOMER'),
  createdTime: ServerTimeSchema.optional(),
  name: optionalString,
  title: optionalString,
  email: optionalString,
  phone: optionalString,
  address: optionalString,
  address2: optionalString,
  city: optionalString,
  zip: optionalString,
  country: optionalString,
  state: optionalString,
  additionalInfo: z.union([z.string(), TokenLifetimesSchema]).nullish(),
  customerSubscriptionId: EntityReferenceSchema.nullish(),
  customerSubscriptionName: optionalString,
  customerSubscriptionSince: ServerTimeSchema.optional(),
  providerId: EntityReferenceSchema.nullish(),
  devicesCount: optionalInt,
  gatewaysCount: optionalInt,
  subCustomersCount: optionalInt,
});
export type Customer = z.infer<typeof CustomerSchema>;

/** The customer record as POST /api/customer/ takes it when saving token lifetimes: additionalInfo an object. */
export const CustomerSaveSchema = CustomerSchema.extend({
  additionalInfo: z.union([z.string(), TokenLifetimesSchema]).nullish(),
});
