import { readHttpStatus } from '../../../electron/shared/ipc/error-details';
import type { IpcErrorShape } from './wire-types';

/**
 * Why a load failed, in the words every view's failure line uses (one wording, whatever the view): what went
 * wrong, then what happens next. `what` names what was loaded ("the gateways").
 */
export function describeLoadFailure(error: IpcErrorShape, what: string): string {
  const status = readHttpStatus(error.details);
  switch (status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : error.code) {
    case 'NETWORK':
      return `Could not load ${what}: the server could not be reached. Check this laptop's network (hotspot, Wi-Fi, VPN).`;
    case 'INTERRUPTED':
      return `Could not load ${what}: the connection dropped before the answer came.`;
    case 'TIMEOUT':
      return `Could not load ${what}: the server did not answer in time.`;
    case 'SESSION_EXPIRED':
    case 'UNAUTHENTICATED':
      return `Could not load ${what}: your session has expired. Once you sign in again it loads by itself.`;
    case 'FORBIDDEN':
      return `Could not load ${what}: your account has no access to it. Ask your administrator for access.`;
    case 'NOT_FOUND':
      return `Could not load ${what}: the server does not know what was asked for (deleted, moved, or a wrong id).`;
    case 'INVALID_INPUT':
      return `Could not load ${what}: the request was refused as invalid (${error.message}).`;
    case 'API_ERROR':
      return `Could not load ${what}: the server failed (${endWithoutStop(error.message)}).`;
    default:
      return `Could not load ${what}: ${endWithoutStop(error.message)}.`;
  }
}

function endWithoutStop(text: string): string {
  return text.trim().replace(/[.]+$/, '');
}
