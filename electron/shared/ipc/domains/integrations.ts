import type { z } from 'zod';

/** Channels of the integrations domain: name → zod input and output. Spread into the contract (contract.ts). */
export const integrationsChannels = {} as const satisfies Record<
  string,
  { input: z.ZodType; output: z.ZodType }
>;

/** Events of the integrations domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const integrationsEvents = {} as const satisfies Record<string, z.ZodType>;
