import { isEndpointName, type EndpointRequest } from '../../shared/api';
import { IpcError } from '../../shared/ipc/result';
import type { KnownCustomers } from '../../services/customers';
import type { OfflineCache } from '../../services/offline-cache';
import type { ServerReachability } from '../server-reachability';
import type { ChannelHandlers, ErrorLog, SignedInSession } from './context';

/**
 * Endpoints only the session may call: their answers are token pairs, which must never reach the renderer
 * (it logs in through `session:login`).
 */
const SESSION_ONLY_ENDPOINTS: readonly string[] = ['login', 'refreshToken'];

/** What `api:call` uses: the signed-in session, the offline cache it fills and the watch of the server. */
export interface ApiDependencies {
  sessions: SignedInSession;
  offlineCache: Pick<OfflineCache, 'isCached' | 'put'>;
  reachability: Pick<ServerReachability, 'watchIfUnreachable'>;
  /** Learns customer ids from gateways, devices and events read (the API lists no customers). */
  customers: Pick<KnownCustomers, 'learnFrom'>;
  log: ErrorLog;
}

/**
 * The handler of `api:call`: an endpoint of the endpoint table by name, through the signed-in session. The
 * token endpoints are refused; a server that cannot be reached starts the watch; list and gateway-page answers
 * are written to the offline cache behind the answer.
 */
export function createApiHandlers({
  sessions,
  offlineCache,
  reachability,
  customers,
  log,
}: ApiDependencies): ChannelHandlers<'api:call'> {
  return {
    'api:call': async ({ endpoint, params, query, body }) => {
      if (!isEndpointName(endpoint)) {
        throw new IpcError('INVALID_INPUT', 'Unknown API endpoint.', [
          { path: 'endpoint', message: `No endpoint named ${endpoint}` },
        ]);
      }
      if (SESSION_ONLY_ENDPOINTS.includes(endpoint)) {
        throw new IpcError('FORBIDDEN', 'Sign in through the sign-in screen; tokens stay in Field Kit.');
      }
      // The parts come from the wire unchecked; the API client validates them against the endpoint's schemas
      // before anything is sent, so they are typed as the endpoint's here.
      const request = { params, query, body } as EndpointRequest<typeof endpoint>;
      const answer = await sessions
        .requireSession()
        .call(endpoint, request)
        .catch((error: unknown) => reachability.watchIfUnreachable(error));
      const profileId = sessions.summary()?.profileId;
      if (profileId && offlineCache.isCached(endpoint)) {
        // The answer goes back at once; the cache is written behind it, and a cache that cannot be written
        // must not fail the read it caches.
        void offlineCache
          .put(profileId, { endpoint, params, query }, answer)
          .catch((error: unknown) => log.error(`offline cache write failed for ${endpoint}`, error));
      }
      // Customer ids on gateways, devices and events: the customer pickers learn them (the API lists none).
      if (profileId)
        void customers
          .learnFrom(profileId, endpoint, answer)
          .catch((error: unknown) => log.error(`learning customers from ${endpoint} failed`, error));
      return answer;
    },
  };
}
