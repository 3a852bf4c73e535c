import type { EndpointCallParts, IpcClient } from '../../lib/ipc';
import type { Result } from '../../lib/wire-types';
import type { EndpointAnswer, EndpointName } from '../../../../electron/shared/api/endpoints';

/** The parts of one `api:call`, as a form builds them (IpcClient's EndpointCallParts). */
export type ApiCallParts<E extends EndpointName = EndpointName> = EndpointCallParts<E>;

/** Calls one endpoint through main (which validates it again with the typed client); the answer as a Result. */
export function callApi<E extends EndpointName>(
  client: IpcClient,
  parts: ApiCallParts<E>,
): Promise<Result<EndpointAnswer<E>>> {
  return client.callParts(parts);
}
