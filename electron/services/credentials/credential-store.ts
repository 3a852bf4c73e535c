/** Where secrets (refresh tokens, remembered passwords) live; the only way services touch them. */
export interface CredentialStore {
  /** `os` for the system keychain; `memory` for a store that forgets everything when the app quits. */
  readonly kind: 'os' | 'memory';
  /** The secret stored for service + account, or null when there is none. */
  get(service: string, account: string): Promise<string | null>;
  /** Stores (or replaces) the secret for service + account. */
  set(service: string, account: string, secret: string): Promise<void>;
  /** Removes the secret; true when there was one. */
  delete(service: string, account: string): Promise<boolean>;
}

/** The keychain service name every Field Kit secret is filed under. */
export const CREDENTIAL_SERVICE = 'oam-field-kit';

/** The keychain account holding a profile's refresh token. */
export function refreshTokenAccount(profileId: string): string {
  return `${profileId}:refresh-token`;
}

/** The keychain account holding a profile's remembered password (and the user it belongs to). */
export function passwordAccount(profileId: string): string {
  return `${profileId}:password`;
}

/** Thrown when the keychain does not answer or refuses; the message is safe to show. */
export class CredentialStoreError extends Error {
  override readonly name = 'CredentialStoreError';
}

/** Keeps secrets in process memory only: for tests and for the session-only mode. Never touches disk. */
export class MemoryStore implements CredentialStore {
  readonly kind = 'memory' as const;
  private readonly secrets = new Map<string, string>();

  async get(service: string, account: string): Promise<string | null> {
    return this.secrets.get(key(service, account)) ?? null;
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    this.secrets.set(key(service, account), secret);
  }

  async delete(service: string, account: string): Promise<boolean> {
    return this.secrets.delete(key(service, account));
  }
}

function key(service: string, account: string): string {
  return JSON.stringify([service, account]);
}
