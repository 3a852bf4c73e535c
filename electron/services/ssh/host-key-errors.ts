import { t } from '../../shared/i18n';

/**
 * A host presented a key other than the one pinned for it: the connection was refused. The UI shows
 * both fingerprints and offers `replaceHostKey(keyId, actual)` as an explicit action.
 */
export class HostKeyChangedError extends Error {
  override readonly name = 'HostKeyChangedError';

  constructor(
    /** What the key is pinned under: `host:port` for a relay, `gateway:<gatewayId>` for a gateway. */
    readonly keyId: string,
    /** The pinned fingerprint (`SHA256:…`). */
    readonly expected: string,
    /** The fingerprint the host presented now. */
    readonly actual: string,
  ) {
    super(t('terminals:hostKeyChanged', { keyId, expected, actual }));
  }
}

/** "Replace key" named a key that no "key changed" refusal showed last for that key id: nothing was pinned. */
export class HostKeyNotRefusedError extends Error {
  override readonly name = 'HostKeyNotRefusedError';

  constructor(readonly keyId: string) {
    super(t('terminals:hostKeyNotRefused', { keyId }));
  }
}

/** The known-hosts file exists but cannot be read as one: nothing is trusted or overwritten until it is fixed. */
export class KnownHostsUnreadableError extends Error {
  override readonly name = 'KnownHostsUnreadableError';

  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(t('terminals:knownHostsUnreadable', { path, detail }));
  }
}
