import type { DomainContext, DomainHandlers } from './context';
import type { gatewaysChannels } from '../../../shared/ipc/domains/gateways';

/** Handlers of the gateways channels (electron/shared/ipc/domains/gateways.ts). */
export function createGatewaysHandlers(context: DomainContext): DomainHandlers<typeof gatewaysChannels> {
  return {
    // The cache and the site pack are per profile: the signed-in one, else the selected one (field mode).
    'cache:get': async ({ endpoint, params, query }) => {
      const profileId = context.sessions.summary()?.profileId ?? context.profiles.list().selectedId;
      if (!profileId) return null;
      const parts = { endpoint, params, query };
      const [cached, packed] = await Promise.all([
        context.offlineCache.get(profileId, parts),
        // A pack that cannot be read must not hide the cache's answer (its notice says what happened).
        context.sitePacks.answer(profileId, parts).catch((error: unknown) => {
          context.log.error('site pack read failed', error);
          return null;
        }),
      ]);
      // The newer of the two: a page browsed after the pack was made, or the pack made after the last browse.
      if (cached && packed) return cached.asOf >= packed.asOf ? cached : packed;
      return cached ?? packed;
    },
  };
}
