import type { EndpointCallParts, IpcClient } from '../../lib/ipc';
import type { IpcErrorShape, SessionSummary } from '../../lib/wire-types';
import type { EndpointAnswer, EndpointName } from '../../../../electron/shared/api/endpoints';
import { bspRequirement } from '../../../../electron/shared/api/command-titles';

/** One read of the endpoint table: what `api:call` takes and what `cache:get` looks up. */
export type ReadParts<E extends EndpointName = EndpointName> = EndpointCallParts<E>;

/**
 * A page of the signed-in user's gateways (`query`: page, limit, sort, textSearch…): a provider user's are the
 * provider's, a customer user's the customer's. Null when the session names neither (nothing to list).
 */
export function userGatewaysRequest(
  summary: Pick<SessionSummary, 'role' | 'providerId' | 'customerId'> | null,
  query: Record<string, unknown>,
): ReadParts<'listProviderGateways' | 'listCustomerGateways'> | null {
  if (summary?.role === 'PROVIDER_USER' && summary.providerId) {
    return { endpoint: 'listProviderGateways', params: { providerId: summary.providerId }, query };
  }
  if (summary?.customerId) {
    return { endpoint: 'listCustomerGateways', params: { customerId: summary.customerId }, query };
  }
  if (summary?.providerId) {
    return { endpoint: 'listProviderGateways', params: { providerId: summary.providerId }, query };
  }
  return null;
}

/**
 * The outcome of a read: live (`asOf` null), from the offline cache when the server could not be reached
 * (`asOf` = when that answer was received), or an error when neither was possible.
 */
export type ReadOutcome<Value> =
  { ok: true; value: Value; asOf: number | null } | { ok: false; error: IpcErrorShape };

/**
 * Reads through `api:call`; when the server cannot be reached (NETWORK), answers the last cached answer of the
 * same read instead, marked with its time. Other errors (403, 404, expired session) are never hidden by the
 * cache: they say something the technician must know.
 */
export async function readThroughCache<E extends EndpointName>(
  client: IpcClient,
  parts: ReadParts<E>,
): Promise<ReadOutcome<EndpointAnswer<E>>> {
  const live = await client.callParts(parts);
  if (live.ok) return { ok: true, value: live.value, asOf: null };
  // Not signed in (field mode) is offline as far as the copy goes: the pack and cache are all there is.
  if (live.error.code !== 'NETWORK' && live.error.code !== 'UNAUTHENTICATED')
    return { ok: false, error: live.error };
  return readCached(client, parts, live.error);
}

/**
 * Reads only what this laptop kept (the offline cache, or the site pack): no request to the server, so it answers
 * at once when the server is known to be away. `missing` is the error answered when nothing was kept.
 */
export async function readCached<E extends EndpointName>(
  client: IpcClient,
  parts: ReadParts<E>,
  missing: IpcErrorShape = { code: 'NETWORK', message: 'Nothing was kept for this read.' },
): Promise<ReadOutcome<EndpointAnswer<E>>> {
  const cached = await client.cached(parts);
  if (cached.ok && cached.value) return { ok: true, value: cached.value.value, asOf: cached.value.asOf };
  return { ok: false, error: missing };
}

/** What a failed read means, in a technician's words. `what` names the thing read ("the gateways"). */
export function describeReadError(error: IpcErrorShape, what: string): string {
  switch (error.code) {
    case 'NETWORK':
      return `Can't reach the server to load ${what}, and nothing was saved from an earlier visit. Check this laptop's network (hotspot, Wi-Fi, VPN).`;
    case 'TIMEOUT':
      return `The server did not answer in time while loading ${what}. The connection may be slow; try again.`;
    case 'FORBIDDEN':
      return `Your account may not see ${what}. Ask your administrator for access.`;
    case 'NOT_FOUND':
      return `The server does not know ${what}; it may have been deleted or moved to another customer.`;
    case 'SESSION_EXPIRED':
      return 'Your session has expired. Sign in again to continue.';
    case 'UNAUTHENTICATED':
      return `You are not signed in, and neither the site pack nor an earlier visit kept ${what}. Sign in to load them.`;
    case 'INVALID_INPUT':
      return `The request for ${what} was refused as invalid: ${error.message}`;
    default:
      return `Could not load ${what}: ${error.message}`;
  }
}

/** The text as a sentence: a full stop added when it ends without one (server messages often do). */
export function endSentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text : `${text.trim()}.`;
}

/** What a failed gateway command means, in words (a timeout is a normal outcome, not a crash). */
export function describeCommandError(error: IpcErrorShape, command: string): string {
  // A gateway whose software (BSP) is too old for the command: said in words, whatever the error's code.
  const tooOld = error.code === 'TIMEOUT' ? undefined : bspRequirement(command, error.message);
  if (tooOld !== undefined) return tooOld;
  switch (error.code) {
    case 'TIMEOUT':
      return `The gateway did not answer ${command} in time — it may be rebooting or offline. Check its status, then try again. (${error.message})`;
    case 'NETWORK':
      return `Can't reach the server, so ${command} was not sent — or its answer was lost. Check this laptop's network, then the gateway's state.`;
    case 'FORBIDDEN':
      return `Your account may not run ${command} on this gateway.`;
    case 'NOT_FOUND':
      return 'The server does not know this gateway (404).';
    case 'INVALID_INPUT':
      return `The server refused the request: ${error.message}`;
    default:
      return describeReadError(error, `the answer of ${command}`);
  }
}
