import type { EndpointCallParts, IpcClient } from '../../lib/ipc';
import type { IpcErrorShape, Result } from '../../lib/wire-types';
import type { EndpointAnswer, EndpointName } from '../../../../electron/shared/api/endpoints';
import { readHttpStatus } from '../../../../electron/shared/ipc/error-details';

/** The parts of one `api:call`, as a form builds them (IpcClient's EndpointCallParts). */
export type ApiCallParts<E extends EndpointName = EndpointName> = EndpointCallParts<E>;

/** Calls one endpoint through main (which validates it again with the typed client); the answer as a Result. */
export function callApi<E extends EndpointName>(
  client: IpcClient,
  parts: ApiCallParts<E>,
): Promise<Result<EndpointAnswer<E>>> {
  return client.callParts(parts);
}

/** What to say for a refused or missing subject, in the words of the thing being looked at. */
export interface ErrorWords {
  forbidden: string;
  notFound: string;
}

/**
 * Says in a technician's words why a call failed: access (403), a missing subject (404), a timeout, an
 * unreachable server, an expired session, or the server's own message otherwise.
 */
export function describeCallError(error: IpcErrorShape, words: ErrorWords): string {
  const status = readHttpStatus(error.details);
  if (error.code === 'FORBIDDEN' || status === 403) return words.forbidden;
  if (error.code === 'NOT_FOUND' || status === 404) return words.notFound;
  switch (error.code) {
    case 'TIMEOUT':
      return 'The server did not answer in time. The connection may be slow; try again.';
    case 'NETWORK':
      return "Can't reach the server. Check this laptop's network (hotspot, Wi-Fi, VPN), then try again.";
    case 'SESSION_EXPIRED':
    case 'UNAUTHENTICATED':
      return 'Your session has ended. Sign in again to continue.';
    case 'INVALID_INPUT':
      return `The request was refused before sending: ${error.message}`;
    default:
      return `The server refused the request: ${error.message}`;
  }
}
