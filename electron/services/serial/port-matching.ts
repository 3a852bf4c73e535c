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
