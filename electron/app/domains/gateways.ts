import type { DomainHandlers, ErrorLog, ProfileReader, SignedInSession } from './context';
import type { gatewaysChannels } from '../../shared/ipc/domains/gateways';
import type { OfflineCache } from '../../services/offline-cache';
import type { SitePacks } from '../../services/site-pack';

/** What the gateways domain uses: the profile in use, its offline cache and its site pack. */
export interface GatewaysDependencies {
  sessions: SignedInSession;
  profiles: ProfileReader;
  offlineCache: Pick<OfflineCache, 'get'>;
  sitePacks: Pick<SitePacks, 'answer'>;
  log: ErrorLog;
}

/** Handlers of the gateways channels (electron/shared/ipc/domains/gateways.ts). */
export function createGatewaysHandlers({
  sessions,
  profiles,
  offlineCache,
  sitePacks,
  log,
}: GatewaysDependencies): DomainHandlers<typeof gatewaysChannels> {
  return {
    // The cache and the site pack are per profile: the signed-in one, else the selected one (field mode).
    'cache:get': async ({ endpoint, params, query }) => {
      const profileId = sessions.summary()?.profileId ?? profiles.list().selectedId;
      if (!profileId) return null;
      const parts = { endpoint, params, query };
      const [cached, packed] = await Promise.all([
        offlineCache.get(profileId, parts),
        // A pack that cannot be read must not hide the cache's answer (its notice says what happened).
        sitePacks.answer(profileId, parts).catch((error: unknown) => {
          log.error('site pack read failed', error);
          return null;
        }),
      ]);
      // The newer of the two: a page browsed after the pack was made, or the pack made after the last browse.
      if (cached && packed) return cached.asOf >= packed.asOf ? cached : packed;
      return cached ?? packed;
    },
  };
}
