import { t, type MessageKey } from '../../lib/i18n';

/** A link to a wizard: its route name and its label, written in the current language each time it is read. */
function wizardLink<Name extends string>(name: Name, labelKey: MessageKey) {
  return {
    name,
    labelKey,
    /** The label in the current language (read it in markup or a `$derived` to follow a language change). */
    get label(): string {
      return t(labelKey);
    },
  };
}

/** The wizards a gateway page links to, in the order a technician commissions: `#/gateways/<id>/wizard/<name>`. */
export const WIZARD_LINKS = [
  wizardLink('connectivity', 'wizards:linkConnectivity'),
  wizardLink('cellular', 'wizards:linkCellular'),
  wizardLink('firewall', 'wizards:linkFirewall'),
  wizardLink('backups', 'wizards:linkBackups'),
  wizardLink('software', 'wizards:linkSoftware'),
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
