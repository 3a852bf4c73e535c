import type { FieldIssue } from '../../shared/api';
import { summarizeIssues } from '../../shared/api';

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
    super(`Request to ${endpoint} refused before sending: ${summarizeIssues(issues)}`);
  }
}

/** The server's answer does not match the spec. `issues` names each field that does not. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  constructor(
    readonly endpoint: string,
    readonly issues: FieldIssue[],
  ) {
    super(`Unexpected answer from ${endpoint}: ${summarizeIssues(issues)}`);
  }
}

/** The server could not be reached (refused, DNS, TLS, connection dropped). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly endpoint: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No answer within the time limit. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(
    readonly endpoint: string,
    readonly timeoutMs: number,
  ) {
    super(`No answer from ${endpoint} within ${Math.round(timeoutMs / 100) / 10} s`);
  }
}

/** The caller aborted the request through its AbortSignal. */
export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
  constructor(readonly endpoint: string) {
    super(`Request to ${endpoint} was cancelled`);
  }
}
