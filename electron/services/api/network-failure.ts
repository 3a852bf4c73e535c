/**
 * What kind of failure kept a request from reaching the server, read from the error `fetch` rejected with:
 * - `refused`: the host answered that nothing listens there (the server is stopped or restarting): the laptop's
 *   network works;
 * - `name-not-found`: the server's name could not be looked up (no network, or a wrong address);
 * - `no-route`: no way to the host (no network, the host or its network is down);
 * - `timed-out`: the connection was not accepted in time;
 * - `other`: anything else (a certificate refused, a reset, an unknown code).
 */
export type NetworkFailureKind = 'refused' | 'name-not-found' | 'no-route' | 'timed-out' | 'other';

const KINDS: Readonly<Record<string, NetworkFailureKind>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'name-not-found',
  EAI_AGAIN: 'name-not-found',
  EHOSTUNREACH: 'no-route',
  ENETUNREACH: 'no-route',
  EHOSTDOWN: 'no-route',
  ENETDOWN: 'no-route',
  ETIMEDOUT: 'timed-out',
  UND_ERR_CONNECT_TIMEOUT: 'timed-out',
};

/** The system error code behind a failed fetch (`fetch failed` carries it as its cause), or ''. */
export function networkErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : '';
}

/** The kind of a fetch's network failure (see NetworkFailureKind). */
export function networkFailureKind(error: unknown): NetworkFailureKind {
  return KINDS[networkErrorCode(error)] ?? 'other';
}

/** True when a fetch failed because the server could not be reached at all (never connected): not a reset or a certificate. */
export function isServerOutOfReach(error: unknown): boolean {
  return networkFailureKind(error) !== 'other';
}
