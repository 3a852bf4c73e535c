import { afterEach, describe, expect, it } from 'vitest';
import {
  assessCommand,
  firewallGuards,
  missingConfirmations,
  wanLinkGuards,
} from '../../../../electron/services/commands';
import { assessFleetChange } from '../../../../electron/services/fleet';
import { setLanguage } from '../../../../electron/shared/i18n';

describe('assessFleetChange', () => {
  it('asks "Apply ping target 8.8.8.8 to 75 gateways?" and finds nothing disruptive', () => {
    expect(assessFleetChange({ kind: 'pingTarget', ipAddr: '8.8.8.8' }, 75)).toEqual({
      question: 'Apply ping target 8.8.8.8 to 75 gateways?',
      disruptions: [],
      guards: [],
    });
  });

  it('names blocked SSH and ping in words and asks for both typed confirmations', () => {
    const risk = assessFleetChange(
      { kind: 'firewall', patch: { ssh: { enabled: false }, ping: { enabled: false } } },
      7,
    );
    expect(risk.question).toBe('Apply firewall settings (SSH refused, ping blocked) to 7 gateways?');
    expect(risk.guards.map((guard) => [guard.id, guard.confirmationText])).toEqual([
      ['ssh-lockout', 'DISABLE SSH'],
      ['ping-lockout', 'BLOCK PING'],
    ]);
    expect(risk.guards[0]?.warning).toContain('all 7 gateways');
  });

  it('names the restart and the downtime of a software upgrade', () => {
    const risk = assessFleetChange({ kind: 'softwareUpgrade', packageName: 'kona-pkt-forwarder' }, 3);
    expect(risk.question).toBe('Upgrade kona-pkt-forwarder on 3 gateways?');
    expect(risk.disruptions[0]).toMatch(
      /then restarts: it is offline for a few minutes .*, and open terminals and tunnels to it drop\.$/,
    );
  });

  it('says how many gateways of an upgrade restart at the same time', () => {
    const upgrade = { kind: 'softwareUpgrade' } as const;
    expect(assessFleetChange(upgrade, 6, 0, 6).disruptions[1]).toMatch(
      /^All 6 gateways restart at the same time: the site has no coverage from any of them/,
    );
    expect(assessFleetChange(upgrade, 7, 1, 2).disruptions[1]).toMatch(
      /^At most 2 of the 6 gateways restart at the same time \(3 rounds\)/,
    );
    expect(assessFleetChange(upgrade, 4, 0, 1).disruptions[1]).toMatch(
      /^The 4 gateways restart one at a time \(4 rounds\)/,
    );
    expect(assessFleetChange(upgrade, 1, 0, 1).disruptions).toHaveLength(1);
  });
});

describe('firewallGuards', () => {
  const open = { ssh: { enabled: true }, ping: { enabled: true } };

  it('leaves SSH off alone on one gateway without a terminal, as the wizard always did', () => {
    expect(firewallGuards(open, { ssh: { enabled: false } }, { hasSshTerminal: false })).toEqual([]);
  });

  it('asks nothing when the gateway already refuses SSH and blocks ping', () => {
    const closed = { ssh: { enabled: false }, ping: { enabled: false } };
    const after = { ssh: { enabled: false }, ping: { enabled: false } };
    expect(firewallGuards(closed, after, { hasSshTerminal: true })).toEqual([]);
  });
});

describe('wanLinkGuards', () => {
  it('asks for DROP WAN LINK only when the link in use leaves the preferred and fallback pair', () => {
    expect(wanLinkGuards(0, { preferredIdx: 1, fallbackIdx: 0 }, 'Ethernet (0)')).toEqual([]);
    expect(
      wanLinkGuards(0, { preferredIdx: 1, fallbackIdx: 1 }, 'Ethernet (0)').map(
        (guard) => guard.confirmationText,
      ),
    ).toEqual(['DROP WAN LINK']);
  });
});

describe('assessCommand and missingConfirmations', () => {
  it('needs a yes to a reboot and names its consequence', () => {
    const risk = assessCommand('reboot', {});
    expect(risk.disruptions[0]).toMatch(/restarts/);
    expect(missingConfirmations(risk, undefined)).toHaveLength(1);
    expect(missingConfirmations(risk, { acknowledged: true })).toEqual([]);
  });

  it('finds nothing to confirm in a read', () => {
    expect(missingConfirmations(assessCommand('getBackups', {}), undefined)).toEqual([]);
  });

  it('wants the exact typed text, not a near miss', () => {
    const risk = assessCommand('setFirewallConfiguration', { ssh: { enabled: false } });
    expect(
      missingConfirmations(risk, { acknowledged: true, typed: { 'ssh-lockout': 'disable ssh' } }),
    ).toEqual([expect.stringContaining('type "DISABLE SSH" to confirm')]);
  });
});

describe('risk words in the language on screen', () => {
  afterEach(() => setLanguage('en'));

  it('writes the consequence, the lockout and what is missing in German, the text to type as it is', () => {
    setLanguage('de');
    const reboot = assessCommand('reboot', {});
    expect(reboot.disruptions).toEqual([
      'Das Gateway startet neu und ist einige Minuten offline; offene Terminals und Tunnel brechen ab.',
    ]);
    const guards = firewallGuards(undefined, { ssh: { enabled: false } }, { gatewayCount: 7 });
    expect(guards[0]?.warning).toBe(
      'SSH wird auf allen 7 Gateways abgelehnt: kein Terminal über den Reverse-Tunnel zu einem von ihnen, bis SSH auf jedem wieder aktiviert ist.',
    );
    expect(missingConfirmations({ disruptions: [], guards }, undefined, 7)).toEqual([
      'bestätigen Sie zuerst die Änderung auf 7 Gateways',
      expect.stringMatching(/^geben Sie „DISABLE SSH“ zur Bestätigung ein: SSH wird auf allen 7 Gateways/),
    ]);
  });
});
