import { z } from 'zod';
import { KnownCustomerSchema } from '../../customers';

const NoInputSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);

/** Output of `customers:list`: the profile's known customers, and what the app knows of the account's own. */
export const CustomerListSchema = z.object({
  /** The signed-in profile, else the selected one; null with neither (the list is then empty). */
  profileId: z.string().nullable(),
  /** The account's own customer, when it is a customer user. */
  ownCustomerId: z.string().nullable(),
  /** How many sub-customers the account's own customer has (its subCustomersCount); null until read. */
  subCustomersCount: z.number().nullable(),
  customers: z.array(KnownCustomerSchema),
});

/** Input of `customers:add`: a customer's id, or a link to it on the server (parseCustomerReference). */
export const CustomerAddInputSchema = z.object({ text: z.string().min(1).max(2000) }).strict();

/** Channels of the customers domain: name → zod input and output. Spread into the contract (contract.ts). */
export const customersChannels = {
  /**
   * The known customers of the signed-in profile (else the selected one, with those its site pack brought). With a
   * session it also starts, in the background, the first look for sub-customers and the names still missing;
   * `customers:changed` says when the list changed.
   */
  'customers:list': { input: NoInputSchema, output: CustomerListSchema },
  /** Adds a customer by id or pasted link once the server has answered for it (its name read). Needs a session. */
  'customers:add': { input: CustomerAddInputSchema, output: KnownCustomerSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the customers domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const customersEvents = {
  /** A profile's known customers changed (learned, named, added): list them again. */
  'customers:changed': z.object({ profileId: z.string() }),
} as const satisfies Record<string, z.ZodType>;
