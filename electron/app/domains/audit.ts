import type { auditChannels } from '../../shared/ipc/domains/audit';
import type { AuditLog } from '../../services/audit';
import type { DomainHandlers, ProfileReader, SignedInSession } from './context';
import { mapped } from './engines';

/** What the audit log channel uses: who is signed in, the profiles and the log. */
export interface AuditDependencies {
  sessions: SignedInSession;
  profiles: Pick<ProfileReader, 'list'>;
  audit: AuditLog;
  /** The user signed in last on a profile (FieldKitServices.lastUserOf): whose work field mode shows. */
  lastUserOf(profileId: string): string | undefined;
}

/** Handlers of the audit log channel (electron/shared/ipc/domains/audit.ts). */
export function createAuditHandlers({
  sessions,
  profiles,
  audit,
  lastUserOf,
}: AuditDependencies): DomainHandlers<typeof auditChannels> {
  return {
    'audit:read': ({ since, until, gatewayId, runId }) =>
      mapped(async () => {
        // The audit log is on disk: with no session (field mode) it is the selected profile's, and of the user
        // signed in last on it. One account never reads another's work.
        const summary = sessions.summary();
        const profileId = summary?.profileId ?? profiles.list().selectedId;
        const user = profileId ? (summary?.username ?? lastUserOf(profileId)) : undefined;
        if (!profileId || user === undefined) return { entries: [] };
        return { entries: await audit.read({ profileId, user, since, until, gatewayId, runId }) };
      }),
  };
}
