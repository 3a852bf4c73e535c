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
import { t } from '../../shared/i18n';
import { recorded, writeRecorded, type RecordedMessage } from '../../shared/i18n/recorded-message';

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
  constructor(message = t('wizards:cancelled')) {
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
    super(writeRecorded(unreachableRecord(gatewayId, waitedMs, lastError)));
  }

  /** The message as data, for a record the report writes in its own language. */
  get record(): RecordedMessage {
    return unreachableRecord(this.gatewayId, this.waitedMs, this.lastError);
  }
}

function unreachableRecord(gatewayId: string, waitedMs: number, lastError: unknown): RecordedMessage {
  return recorded('wizards:gatewayUnreachable', {
    gatewayId,
    duration: formatDuration(waitedMs),
    reason: describeErrorRecord(lastError),
  });
}

/** A duration in words a technician reads, whole seconds at least ("45 sec", "2 min 5 sec": format.duration). */
export function formatDuration(ms: number): string {
  return format.duration(Math.max(0, Math.round(ms / 1000)) * 1000);
}

/** The error in one sentence a technician can act on (never a stack trace), in the current language. */
export function describeError(error: unknown): string {
  return writeRecorded(describeErrorRecord(error));
}

/**
 * The error in one sentence as data (key and values): what a record keeps so the report can write it in its own
 * language. The server's own words (an ApiError's message) are passed through as they are.
 */
export function describeErrorRecord(error: unknown): RecordedMessage {
  if (error instanceof GatewayUnreachableError) return error.record;
  if (error instanceof ApiError) {
    const reason = error.message;
    if (error.status === 408) return recorded('wizards:errorGatewayTimeout', { endpoint: error.endpoint });
    if (error.status === 400) return recorded('wizards:errorRefused', { reason });
    if (error.status === 401) return recorded('wizards:errorSessionExpired');
    if (error.status === 403) return recorded('wizards:errorForbidden', { reason });
    if (error.status === 404) return recorded('wizards:errorNotFound', { reason });
    if (error.status === 429 || error.errorCode === 33) return recorded('wizards:errorBusy');
    if (error.status >= 500) return recorded('wizards:errorServer', { status: error.status, reason });
    return recorded('wizards:errorStatus', { status: error.status, reason });
  }
  if (error instanceof TimeoutError) return recorded('wizards:errorSlow', { reason: error.message });
  if (error instanceof ConnectionInterruptedError && error.mayChange)
    return recorded('wizards:errorConnectionDropped', { reason: error.message });
  if (error instanceof NetworkError) return recorded('wizards:errorUnreachable', { reason: error.message });
  if (error instanceof RequestValidationError || error instanceof ResponseValidationError)
    return recorded('wizards:errorText', { text: error.message });
  if (isCancellation(error)) return recorded('wizards:cancelledSentence');
  if (error instanceof RecordedError) return error.record;
  if (error instanceof Error) return recorded('wizards:errorText', { text: error.message });
  return recorded('wizards:errorText', { text: String(error) });
}

/** An error whose message is one of ours: thrown in the current language, kept as data for records. */
export class RecordedError extends Error {
  constructor(readonly record: RecordedMessage) {
    super(writeRecorded(record));
  }
}
