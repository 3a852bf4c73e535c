/** The wizards a gateway page links to, in the order a technician commissions: `#/gateways/<id>/wizard/<name>`. */
export const WIZARD_LINKS = [
  { name: 'connectivity', label: 'Connectivity (WAN links and ping check)' },
  { name: 'cellular', label: 'Cellular modem and APN' },
  { name: 'firewall', label: 'Firewall' },
  { name: 'backups', label: 'Backups' },
  { name: 'software', label: 'Software' },
] as const;

/** A wizard of WIZARD_LINKS by name. */
export type WizardLinkName = (typeof WIZARD_LINKS)[number]['name'];

/** Where inside a gateway's page the commissioning tools live. */
export type CommissioningRoute =
  { kind: 'wizard'; name: WizardLinkName } | { kind: 'diagnostics' } | { kind: 'none' };

/**
 * Reads the part of a gateway route after the gateway id: `['wizard', 'firewall']` → the firewall wizard,
 * `['diagnostics']` → diagnostics; anything else is not ours (the gateway page shows itself).
 */
export function parseCommissioningPath(path: readonly string[]): CommissioningRoute {
  if (path[0] === 'diagnostics') return { kind: 'diagnostics' };
  if (path[0] === 'wizard') {
    const link = WIZARD_LINKS.find((candidate) => candidate.name === path[1]);
    if (link) return { kind: 'wizard', name: link.name };
  }
  return { kind: 'none' };
}

/** True when a gateway route (after the id) is a commissioning page the gateway view should hand to us. */
export function isCommissioningPath(path: readonly string[]): boolean {
  return parseCommissioningPath(path).kind !== 'none';
}
