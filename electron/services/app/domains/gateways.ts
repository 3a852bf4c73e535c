import type { DomainContext, DomainHandlers } from './context';
import type { gatewaysChannels } from '../../../shared/ipc/domains/gateways';

/** Handlers of the gateways channels (electron/shared/ipc/domains/gateways.ts). */
export function createGatewaysHandlers(context: DomainContext): DomainHandlers<typeof gatewaysChannels> {
  return {
    // The cache is per profile: with no session (or before one), there is nothing to show.
    'cache:get': async ({ endpoint, params, query }) => {
      const profileId = context.sessions.summary()?.profileId ?? context.profiles.list().selectedId;
      if (!profileId) return null;
      return context.offlineCache.get(profileId, { endpoint, params, query });
    },
  };
}
