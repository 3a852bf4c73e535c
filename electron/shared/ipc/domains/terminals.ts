import type { z } from 'zod';

/** Channels of the terminals domain: name → zod input and output. Spread into the contract (contract.ts). */
export const terminalsChannels = {} as const satisfies Record<
  string,
  { input: z.ZodType; output: z.ZodType }
>;

/** Events of the terminals domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const terminalsEvents = {} as const satisfies Record<string, z.ZodType>;
