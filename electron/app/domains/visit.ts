import type { DomainHandlers } from './context';
import type { visitChannels } from '../../shared/ipc/domains/visit';
import { IpcError } from '../../shared/ipc/result';
import {
  attachLogs,
  chosenBundle,
  sessionLogsOf,
  verifyBundle,
  type GatewayHint,
  type Visits,
} from '../../services/visit';
import type { GatewayIdentity } from '../../shared/visit/journal-entry';
import type { VisitGateways } from '../visit-gateways';

/** What the visit domain uses: the visits kept by main, and who is signed in (recorded when a visit opens). */
export interface VisitDependencies {
  visits: Pick<
    Visits,
    | 'list'
    | 'open'
    | 'close'
    | 'current'
    | 'update'
    | 'append'
    | 'attachPhoto'
    | 'readPhoto'
    | 'removePhoto'
    | 'ensureOpen'
    | 'entries'
    | 'pathsOf'
  >;
  /** The terminal logs main knows: those of sessions still open are attached to the visit as it closes. */
  terminalLogs?(): Array<{ path: string; id: string }>;
  /** Names a log's gateway by identity when the log is attached (the visit's one resolver). */
  resolveGateway?(hint: GatewayHint): Promise<GatewayIdentity | undefined>;
  /** The gateways the visit's entries name, and the technician's pick of one for what was typed. */
  gateways: Pick<VisitGateways, 'search' | 'unidentified' | 'identify'>;
  /** The profile and user signed in, or undefined in field mode. */
  signedIn(): { profileId: string; username: string } | undefined;
}

/**
 * Handlers of the visit channels (electron/shared/ipc/domains/visit.ts). None needs the server or a sign-in: a visit
 * is the technician's record of the site, kept on this computer. Refusals (a visit already open, a photo that is
 * not JPEG or PNG, a full disk) reach the page in words through the error mapping.
 */
export function createVisitHandlers({
  visits,
  gateways,
  signedIn,
  terminalLogs,
  resolveGateway,
}: VisitDependencies): DomainHandlers<typeof visitChannels> {
  const requireCurrent = () => {
    const current = visits.current();
    if (!current) throw new IpcError('NOT_FOUND', 'No visit is open.');
    return current;
  };
  return {
    'visit:list': () => ({ visits: visits.list() }),
    'visit:open': (input) => {
      const account = signedIn();
      return visits.open({
        ...input,
        ...(account ? { profileId: account.profileId, user: account.username } : {}),
      });
    },
    'visit:close': async (input) => {
      // The logs of the visit's sessions are attached as they are now, before `visit-closed` (a log unchanged
      // since it was attached is not attached again); the sessions stay open.
      const open = visits.current();
      if (open && terminalLogs)
        await attachLogs(visits, sessionLogsOf(visits.entries(open.id), terminalLogs()), resolveGateway);
      return visits.close(input?.departedAt);
    },
    'visit:current': () => visits.current(),
    'visit:update': (fields) => visits.update(fields),
    'visit:note': async ({ text, gateway }) => {
      await visits.append({ kind: 'note', text, ...(gateway ? { gateway } : {}) });
      return requireCurrent();
    },
    'visit:photo-add': ({ caption, base64 }) =>
      visits.attachPhoto({ caption, bytes: Buffer.from(base64, 'base64') }),
    'visit:photo': async ({ visitId, photoId }) => {
      const photo = await visits.readPhoto(visitId, photoId);
      if (!photo) throw new IpcError('NOT_FOUND', 'This photo is no longer kept with the visit.');
      return { mimeType: photo.mimeType, base64: photo.bytes.toString('base64') };
    },
    'visit:photo-remove': ({ photoId }) => visits.removePhoto(photoId),
    'visit:acknowledge': async ({ customerRepresentative, technicianName, text }) => {
      await visits.append({
        kind: 'acknowledgement',
        customerRepresentative,
        technicianName,
        ...(text ? { text } : {}),
      });
      return requireCurrent();
    },
    'visit:verify-bundle': (chosen) => verifyBundle(chosenBundle(chosen)),
    'visit:unidentified': () => ({ gateways: gateways.unidentified() }),
    'visit:gateway-search': async ({ text }) => ({ gateways: await gateways.search(text) }),
    'visit:identify-gateway': (input) => gateways.identify(input),
  };
}
