import type { Gateway } from '../../../../electron/shared/api/gateway';
import { toGatewaySearchText } from '../../../../electron/shared/mac';
import type { IpcClient } from '../../lib/ipc';

/** Most other customers one search asks (the rest are said to be unsearched). */
export const MAX_CUSTOMERS_SEARCHED = 20;
/** Customers asked at once. */
const SEARCH_CONCURRENCY = 4;

/** Gateways a search found under one customer: how many, and the first few. */
export interface CustomerMatch {
  customerId: string;
  total: number;
  gateways: Gateway[];
}

/**
 * Searches the gateway lists of other customers by name or MAC (any form), since a customer's list holds only its
 * own gateways: at most MAX_CUSTOMERS_SEARCHED customers, `limit` gateways each. Customers that answer with an
 * error are left out (the search is a hint; the list itself says its own errors).
 */
export async function searchCustomers(
  client: IpcClient,
  customerIds: readonly string[],
  text: string,
  limit = 5,
): Promise<CustomerMatch[]> {
  const textSearch = toGatewaySearchText(text);
  const asked = customerIds.slice(0, MAX_CUSTOMERS_SEARCHED);
  const found: CustomerMatch[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < asked.length) {
      const customerId = asked[next++]!;
      const answer = await client.call('listCustomerGateways', {
        params: { customerId },
        query: { page: 0, limit, sortField: 'NAME', sortDirection: 'ASC', textSearch },
      });
      if (answer.ok && answer.value.data.length > 0)
        found.push({ customerId, total: answer.value.totalElements, gateways: answer.value.data });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEARCH_CONCURRENCY, asked.length) }, lane));
  // In the order the customers were given, whichever answered first.
  return found.sort((left, right) => asked.indexOf(left.customerId) - asked.indexOf(right.customerId));
}
