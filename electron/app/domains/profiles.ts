import type { KnownCustomers } from '../../services/customers';
import { t } from '../../shared/i18n';
import type { NoticeDraft } from '../../shared/notice-words';
import type { Profile, ProfileDraft } from '../../shared/ipc/schemas';
import type { RelayPasswords, RootPasswords } from '../../services/terminals/terminal-secrets';
import type { ProfileStore } from '../../services/profiles';
import type { ServerSessionController } from '../server-session-controller';
import type { ChannelHandlers } from './context';

/** What the profile channels use: the profiles, the session (to end it with its profile) and the keychain's secrets. */
export interface ProfilesDependencies {
  profiles: ProfileStore;
  sessions: Pick<ServerSessionController, 'summary' | 'logout' | 'deleteSecrets'>;
  relayPasswords: RelayPasswords;
  rootPasswords: Pick<RootPasswords, 'forgetProfile'>;
  /** The customers each profile knows of: a deleted profile's list goes with it. */
  customers: Pick<KnownCustomers, 'forget'>;
  log: { error(message: string, error?: unknown): void };
  /** Tells the user what the keychain refused. */
  addNotice(notice: NoticeDraft): void;
}

/**
 * Handlers of the profile channels (`profiles:*` in contract.ts). A profile answers whether a relay password is
 * stored, never the password; deleting one ends its session and removes its keychain entries.
 */
export function createProfilesHandlers({
  profiles,
  sessions,
  relayPasswords,
  rootPasswords,
  customers,
  log,
  addNotice,
}: ProfilesDependencies): ChannelHandlers<
  'profiles:list' | 'profiles:save' | 'profiles:delete' | 'profiles:select' | 'profiles:trust-certificate'
> {
  /**
   * The profile as the renderer sees it: with whether a relay password is stored, never the password. A profile
   * without a relay has none (saving one without a relay clears it), so the keychain is asked only for profiles
   * with a relay: a slow keychain never holds up the login screen's list of plain profiles. A keychain that
   * cannot be read leaves the flag out (unknown) rather than failing the profile list.
   */
  const describeProfile = async (profile: Profile): Promise<Profile> => {
    if (!profile.relay) return { ...profile, relayPasswordStored: false };
    try {
      return { ...profile, relayPasswordStored: await relayPasswords.isStored(profile.id) };
    } catch (error) {
      log.error('the keychain could not say whether a relay password is stored', error);
      return profile;
    }
  };

  /**
   * Saves the profile, then its relay password when the draft carries one (null clears it). A profile without a
   * relay keeps no relay password: clearing the relay clears it too. A keychain that refuses the password leaves
   * the profile saved, answered as "not stored", with a KEYCHAIN_WRITE_FAILED notice.
   */
  const saveProfile = async (draft: ProfileDraft): Promise<Profile> => {
    const { relayPassword, relayPasswordStored: _ignored, ...fields } = draft;
    const saved = await profiles.save(fields);
    const password = saved.relay ? relayPassword : null;
    if (password === undefined) return describeProfile(saved);
    try {
      await relayPasswords.set(saved.id, password);
    } catch (error) {
      // The profile is saved (a retry must not add it twice): its answer reads "not stored" and a notice says why.
      // The keychain's error names the account at most, never the secret.
      log.error('the keychain refused the relay password', error);
      addNotice({
        code: 'KEYCHAIN_WRITE_FAILED',
        message: () =>
          t(password === null ? 'main:noticeRelayPasswordNotRemoved' : 'main:noticeRelayPasswordNotStored', {
            name: saved.name,
          }),
      });
    }
    return describeProfile(saved);
  };

  return {
    'profiles:list': async () => {
      const { profiles: list, selectedId } = profiles.list();
      return { profiles: await Promise.all(list.map(describeProfile)), selectedId };
    },
    'profiles:save': (draft) => saveProfile(draft),
    'profiles:delete': async ({ id }) => {
      if (sessions.summary()?.profileId === id) await sessions.logout();
      await profiles.delete(id);
      await sessions.deleteSecrets(id);
      await relayPasswords.set(id, null);
      await rootPasswords.forgetProfile(id);
      await customers.forget(id);
      return null;
    },
    'profiles:select': async ({ id }) => {
      await profiles.select(id);
      return null;
    },
    'profiles:trust-certificate': async ({ id, sha256 }) =>
      describeProfile(await profiles.trustCertificate(id, sha256)),
  };
}
