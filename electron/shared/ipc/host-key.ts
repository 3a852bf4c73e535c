// The browser host's credential as both ends spell it (docs/adr/0005-host-credential.md): the page holds a per-run
// key in its own origin's storage and offers it as a WebSocket subprotocol; no cookie carries it.

/** The subprotocol the browser host speaks on /ipc; the host selects it, so the key is never echoed back. */
export const HOST_PROTOCOL = 'fieldkit';

/** The prefix of the subprotocol that carries the page's key: `fieldkit-key.<key>`. */
export const HOST_KEY_PROTOCOL_PREFIX = 'fieldkit-key.';

/** The fragment parameter the link exchange redirects with (`/#fieldkit-key=<key>`); never sent to a server. */
export const HOST_KEY_FRAGMENT_NAME = 'fieldkit-key';

/** The page's localStorage entry holding the key the host last accepted (storage is per origin, port included). */
export const HOST_KEY_STORAGE_NAME = 'fieldkit-host-key';

/** The close code of a socket whose key is missing or is not this run's: the page should not retry with it. */
export const HOST_KEY_REFUSED_CODE = 4401;

/** The close code of a socket refused because the host already serves its most connections (RFC 6455 "try again later"). */
export const HOST_BUSY_CODE = 1013;

/** The subprotocols a page offers: ours, and its key when it has one. */
export function hostProtocols(key: string | undefined): string[] {
  return key ? [HOST_PROTOCOL, `${HOST_KEY_PROTOCOL_PREFIX}${key}`] : [HOST_PROTOCOL];
}
