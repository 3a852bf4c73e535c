import { z } from 'zod';

const Lifetime = z.int('must be a whole number of seconds').positive('must be at least 1 second');

/** Input of `customer:token-lifetimes-read`: the customer whose lifetimes to read. */
export const TokenLifetimesReadInputSchema = z
  .object({ customerId: z.uuid('must be a customer id') })
  .strict();

/** Input of `customer:token-lifetimes-save`: both lifetimes in seconds (the spec sets them together). */
export const TokenLifetimesSaveInputSchema = z
  .object({
    customerId: z.uuid('must be a customer id'),
    accessTokenTtlSeconds: Lifetime,
    refreshTokenTtlSeconds: Lifetime,
  })
  .strict();

/** A customer's token lifetimes as the server holds them; a lifetime it does not set is absent (server default). */
export const CustomerTokenLifetimesSchema = z
  .object({
    customerId: z.string(),
    name: z.string(),
    accessTokenTtlSeconds: z.number().optional(),
    refreshTokenTtlSeconds: z.number().optional(),
  })
  .strict();

/** Channels of the customer settings domain: name → zod input and output. Spread into the contract. */
export const customerSettingsChannels = {
  'customer:token-lifetimes-read': {
    input: TokenLifetimesReadInputSchema,
    output: CustomerTokenLifetimesSchema,
  },
  'customer:token-lifetimes-save': {
    input: TokenLifetimesSaveInputSchema,
    output: CustomerTokenLifetimesSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the customer settings domain (none). */
export const customerSettingsEvents = {} as const satisfies Record<string, z.ZodType>;
