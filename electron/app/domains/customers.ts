import type { DomainHandlers, ErrorLog, ProfileReader, SignedInSession } from './context';
import type { customersChannels } from '../../shared/ipc/domains/customers';
import type { EventHub } from '../../shared/ipc/event-hub';
import { IpcError } from '../../shared/ipc/result';
import { parseCustomerReference } from '../../shared/customer-reference';
import type { CustomerReader, KnownCustomers } from '../../services/customers';
import type { SitePacks } from '../../services/site-pack';
import type { Clock } from '../../shared/clock';
import { mapServiceError } from '../error-mapping';

/** How far back the first look for sub-customers reads the account's events. */
export const DISCOVERY_EVENTS_SPAN_MS = 30 * 24 * 60 * 60 * 1000;

/** What the customers domain uses: the session it reads names through, the list it keeps, the site pack. */
export interface CustomersDependencies {
  sessions: SignedInSession;
  profiles: ProfileReader;
  customers: KnownCustomers;
  sitePacks: Pick<SitePacks, 'get'>;
  events: Pick<EventHub, 'emit'>;
  clock: Pick<Clock, 'now'>;
  log: ErrorLog;
}

/** What the customer reads need of a session: its calls. */
export interface CallingSession {
  requireSession(): Pick<ReturnType<SignedInSession['requireSession']>, 'call'>;
}

/** The customer reads of the signed-in session (tokens stay inside it). */
export function sessionCustomerReader(sessions: CallingSession, clock: Pick<Clock, 'now'>): CustomerReader {
  return {
    readCustomer: async (customerId) => {
      const customer = await sessions.requireSession().call('getCustomer', { params: { customerId } });
      const name = (customer.title || customer.name || '').trim().slice(0, 200);
      return { name: name === '' ? null : name, subCustomersCount: customer.subCustomersCount ?? null };
    },
    readEvents: (page, limit) =>
      sessions.requireSession().call('listEnhancedEvents', {
        query: {
          startTs: clock.now() - DISCOVERY_EVENTS_SPAN_MS,
          page,
          limit,
          sortField: 'start_ts',
          sortOrder: 'desc',
        },
      }),
  };
}

/**
 * Handlers of the customers channels (electron/shared/ipc/domains/customers.ts). The list needs no server (field
 * mode lists what the profile and its site pack know); with a session, listing also starts the first look for the
 * account's sub-customers (once per sign-in) and the names still missing, and `customers:changed` follows.
 */
export function createCustomersHandlers({
  sessions,
  profiles,
  customers,
  sitePacks,
  events,
  clock,
  log,
}: CustomersDependencies): DomainHandlers<typeof customersChannels> {
  /** The subCustomersCount each sign-in's look found, by sign-in. */
  const counts = new Map<string, number | null>();
  const reader = sessionCustomerReader(sessions, clock);

  const lookAround = (profileId: string, signIn: string, ownCustomerId: string | undefined) => {
    const discovery = ownCustomerId
      ? customers.discover(signIn, profileId, ownCustomerId, reader).then((count) => {
          if (!counts.has(signIn)) {
            counts.set(signIn, count);
            events.emit('customers:changed', { profileId });
          }
        })
      : Promise.resolve();
    void discovery
      .then(() => customers.nameMissing(profileId, reader))
      .catch((error: unknown) => log.error('reading customer names failed', error));
  };

  return {
    'customers:list': async () => {
      const summary = sessions.summary();
      const profileId = summary?.profileId ?? profiles.list().selectedId;
      if (!profileId) return { profileId: null, ownCustomerId: null, subCustomersCount: null, customers: [] };
      // A pack made elsewhere (or before this list was kept) brings its customers with it.
      const stored = await sitePacks.get(profileId).catch(() => null);
      if (stored?.pack.customers) await customers.merge(profileId, stored.pack.customers);
      let subCustomersCount: number | null = null;
      if (summary) {
        const signIn = JSON.stringify([summary.profileId, summary.userId, summary.customerId ?? null]);
        subCustomersCount = counts.get(signIn) ?? null;
        lookAround(profileId, signIn, summary.customerId);
      }
      return {
        profileId,
        ownCustomerId: summary?.customerId ?? null,
        subCustomersCount,
        customers: await customers.list(profileId),
      };
    },
    'customers:add': async ({ text }) => {
      const summary = sessions.summary();
      if (!summary)
        throw new IpcError('UNAUTHENTICATED', 'Sign in to add a customer: its name is read from the server.');
      const reference = parseCustomerReference(text);
      if (!reference.ok)
        throw new IpcError('INVALID_INPUT', reference.message, [
          { path: 'text', message: reference.message },
        ]);
      const serverHost = hostOf(profiles.get(summary.profileId).baseUrl);
      if (reference.host !== null && serverHost !== null && reference.host !== serverHost) {
        const message = `That link is to ${reference.host}, but this profile's server is ${serverHost}. Paste a link of ${serverHost}, or the customer's id.`;
        throw new IpcError('INVALID_INPUT', message, [{ path: 'text', message }]);
      }
      try {
        return await customers.add(summary.profileId, reference.id, reader);
      } catch (error) {
        const mapped = mapServiceError(error);
        if (mapped?.code === 'NOT_FOUND' || mapped?.code === 'FORBIDDEN') {
          const message =
            mapped.code === 'NOT_FOUND'
              ? `The server knows no customer ${reference.id}. Check the id or link.`
              : `Your account may not see customer ${reference.id}: it is not yours or one of your sub-customers.`;
          throw new IpcError('INVALID_INPUT', message, [{ path: 'text', message }]);
        }
        throw mapped ?? error;
      }
    },
  };
}

function hostOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).host.toLowerCase();
  } catch {
    return null;
  }
}
