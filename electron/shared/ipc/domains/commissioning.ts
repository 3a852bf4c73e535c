import type { z } from 'zod';

/** Channels of the commissioning domain: name → zod input and output. Spread into the contract (contract.ts). */
export const commissioningChannels = {} as const satisfies Record<
  string,
  { input: z.ZodType; output: z.ZodType }
>;

/** Events of the commissioning domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const commissioningEvents = {} as const satisfies Record<string, z.ZodType>;
