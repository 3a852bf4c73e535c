import {
  ApiError,
  CertificateUntrustedError,
  ConnectionInterruptedError,
  NetworkError,
  RequestAbortedError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from '../services/api';
import { ERROR_CODES } from '../shared/api';
import { IpcError } from '../shared/ipc/result';
import { t } from '../shared/i18n';
import { ConfirmationRequiredError } from '../services/commands/risk-guards';
import {
  describeError,
  EditRejectedError,
  GatewayUnreachableError,
  GuardNotConfirmedError,
} from '../services/commissioning';
import { CredentialStoreError } from '../services/credentials';
import { UnsafePathError } from '../services/files/private-files';
import { SessionExpiredError } from '../services/session';
import { PhotoRejectedError } from '../services/visit/photo-rules';
import { JournalReadOnlyError, JournalWriteError, VisitRefusedError } from '../services/visit';

const MAX_MESSAGE_LENGTH = 300;

/**
 * What an interrupted call means, the same words wherever it shows (console, wizard, fleet row, task), in the
 * language of the screen when the error is made.
 */
export function interruptedMessage(): string {
  return t('errors:interruptedWrite');
}

/** Finds the first error of a type in an error's `cause` chain (bounded: causes can form a cycle). */
export function findCause<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth += 1) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Turns the services' errors into IPC errors with messages a technician can act on. Server messages are
 * passed through trimmed (they describe the request, not our secrets); anything unknown is left to the router,
 * which answers a generic INTERNAL.
 */
export function mapServiceError(error: unknown): IpcError | undefined {
  if (error instanceof ConfirmationRequiredError)
    return new IpcError('INVALID_INPUT', error.message, {
      missing: error.missing,
      disruptions: error.assessment.disruptions,
      guards: error.assessment.guards,
    });
  const certificate = findCause(error, CertificateUntrustedError);
  if (certificate) {
    return new IpcError('CERTIFICATE_UNTRUSTED', t('errors:certificateUntrusted'), {
      sha256: certificate.sha256,
      subject: certificate.subject,
    });
  }
  if (error instanceof IpcError) return error;
  if (error instanceof GuardNotConfirmedError)
    return new IpcError('INVALID_INPUT', error.message, { guards: error.guards });
  if (error instanceof EditRejectedError)
    return new IpcError('INVALID_INPUT', error.message, { problems: error.problems });
  if (error instanceof GatewayUnreachableError) return new IpcError('TIMEOUT', error.message);
  if (error instanceof RequestValidationError) {
    return new IpcError('INVALID_INPUT', t('errors:fieldsNotValid'), error.issues);
  }
  if (error instanceof SessionExpiredError) {
    return new IpcError('SESSION_EXPIRED', t('errors:sessionExpired'));
  }
  if (error instanceof ApiError) return mapApiError(error);
  if (error instanceof ResponseValidationError) {
    return new IpcError('API_ERROR', trim(error.message), {
      status: null,
      errorCode: null,
      endpoint: error.endpoint,
      issues: error.issues,
    });
  }
  if (error instanceof TimeoutError) return new IpcError('TIMEOUT', trim(error.message));
  if (error instanceof RequestAbortedError) return new IpcError('TIMEOUT', trim(error.message));
  // Before NETWORK: an interrupted call is a network failure too, but the server may have acted on it.
  if (error instanceof ConnectionInterruptedError)
    return new IpcError('INTERRUPTED', error.mayChange ? interruptedMessage() : t('errors:interruptedRead'), {
      cause: trim(error.message),
    });
  // `network` says why (NetworkFailureKind): a refused connection is the server down, not the laptop's network.
  if (error instanceof NetworkError)
    return new IpcError('NETWORK', trim(error.message), { network: error.kind });
  if (error instanceof CredentialStoreError) return new IpcError('INTERNAL', trim(error.message));
  if (error instanceof UnsafePathError) return new IpcError('INTERNAL', trim(error.message));
  // The visit journal's refusals say what was not done and why; nothing about them is secret.
  if (error instanceof VisitRefusedError || error instanceof PhotoRejectedError)
    return new IpcError('INVALID_INPUT', error.message);
  if (error instanceof JournalWriteError || error instanceof JournalReadOnlyError)
    return new IpcError('INTERNAL', error.message, { notRecorded: true });
  return undefined;
}

/**
 * An error of a commissioning engine (wizard, gateway task, fleet job, report) as an IPC error: the service
 * mapping, else the engine's own words as an API_ERROR (an engine's failure is the gateway's or the server's).
 */
export function mapEngineError(error: unknown): IpcError {
  return mapServiceError(error) ?? new IpcError('API_ERROR', describeError(error));
}

function mapApiError(error: ApiError): IpcError {
  const details = { status: error.status, errorCode: error.errorCode, endpoint: error.endpoint };
  const message = trim(error.message);
  if (error.status === 401) {
    if (error.errorCode === ERROR_CODES.ACCESS_TOKEN_EXPIRED) {
      return new IpcError('SESSION_EXPIRED', t('errors:sessionExpired'), details);
    }
    return new IpcError('UNAUTHENTICATED', message || t('errors:wrongCredentials'), details);
  }
  if (error.status === 403) return new IpcError('FORBIDDEN', message || t('errors:forbidden'), details);
  if (error.status === 404) return new IpcError('NOT_FOUND', message || t('errors:notFound'), details);
  if (error.status === 408) {
    return new IpcError('TIMEOUT', message || t('errors:gatewayNoAnswer'), details);
  }
  return new IpcError('API_ERROR', message || t('errors:serverStatus', { status: error.status }), details);
}

function trim(message: string): string {
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
}
