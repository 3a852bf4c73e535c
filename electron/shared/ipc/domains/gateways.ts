import { z } from 'zod';

/** Input of `cache:get`: the same endpoint, path parameters and query as the `api:call` whose answer was kept. */
export const CacheGetInputSchema = z
  .object({
    endpoint: z.string().min(1).max(100),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    query: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Output of `cache:get`: the last answer of that read for the signed-in profile and when it came, or null. */
export const CachedAnswerSchema = z.object({ value: z.unknown(), asOf: z.number() }).nullable();

/** Channels of the gateways domain: name → zod input and output. Spread into the contract (contract.ts). */
export const gatewaysChannels = {
  'cache:get': { input: CacheGetInputSchema, output: CachedAnswerSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the gateways domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const gatewaysEvents = {} as const satisfies Record<string, z.ZodType>;
