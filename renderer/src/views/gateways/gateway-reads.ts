import type { EndpointCallParts, IpcClient } from '../../lib/ipc';
import type { IpcErrorShape, SessionSummary } from '../../lib/wire-types';
import type { EndpointAnswer, EndpointName } from '../../../../electron/shared/api/endpoints';
import { isServerRefusing } from '../../lib/error-messages';
import { t } from '../../lib/i18n';
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

/** What a failed read means, in a technician's words. `what` names the thing read, in words ("the gateways"). */
export function describeReadError(error: IpcErrorShape, what: string): string {
  switch (error.code) {
    case 'NETWORK':
      if (isServerRefusing(error)) return t('app:readServerDownNoCopy', { what });
      return t('gateways:readErrorNetwork', { what });
    case 'TIMEOUT':
      return t('gateways:readErrorTimeout', { what });
    case 'FORBIDDEN':
      return t('gateways:readErrorForbidden', { what });
    case 'NOT_FOUND':
      return t('gateways:readErrorNotFound', { what });
    case 'SESSION_EXPIRED':
      return t('gateways:readErrorSessionExpired');
    case 'UNAUTHENTICATED':
      return t('gateways:readErrorUnauthenticated', { what });
    case 'INVALID_INPUT':
      return t('gateways:readErrorInvalid', { what, reason: error.message });
    default:
      return t('gateways:readErrorOther', { what, reason: error.message });
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
      return t('gateways:commandErrorTimeout', { command, reason: error.message });
    case 'NETWORK':
      // Refused: the connection never opened, so nothing was sent.
      if (isServerRefusing(error)) return t('app:commandServerDown', { command });
      return t('gateways:commandErrorNetwork', { command });
    case 'FORBIDDEN':
      return t('gateways:commandErrorForbidden', { command });
    case 'NOT_FOUND':
      return t('gateways:commandErrorNotFound');
    case 'INVALID_INPUT':
      return t('gateways:commandErrorInvalid', { reason: error.message });
    default:
      return describeReadError(error, t('gateways:whatCommandAnswer', { command }));
  }
}
