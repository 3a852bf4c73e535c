import type { FieldIssue } from '../../shared/api';
import { ERROR_CODES, summarizeIssues } from '../../shared/api';
import { t } from '../../shared/i18n';
import { networkFailureKind, type NetworkFailureKind } from './network-failure';

// Messages are written in the screen's language when the error is made (main follows the screen).

/** The server answered with an error status. `errorCode` is the body's (api.md), or 2 when it had none. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
    readonly endpoint: string,
  ) {
    super(message);
  }
}

/** The request broke a rule of the spec and was not sent. `issues` names each failing field. */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';
  constructor(
    readonly endpoint: string,
    readonly issues: FieldIssue[],
  ) {
    super(t('errors:requestRefused', { endpoint, issues: summarizeIssues(issues) }));
  }
}

/** The server's answer does not match the spec. `issues` names each field that does not. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  constructor(
    readonly endpoint: string,
    readonly issues: FieldIssue[],
  ) {
    super(t('errors:unexpectedAnswer', { endpoint, issues: summarizeIssues(issues) }));
  }
}

/**
 * The server could not be reached (refused, DNS, TLS, connection dropped). `kind` says which, so that the words
 * can blame the server (refused: nothing listens) or the laptop's network (name lookup, no route, time-out).
 */
export class NetworkError extends Error {
  override readonly name: string = 'NetworkError';
  readonly kind: NetworkFailureKind;
  constructor(
    readonly endpoint: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = networkFailureKind(options?.cause);
  }
}

/**
 * The connection dropped after the request was sent (reset, or closed by the other side before the whole answer
 * came): unlike an unreachable server, the server may have received it and a gateway may have the change.
 */
export class ConnectionInterruptedError extends NetworkError {
  override readonly name = 'ConnectionInterruptedError';
  /** True when the request could change something (a write): the server may have carried it out. */
  readonly mayChange: boolean;
  constructor(endpoint: string, message: string, options: { cause?: unknown; mayChange: boolean }) {
    super(endpoint, message, { cause: options.cause });
    this.mayChange = options.mayChange;
  }
}

/** No answer within the time limit. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(
    readonly endpoint: string,
    readonly timeoutMs: number,
  ) {
    super(t('errors:noAnswerWithin', { endpoint, seconds: Math.round(timeoutMs / 100) / 10 }));
  }
}

/** The caller aborted the request through its AbortSignal. */
export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
  constructor(readonly endpoint: string) {
    super(t('errors:requestCancelled', { endpoint }));
  }
}

/**
 * The answer is longer than the client reads (MAX_ANSWER_BYTES): it was refused while it streamed in, before
 * it was held whole. Issues name the root, so it reads as any other unexpected answer.
 */
export class AnswerTooLargeError extends ResponseValidationError {
  constructor(
    endpoint: string,
    readonly limitBytes: number,
  ) {
    super(endpoint, [
      {
        path: '(root)',
        message: t('errors:answerTooLarge', { size: formatMegabytes(limitBytes) }),
      },
    ]);
  }
}

/**
 * The server answered with a redirect. API calls never follow one (the access token must not reach another
 * address): the status and the address it pointed to are named so the user can fix the profile.
 */
export class RedirectRefusedError extends ApiError {
  constructor(
    status: number,
    readonly location: string,
    endpoint: string,
  ) {
    super(
      status,
      ERROR_CODES.GENERAL,
      location
        ? t('errors:redirectRefused', { endpoint, status, location })
        : t('errors:redirectRefusedNoAddress', { endpoint, status }),
      endpoint,
    );
  }
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
