import { z } from 'zod';

/** Where Field Kit learned of a customer: the signed-in account, an answer read, a technician, or a site pack. */
export const CUSTOMER_ORIGINS = ['account', 'seen', 'added', 'pack'] as const;
/** Where Field Kit learned of a customer. */
export type CustomerOrigin = (typeof CUSTOMER_ORIGINS)[number];

/** One customer a profile knows of, with its name as far as it could be read. */
export const KnownCustomerSchema = z.object({
  id: z.string().min(1).max(100),
  /** The customer's title, else its name, from GET /api/customer/{id}; null until read. */
  name: z.string().min(1).max(200).nullable(),
  /** `read`: the name is the server's; `pending`: not asked yet; `not-read`: asked and refused or failed. */
  nameState: z.enum(['read', 'pending', 'not-read']),
  origin: z.enum(CUSTOMER_ORIGINS),
  /** When the name was last asked for (ms since the epoch), absent before the first try. */
  triedAt: z.number().optional(),
});
/** One customer a profile knows of. */
export type KnownCustomer = z.infer<typeof KnownCustomerSchema>;
