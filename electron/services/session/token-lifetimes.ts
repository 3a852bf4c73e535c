import {
  TokenLifetimesSchema,
  type Customer,
  type EndpointName,
  type EndpointRequest,
  type EndpointResponse,
  type TokenLifetimes,
} from '../../shared/api';

/** What the lifetimes change needs of a signed-in session: a typed call. */
export interface CustomerCaller {
  call<Name extends EndpointName>(
    endpoint: Name,
    request: EndpointRequest<Name>,
  ): Promise<EndpointResponse<Name>>;
}

/**
 * A customer's additionalInfo as an object: the object itself, or the object a JSON text holds (the spec says
 * additionalInfo is a string when read). Other text or nothing is an empty object.
 */
function additionalInfoObject(customer: Customer): Record<string, unknown> {
  let value: unknown = customer.additionalInfo;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
}

/**
 * Changes a customer's token lifetimes the way the spec says: read the customer, set additionalInfo to an
 * object with accessTokenTtlSeconds and refreshTokenTtlSeconds, POST the whole record back, and read it back.
 * Other keys of additionalInfo (an object, or a JSON text holding one) are kept; free text there is replaced.
 */
export async function setTokenLifetimes(
  session: CustomerCaller,
  customerId: string,
  lifetimes: Required<TokenLifetimes>,
): Promise<Customer> {
  const checked = TokenLifetimesSchema.parse(lifetimes);
  const customer = await session.call('getCustomer', { params: { customerId } });
  await session.call('saveCustomer', {
    params: {},
    body: { ...customer, additionalInfo: { ...additionalInfoObject(customer), ...checked } },
  });
  return session.call('getCustomer', { params: { customerId } });
}

/** The token lifetimes a customer record carries (whole positive seconds), each absent where it sets none. */
export function readTokenLifetimes(customer: Customer): TokenLifetimes {
  const info = additionalInfoObject(customer);
  const lifetimes: TokenLifetimes = {};
  for (const key of ['accessTokenTtlSeconds', 'refreshTokenTtlSeconds'] as const) {
    const value = info[key];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) lifetimes[key] = value;
  }
  return lifetimes;
}
