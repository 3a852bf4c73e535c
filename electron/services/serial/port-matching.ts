import type { PortInfo } from '../../shared/serial/binding-types';

/** What identifies the adapter a session was opened on. */
export interface PortIdentity {
  path: string;
  serialNumber?: string | undefined;
  vendorId?: string | undefined;
  productId?: string | undefined;
}

const normalise = (value: string | undefined) => value?.trim().toLowerCase() || undefined;

/**
 * Finds the path to reopen after a disconnect: the port with the same serial number; else, when the adapter has
 * none, the only port with the same VID/PID (or the one of several at the old path); else the old path. A listed
 * port at the old path that is clearly another adapter is never chosen. Returns undefined when nothing matches
 * yet; an old path that the system does not list at all (a pseudo-terminal) is returned to be tried as is.
 */
export function findReconnectPath(identity: PortIdentity, ports: PortInfo[]): string | undefined {
  const serialNumber = normalise(identity.serialNumber);
  const vendorId = normalise(identity.vendorId);
  const productId = normalise(identity.productId);
  const isSameModel = (port: PortInfo) =>
    vendorId !== undefined &&
    normalise(port.vendorId) === vendorId &&
    normalise(port.productId) === productId;
  if (serialNumber !== undefined) {
    const match = ports.find(
      (port) =>
        normalise(port.serialNumber) === serialNumber && (vendorId === undefined || isSameModel(port)),
    );
    if (match) return match.path;
  } else if (vendorId !== undefined) {
    const candidates = ports.filter(isSameModel);
    if (candidates.length === 1) return candidates[0]!.path;
    const atOldPath = candidates.find((port) => port.path === identity.path);
    if (atOldPath) return atOldPath.path;
  } else if (ports.some((port) => port.path === identity.path)) {
    return identity.path;
  }
  return ports.some((port) => port.path === identity.path) ? undefined : identity.path;
}

/** What looking for an adapter again uses: the port list, the policy, a wait, and how to open a port found. */
export interface AdapterSearch {
  identity: () => PortIdentity;
  listPorts: () => Promise<PortInfo[]>;
  now: () => number;
  policy: { pollIntervalMs: number; giveUpAfterMs: number };
  /** Waits between two looks (ends early when the session stops). */
  wait: (milliseconds: number) => Promise<void>;
  /** True once the user stopped the session: the search ends at once, saying nothing. */
  isStopped: () => boolean;
  /** Opens the port found (and reports it open); rejects when it will not open. */
  open: (path: string) => Promise<void>;
  /** Words for an open that failed. */
  describeOpenError: (path: string, error: unknown) => string;
}

/**
 * Looks for the adapter a session lost, every `pollIntervalMs`, opening the port `findReconnectPath` finds.
 * Resolves with `opened`, with `stopped`, or with the last failure in words once `giveUpAfterMs` passed (bounded
 * by count as well as by time: a wall clock set back must not keep it going).
 */
export async function searchForAdapter(
  search: AdapterSearch,
  firstFailure: string,
): Promise<{ outcome: 'opened' | 'stopped' } | { outcome: 'gave-up'; lastFailure: string }> {
  const { pollIntervalMs, giveUpAfterMs } = search.policy;
  const startedAt = search.now();
  let lastFailure = firstFailure;
  const maxPolls = Math.ceil(giveUpAfterMs / Math.max(1, pollIntervalMs));
  for (let poll = 0; poll < maxPolls; poll += 1) {
    await search.wait(pollIntervalMs);
    if (search.isStopped()) return { outcome: 'stopped' };
    const ports = await search.listPorts().catch(() => []);
    if (search.isStopped()) return { outcome: 'stopped' };
    const path = findReconnectPath(search.identity(), ports);
    if (path !== undefined) {
      try {
        await search.open(path);
        return { outcome: 'opened' };
      } catch (openError) {
        if (search.isStopped()) return { outcome: 'stopped' };
        lastFailure = search.describeOpenError(path, openError);
      }
    }
    if (search.now() - startedAt >= giveUpAfterMs) break;
  }
  return search.isStopped() ? { outcome: 'stopped' } : { outcome: 'gave-up', lastFailure };
}
