import {
  ApiError,
  ConnectionInterruptedError,
  NetworkError,
  RequestAbortedError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from '../api';
import { format } from '../../shared/format';

/**
 * True when the error means "the gateway (or the path to it) did not answer": a command timeout (408), a
 * request timeout, or a network failure. Such a gateway may be rebooting; the engines wait through it.
 */
export function isUnresponsive(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 408;
  return error instanceof TimeoutError || error instanceof NetworkError;
}

/**
 * True when trying again later may succeed: unresponsive (above), a server failure (5xx) or "too many
 * requests" (429 / errorCode 33). A refusal (400, 401, 403, 404) is not transient.
 */
export function isTransient(error: unknown): boolean {
  if (isUnresponsive(error)) return true;
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429 || error.errorCode === 33;
  return false;
}

/** True when the error is a cancellation (the caller's AbortSignal), not a failure. */
export function isCancellation(error: unknown): boolean {
  if (error instanceof RequestAbortedError) return true;
  return error instanceof Error && (error.name === 'AbortError' || error instanceof CancelledError);
}

/** The run was cancelled by the technician. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/** The gateway did not come back before the deadline. `waitedMs` says for how long it was given. */
export class GatewayUnreachableError extends Error {
  override readonly name = 'GatewayUnreachableError';
  constructor(
    readonly gatewayId: string,
    readonly waitedMs: number,
    readonly lastError: unknown,
  ) {
    super(
      `Gateway ${gatewayId} did not answer for ${formatDuration(waitedMs)}: it may be powered off, rebooting, ` +
        `or without a working WAN link. Last answer: ${describeError(lastError)}`,
    );
  }
}

/** A duration in words a technician reads, whole seconds at least ("45 sec", "2 min 5 sec": format.duration). */
export function formatDuration(ms: number): string {
  return format.duration(Math.max(0, Math.round(ms / 1000)) * 1000);
}

/** The error in one sentence a technician can act on (never a stack trace). */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 408)
      return `The gateway did not answer ${error.endpoint} in time (it may be rebooting, powered off or out of coverage).`;
    if (error.status === 400) return `The gateway refused the request: ${error.message}`;
    if (error.status === 401) return 'The session is no longer valid: sign in again.';
    if (error.status === 403) return `Not allowed: ${error.message}`;
    if (error.status === 404) return `Not found: ${error.message}`;
    if (error.status === 429 || error.errorCode === 33) return 'The server is busy (too many requests).';
    if (error.status >= 500) return `The server failed (${error.status}): ${error.message}`;
    return `${error.status}: ${error.message}`;
  }
  if (error instanceof TimeoutError) return `${error.message} (the server or the network is slow).`;
  if (error instanceof ConnectionInterruptedError && error.mayChange)
    return `The connection dropped after the request was sent — the gateway may have the change; read it back (${error.message}).`;
  if (error instanceof NetworkError) return `The server could not be reached: ${error.message}`;
  if (error instanceof RequestValidationError || error instanceof ResponseValidationError)
    return error.message;
  if (isCancellation(error)) return 'Cancelled.';
  if (error instanceof Error) return error.message;
  return String(error);
}
