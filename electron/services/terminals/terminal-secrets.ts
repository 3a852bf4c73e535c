import { CREDENTIAL_SERVICE, type CredentialStore } from '../credentials';
import type { Profile } from '../../shared/ipc/schemas';
import type { ResolvedRelay } from './terminal-manager';

/** The keychain account holding a profile's relay password. */
export function relayPasswordAccount(profileId: string): string {
  return `${profileId}:relay-password`;
}

/** The keychain account holding a gateway's root password (from its label). */
export function rootPasswordAccount(gatewayId: string): string {
  return `gateway:${gatewayId}:root-password`;
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
    if (!profile) throw new RelayNotConfiguredError('Sign in first: reverse SSH goes through your server.');
    if (!profile.relay) {
      throw new RelayNotConfiguredError(
        `The profile "${profile.name}" has no SSH relay. Add the relay host, port and user in Settings.`,
      );
    }
    const password =
      options.knownPasswords?.get(profile.id) ??
      (await options.credentials.get(CREDENTIAL_SERVICE, relayPasswordAccount(profile.id)));
    if (!password) {
      throw new RelayNotConfiguredError(
        `No relay password is stored for the profile "${profile.name}". Enter it in Settings: edit the profile, Relay password.`,
      );
    }
    const { host, port, username, portRange } = profile.relay;
    return { relay: { host, port, username, password }, ...(portRange ? { portRange } : {}) };
  };
}

/** Reads and keeps gateways' root passwords in the keychain. */
export function createRootPasswordStore(credentials: CredentialStore): {
  rootPassword(gatewayId: string): Promise<string | undefined>;
  rememberRootPassword(gatewayId: string, password: string): Promise<void>;
} {
  return {
    rootPassword: async (gatewayId) =>
      (await credentials.get(CREDENTIAL_SERVICE, rootPasswordAccount(gatewayId))) ?? undefined,
    rememberRootPassword: (gatewayId, password) =>
      credentials.set(CREDENTIAL_SERVICE, rootPasswordAccount(gatewayId), password),
  };
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
