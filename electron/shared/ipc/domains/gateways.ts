import type { z } from 'zod';

/** Channels of the gateways domain: name → zod input and output. Spread into the contract (contract.ts). */
export const gatewaysChannels = {} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the gateways domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const gatewaysEvents = {} as const satisfies Record<string, z.ZodType>;
