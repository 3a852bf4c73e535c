import { randomUUID } from 'node:crypto';
import { t } from '../../shared/i18n';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import {
  CREDENTIAL_SERVICE,
  CredentialStoreError,
  MemoryStore,
  type CredentialStore,
} from './credential-store';

/** The part of keytar this store uses (so tests can hand in a fake that hangs or fails). */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** How long a keychain call may take before the keychain counts as not answering. */
export const KEYCHAIN_TIMEOUT_MS = 5_000;

/** The timers a keychain call's time limit runs on. */
type KeychainTimers = Pick<Clock, 'setTimeout' | 'clearTimeout'>;

/**
 * Stores secrets in the OS keychain through keytar; every call fails with CredentialStoreError after a timeout
 * (on `clock`, default SYSTEM_CLOCK).
 */
export class KeytarStore implements CredentialStore {
  readonly kind = 'os' as const;

  constructor(
    private readonly keytar: KeytarApi,
    private readonly timeoutMs = KEYCHAIN_TIMEOUT_MS,
    private readonly clock: KeychainTimers = SYSTEM_CLOCK,
  ) {}

  get(service: string, account: string): Promise<string | null> {
    return withTimeout(() => this.keytar.getPassword(service, account), this.timeoutMs, this.clock);
  }

  set(service: string, account: string, secret: string): Promise<void> {
    return withTimeout(() => this.keytar.setPassword(service, account, secret), this.timeoutMs, this.clock);
  }

  delete(service: string, account: string): Promise<boolean> {
    return withTimeout(() => this.keytar.deletePassword(service, account), this.timeoutMs, this.clock);
  }
}

/** The credential store the app runs with, and whether secrets survive a restart. */
export interface OpenedCredentialStore {
  store: CredentialStore;
  keychain: 'os' | 'session-only';
  /** Why the OS keychain is not used (for the log and the UI), when it is not. */
  reason?: string;
}

/** How to reach keytar; the default loads the native module lazily so its absence is not a crash. */
export interface OpenCredentialStoreOptions {
  loadKeytar?: () => Promise<KeytarApi>;
  timeoutMs?: number;
  /** The timers of the time limits (the app's Clock; default SYSTEM_CLOCK). */
  clock?: KeychainTimers;
}

/**
 * Opens the OS keychain when it loads and answers a write-read-delete probe within `timeoutMs` altogether (not
 * per step: the app's first screen waits for this), otherwise a MemoryStore in the visible `session-only` mode.
 * Never falls back to a file.
 */
export async function openCredentialStore(
  options: OpenCredentialStoreOptions = {},
): Promise<OpenedCredentialStore> {
  const timeoutMs = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS;
  const loadKeytar = options.loadKeytar ?? loadNativeKeytar;
  const clock = options.clock ?? SYSTEM_CLOCK;
  try {
    const store = await withTimeout(
      async () => {
        const opened = new KeytarStore(await loadKeytar(), timeoutMs, clock);
        const account = `probe-${randomUUID()}`;
        const probe = randomUUID();
        await opened.set(CREDENTIAL_SERVICE, account, probe);
        const read = await opened.get(CREDENTIAL_SERVICE, account);
        await opened.delete(CREDENTIAL_SERVICE, account);
        if (read !== probe) throw new CredentialStoreError(t('main:keychainMismatch'));
        return opened;
      },
      timeoutMs,
      clock,
    );
    return { store, keychain: 'os' };
  } catch (error) {
    return {
      store: new MemoryStore(),
      keychain: 'session-only',
      reason: error instanceof Error ? error.message : String(error),
    };
  }
}

async function loadNativeKeytar(): Promise<KeytarApi> {
  const module = (await import('keytar')) as KeytarApi & { default?: KeytarApi };
  return module.default ?? module;
}

async function withTimeout<T>(run: () => Promise<T>, timeoutMs: number, clock: KeychainTimers): Promise<T> {
  let timer: unknown;
  const timeout = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(
      () => reject(new CredentialStoreError(t('main:keychainTimeout', { milliseconds: timeoutMs }))),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([run(), timeout]);
  } catch (error) {
    if (error instanceof CredentialStoreError) throw error;
    throw new CredentialStoreError(
      t('main:keychainRefused', { reason: error instanceof Error ? error.message : String(error) }),
    );
  } finally {
    clock.clearTimeout(timer);
  }
}
