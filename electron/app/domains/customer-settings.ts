import type { Customer } from '../../shared/api';
import type { customerSettingsChannels } from '../../shared/ipc/domains/customer-settings';
import {
  readTokenLifetimes,
  setTokenLifetimes,
  type CustomerCaller,
} from '../../services/session/token-lifetimes';
import { mapServiceError } from '../error-mapping';
import type { DomainHandlers } from './context';

/** What the customer settings domain uses: the signed-in session (it throws when nobody is signed in). */
export interface CustomerSettingsDependencies {
  sessions: { requireSession(): CustomerCaller };
}

/** A customer's lifetimes as the page shows them. */
function lifetimesOf(customerId: string, customer: Customer) {
  const lifetimes = readTokenLifetimes(customer);
  return {
    customerId,
    name: customer.title ?? customer.name ?? customerId,
    ...(lifetimes.accessTokenTtlSeconds !== undefined
      ? { accessTokenTtlSeconds: lifetimes.accessTokenTtlSeconds }
      : {}),
    ...(lifetimes.refreshTokenTtlSeconds !== undefined
      ? { refreshTokenTtlSeconds: lifetimes.refreshTokenTtlSeconds }
      : {}),
  };
}

/**
 * Handlers of the customer settings channels (electron/shared/ipc/domains/customer-settings.ts): the spec's
 * read-modify-write of a customer's token lifetimes runs here, in one place, not in the page.
 */
export function createCustomerSettingsHandlers({
  sessions,
}: CustomerSettingsDependencies): DomainHandlers<typeof customerSettingsChannels> {
  const mapped = (error: unknown) => mapServiceError(error) ?? error;
  return {
    'customer:token-lifetimes-read': async ({ customerId }) => {
      try {
        const customer = await sessions.requireSession().call('getCustomer', { params: { customerId } });
        return lifetimesOf(customerId, customer);
      } catch (error) {
        throw mapped(error);
      }
    },
    'customer:token-lifetimes-save': async ({
      customerId,
      accessTokenTtlSeconds,
      refreshTokenTtlSeconds,
    }) => {
      try {
        const readBack = await setTokenLifetimes(sessions.requireSession(), customerId, {
          accessTokenTtlSeconds,
          refreshTokenTtlSeconds,
        });
        return lifetimesOf(customerId, readBack);
      } catch (error) {
        throw mapped(error);
      }
    },
  };
}
