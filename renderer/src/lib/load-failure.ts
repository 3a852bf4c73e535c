import { readHttpStatus } from '../../../electron/shared/ipc/error-details';
import { isServerRefusing } from './error-messages';
import { t } from './i18n';
import type { IpcErrorShape } from './wire-types';

/**
 * Why a load failed, in the words every view's failure line uses (one wording, whatever the view): what went
 * wrong, then what happens next. `what` names what was loaded, already in the current language ("the gateways",
 * "die Gateways"): a noun phrase with its article, as the object of "load".
 */
export function describeLoadFailure(error: IpcErrorShape, what: string): string {
  const status = readHttpStatus(error.details);
  switch (status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : error.code) {
    case 'NETWORK':
      // Refused: the server is down, not the laptop's network (kept for name lookups, no route, time-outs).
      if (isServerRefusing(error)) return t('app:loadServerDown', { what });
      return t('app:loadNetwork', { what });
    case 'INTERRUPTED':
      return t('app:loadInterrupted', { what });
    case 'TIMEOUT':
      return t('app:loadTimeout', { what });
    case 'SESSION_EXPIRED':
    case 'UNAUTHENTICATED':
      return t('app:loadSessionExpired', { what });
    case 'FORBIDDEN':
      return t('app:loadForbidden', { what });
    case 'NOT_FOUND':
      return t('app:loadNotFound', { what });
    case 'INVALID_INPUT':
      return t('app:loadInvalid', { what, reason: error.message });
    case 'API_ERROR':
      return t('app:loadServerFailed', { what, reason: endWithoutStop(error.message) });
    default:
      return t('app:loadOther', { what, reason: endWithoutStop(error.message) });
  }
}

function endWithoutStop(text: string): string {
  return text.trim().replace(/[.]+$/, '');
}
