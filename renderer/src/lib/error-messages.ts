import { t } from './i18n';
import type { IpcErrorShape } from './wire-types';

function detailsOf(error: IpcErrorShape): Record<string, unknown> {
  return typeof error.details === 'object' && error.details !== null
    ? (error.details as Record<string, unknown>)
    : {};
}

function isRedirectStatus(status: unknown): boolean {
  return typeof status === 'number' && status >= 300 && status < 400;
}

/**
 * True when a call failed because the server refused the connection (main's `details.network`): the host is
 * there and nothing listens, so the server is stopped or restarting and the laptop's network is not to blame.
 */
export function isServerRefusing(error: IpcErrorShape): boolean {
  return error.code === 'NETWORK' && detailsOf(error).network === 'refused';
}

/** True when the server refused the user name or password (rather than being unreachable or broken). */
export function isWrongCredentials(error: IpcErrorShape): boolean {
  if (error.code === 'UNAUTHENTICATED') return true;
  const details = detailsOf(error);
  return error.code === 'API_ERROR' && details.status === 401 && details.errorCode !== 15;
}

/**
 * Says in a technician's words what a failed sign-in means and what to do about it. `baseUrl` names the server
 * in the unreachable case.
 */
export function describeLoginError(error: IpcErrorShape, baseUrl: string): string {
  if (isWrongCredentials(error)) return t('app:loginWrongCredentials');
  const details = detailsOf(error);
  switch (error.code) {
    case 'NETWORK':
      if (isServerRefusing(error)) return t('app:loginServerDown', { address: baseUrl });
      return t('app:loginUnreachable', { address: baseUrl });
    case 'TIMEOUT':
      return t('app:loginTimeout');
    case 'FORBIDDEN':
      return t('app:loginForbidden');
    case 'API_ERROR':
      if (details.errorCode === 15) return t('app:loginPasswordExpired');
      // No status, or a redirect: the server did answer, and Field Kit refused what it answered.
      if (details.status === null || isRedirectStatus(details.status))
        return t('app:loginAnswerUnusable', { reason: error.message });
      // A 5xx is the server failing, not refusing: nothing is wrong with what was typed.
      if (typeof details.status === 'number' && details.status >= 500)
        return t('app:loginServerFailed', { status: details.status, reason: error.message });
      return t('app:loginRefused', { reason: error.message });
    case 'INVALID_INPUT':
      return t('app:loginInvalidInput');
    case 'INTERNAL':
      return t('app:loginInternal');
    default:
      return error.message;
  }
}

/** The certificate the server presented, when a call failed because it is not trusted. */
export function readUntrustedCertificate(error: IpcErrorShape): { sha256: string; subject: string } | null {
  if (error.code !== 'CERTIFICATE_UNTRUSTED') return null;
  const details = detailsOf(error);
  return typeof details.sha256 === 'string'
    ? { sha256: details.sha256, subject: typeof details.subject === 'string' ? details.subject : '' }
    : null;
}

/** Groups a hex SHA-256 fingerprint in colon-separated pairs, the way certificate viewers show it. */
export function formatFingerprint(sha256: string): string {
  const hex = sha256.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return hex.match(/.{1,2}/g)?.join(':') ?? sha256;
}
