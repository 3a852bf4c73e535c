import { CREDENTIAL_SERVICE, type CredentialStore } from '../credentials';
import type { Profile } from '../../shared/ipc/schemas';
import type { ResolvedRelay } from './terminal-types';
import { t } from '../../shared/i18n';

/** The keychain account holding a profile's relay password. */
export function relayPasswordAccount(profileId: string): string {
  return `${profileId}:relay-password`;
}

/**
 * The keychain account where earlier versions kept a gateway's root password for every profile alike. Such an
 * entry is never read: it is deleted the first time its gateway's password is looked up (see RootPasswords).
 */
export function legacyRootPasswordAccount(gatewayId: string): string {
  return `gateway:${gatewayId}:root-password`;
}

/** The keychain account holding one profile's gateway root passwords (one JSON object, gateway id → password). */
export function rootPasswordsAccount(profileId: string): string {
  return `${profileId}:root-passwords`;
}

/** The relay is not set up for the signed-in profile: the message says what to do. */
export class RelayNotConfiguredError extends Error {
  override readonly name = 'RelayNotConfiguredError';
}

/** What the relay resolver reads. */
export interface RelayResolverOptions {
  /** The profile of the signed-in session, or undefined when nobody is signed in. */
  currentProfile(): Profile | undefined;
  credentials: CredentialStore;
  /** Relay passwords known without the keychain (the demo simulator's), by profile id. */
  knownPasswords?: ReadonlyMap<string, string>;
}

/**
 * Builds `resolveRelay` for the TerminalManager: the relay of the signed-in profile with its password from the
 * keychain (or a known demo password). Rejects with a RelayNotConfiguredError saying what is missing.
 */
export function createRelayResolver(options: RelayResolverOptions): () => Promise<ResolvedRelay> {
  return async () => {
    const profile = options.currentProfile();
    if (!profile) throw new RelayNotConfiguredError(t('terminals:relaySignInFirst'));
    if (!profile.relay) {
      throw new RelayNotConfiguredError(t('terminals:relayMissing', { profile: profile.name }));
    }
    const password =
      options.knownPasswords?.get(profile.id) ??
      (await options.credentials.get(CREDENTIAL_SERVICE, relayPasswordAccount(profile.id)));
    if (!password) {
      throw new RelayNotConfiguredError(t('terminals:relayPasswordMissing', { profile: profile.name }));
    }
    const { host, port, username, portRange } = profile.relay;
    return { relay: { host, port, username, password }, ...(portRange ? { portRange } : {}) };
  };
}

/**
 * Gateways' root passwords in the keychain, kept per profile: a password remembered while signed in to one profile
 * is never offered to another, and `forgetProfile` (profile deleted, "Forget gateway passwords" at sign-out)
 * removes them all at once. With nobody signed in nothing is read or kept. Old entries shared by every profile
 * (`legacyRootPasswordAccount`) are not adopted, since they may belong to another profile's user: each is deleted
 * when its gateway is next looked up, and the technician types the password from the label once more.
 */
export class RootPasswords {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly credentials: CredentialStore,
    /** The profile of the signed-in session, or undefined when nobody is signed in. */
    private readonly currentProfileId: () => string | undefined,
  ) {}

  /** The root password remembered for `gatewayId` in the signed-in profile. */
  rootPassword = async (gatewayId: string): Promise<string | undefined> => {
    const profileId = this.currentProfileId();
    await this.credentials
      .delete(CREDENTIAL_SERVICE, legacyRootPasswordAccount(gatewayId))
      .catch(() => false);
    if (!profileId) return undefined;
    return this.#serialise(async () => (await this.#read(profileId))[gatewayId]);
  };

  /** Remembers `password` for `gatewayId` in the signed-in profile (nothing when nobody is signed in). */
  rememberRootPassword = async (gatewayId: string, password: string): Promise<void> => {
    const profileId = this.currentProfileId();
    if (!profileId) return;
    await this.#serialise(async () => {
      const passwords = { ...(await this.#read(profileId)), [gatewayId]: password };
      await this.credentials.set(
        CREDENTIAL_SERVICE,
        rootPasswordsAccount(profileId),
        JSON.stringify(passwords),
      );
    });
  };

  /** The gateways that have a root password remembered in `profileId` (the passwords are not given out). */
  async storedGatewayIds(profileId: string): Promise<Set<string>> {
    return this.#serialise(async () => new Set(Object.keys(await this.#read(profileId))));
  }

  /** Removes every root password remembered in `profileId`. */
  async forgetProfile(profileId: string): Promise<void> {
    await this.#serialise(() => this.credentials.delete(CREDENTIAL_SERVICE, rootPasswordsAccount(profileId)));
  }

  async #read(profileId: string): Promise<Record<string, string>> {
    const stored = await this.credentials.get(CREDENTIAL_SERVICE, rootPasswordsAccount(profileId));
    if (!stored) return {};
    try {
      const parsed: unknown = JSON.parse(stored);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch {
      // Unreadable: treated as empty, so the passwords are asked for again and the entry rewritten.
      return {};
    }
  }

  #serialise<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(task, task);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

/**
 * The profiles' relay passwords as the settings screen sees them: stored, replaced or cleared in the credential
 * store (the keychain, or memory in session-only mode), plus passwords known without it (the demo relay's).
 * It answers only whether one is stored; the password is read back only by `createRelayResolver`.
 */
export class RelayPasswords {
  private readonly known = new Map<string, string>();

  constructor(private readonly credentials: CredentialStore) {}

  /** Relay passwords known without the keychain, by profile id (for `createRelayResolver`'s knownPasswords). */
  get knownPasswords(): ReadonlyMap<string, string> {
    return this.known;
  }

  /** Records a password known without the keychain (the demo simulator's relay) for a profile. */
  know(profileId: string, password: string): void {
    this.known.set(profileId, password);
  }

  /** True when reverse SSH would find a relay password for this profile. */
  async isStored(profileId: string): Promise<boolean> {
    if (this.known.has(profileId)) return true;
    return (await this.credentials.get(CREDENTIAL_SERVICE, relayPasswordAccount(profileId))) !== null;
  }

  /** Stores (a string) or removes (null) the profile's relay password. */
  async set(profileId: string, password: string | null): Promise<void> {
    if (password === null) await this.credentials.delete(CREDENTIAL_SERVICE, relayPasswordAccount(profileId));
    else await this.credentials.set(CREDENTIAL_SERVICE, relayPasswordAccount(profileId), password);
  }
}
