import { TokenLifetimesSchema, type Customer, type TokenLifetimes } from '../../shared/api';
import type { Session } from './session';

/**
 * Changes a customer's token lifetimes the way the spec says: read the customer, set additionalInfo to an
 * object with accessTokenTtlSeconds and refreshTokenTtlSeconds, POST the whole record back, and read it back.
 * Other keys of an object additionalInfo are kept.
 */
export async function setTokenLifetimes(
  session: Session,
  customerId: string,
  lifetimes: Required<TokenLifetimes>,
): Promise<Customer> {
  const checked = TokenLifetimesSchema.parse(lifetimes);
  const customer = await session.call('getCustomer', { params: { customerId } });
  const previous =
    typeof customer.additionalInfo === 'object' && customer.additionalInfo ? customer.additionalInfo : {};
  await session.call('saveCustomer', {
    params: {},
    body: { ...customer, additionalInfo: { ...previous, ...checked } },
  });
  return session.call('getCustomer', { params: { customerId } });
}

/** The token lifetimes a customer record carries, or undefined where additionalInfo holds none. */
export function readTokenLifetimes(customer: Customer): TokenLifetimes | undefined {
  const info = customer.additionalInfo;
  if (!info || typeof info !== 'object') return undefined;
  const result = TokenLifetimesSchema.safeParse(info);
  return result.success ? result.data : undefined;
}
