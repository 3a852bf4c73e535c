import { normalizeMac } from '../../shared/mac';
import type { GatewayIdentity } from '../../shared/visit/journal-entry';

/** A gateway as a directory (the server, the site pack) knows it. */
export interface KnownGateway {
  id: string;
  name: string;
  mac: string;
  /** Serial numbers read for it (the pack's custGatewayId, module serial), when known. */
  serials?: readonly string[];
}

/** What an entry knows of its gateway when it is recorded: an id, a name or MAC, or what the technician typed. */
export interface GatewayHint {
  gatewayId?: string | undefined;
  name?: string | undefined;
  mac?: string | undefined;
  /** Free text (a serial console's Gateway field): a name, an id, a serial or a MAC in any form. */
  typed?: string | undefined;
}

/**
 * Where a gateway is looked up, in order. Each answers the gateways that may match `text` (exact matching is done
 * here), or undefined when it cannot be asked (not signed in, no pack, the server away); a source that throws
 * counts as one that cannot be asked.
 */
export interface GatewaySources {
  /** The technician's earlier choice for this typed text in the open visit (a `gateway-identified` entry). */
  chosen?(typed: string): GatewayIdentity | undefined;
  /** The server, when signed in. */
  server?(text: string): Promise<readonly KnownGateway[] | undefined>;
  /** The site pack of the profile. */
  pack?(text: string): Promise<readonly KnownGateway[] | undefined>;
}

/** Text folded for comparing names: letter case and runs of spacing aside. */
function foldName(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The one gateway of `candidates` that `text` names exactly: by id, by name (letter case and spacing aside), by
 * MAC in any form (`64:7f:da…`, `647FDA…`, `64-7F-…`) or by a serial number; undefined when none does or several
 * do (a guess would put work under the wrong gateway).
 */
export function matchKnownGateway(
  text: string,
  candidates: readonly KnownGateway[],
): KnownGateway | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const folded = foldName(trimmed);
  const mac = normalizeMac(trimmed);
  const tests: Array<(gateway: KnownGateway) => boolean> = [
    (gateway) => gateway.id === trimmed,
    (gateway) => foldName(gateway.name) === folded,
    (gateway) => mac !== null && mac.length >= 12 && normalizeMac(gateway.mac) === mac,
    (gateway) => (gateway.serials ?? []).some((serial) => foldName(serial) === folded),
  ];
  for (const test of tests) {
    const found = candidates.filter(test);
    if (found.length === 1) return found[0];
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/** A gateway hint with its empty parts left out; undefined when nothing is left. */
function keptAsTyped(hint: GatewayHint): GatewayIdentity | undefined {
  const identity: GatewayIdentity = {
    ...(hint.gatewayId ? { gatewayId: hint.gatewayId } : {}),
    ...(hint.name?.trim() ? { name: hint.name.trim() } : {}),
    ...(hint.mac?.trim() ? { mac: hint.mac.trim() } : {}),
    ...(hint.typed?.trim() ? { typed: hint.typed.trim() } : {}),
  };
  return Object.keys(identity).length > 0 ? identity : undefined;
}

/**
 * Resolves the gateway an entry names, when it is recorded: the technician's earlier choice for that text, else
 * the server (signed in), else the site pack, else what was known or typed, kept as it was. A gateway found is
 * named by its id, name and MAC (with the text typed, when there was one). Never rejects: a source that fails
 * is passed over.
 */
export function createGatewayResolver(
  sources: GatewaySources,
): (hint: GatewayHint) => Promise<GatewayIdentity | undefined> {
  return async (hint) => {
    const text = hint.typed?.trim() || hint.gatewayId || hint.mac || hint.name;
    if (!text) return undefined;
    const typed = hint.typed?.trim() ? { typed: hint.typed.trim() } : {};
    const chosen = hint.typed ? sources.chosen?.(hint.typed.trim()) : undefined;
    if (chosen) return { ...chosen, ...typed };
    for (const source of [sources.server, sources.pack]) {
      const candidates = await source?.(text).catch(() => undefined);
      const found = candidates ? matchKnownGateway(text, candidates) : undefined;
      if (found) return { gatewayId: found.id, name: found.name, mac: found.mac, ...typed };
    }
    return keptAsTyped(hint);
  };
}
