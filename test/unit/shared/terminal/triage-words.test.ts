import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../../../electron/shared/i18n';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import { TriageHealthSchema } from '../../../../electron/shared/terminal/triage-schemas';
import {
  triageCheckWords,
  triageFindingWords,
  triageWaitWords,
} from '../../../../electron/shared/terminal/triage-words';

function fixture(name: string): string {
  return readFileSync(new URL(`../../../fixtures/triage/${name}`, import.meta.url), 'utf8');
}

/** The health panel of a gateway whose Ethernet cable has no link, as the visit journal gives it back. */
function journaledHealth() {
  const health = assessHealth({
    addresses: { command: 'ip addr', output: fixture('iproute2-ip-addr-eth-down.txt'), exitCode: 0 },
    processes: { command: 'ps', output: fixture('busybox-ps.txt'), exitCode: 0 },
  });
  return TriageHealthSchema.parse(JSON.parse(JSON.stringify(health)));
}

describe('triageFindingWords', () => {
  it('writes the no-link finding in English, French and Spanish from the same journaled data', () => {
    const health = journaledHealth();
    const noLink = health.findings.find((finding) => finding.status === 'fault')!;
    expect(triageFindingWords(noLink, translatorFor('en'))).toMatch(/^Ethernet eth0 has no link/);
    expect(triageFindingWords(noLink, translatorFor('fr'))).toBe(
      "Ethernet eth0 n'a pas de lien (pas de porteuse : vérifiez le câble et le port du switch).",
    );
    expect(triageFindingWords(noLink, translatorFor('es'))).toBe(
      'Ethernet eth0 no tiene enlace (sin portadora: compruebe el cable y el puerto del switch).',
    );
  });

  it('writes a part of the health panel with its values', () => {
    const health = journaledHealth();
    expect(triageCheckWords(health.packetForwarder, translatorFor('es'))).toBe(
      'Packet forwarder en marcha (pkt_fwd).',
    );
    expect(triageCheckWords(health.modem, translatorFor('fr'))).toBe(
      "Modem inconnu : son état n'a pas été lu.",
    );
  });

  it('shows a triage journaled before the catalogue with its English sentences as they are', () => {
    const old = { status: 'fault' as const, text: 'Ethernet eth0 has no link (no carrier).' };
    expect(triageFindingWords(old, translatorFor('fr'))).toBe('Ethernet eth0 has no link (no carrier).');
    expect(triageCheckWords({ status: 'ok', detail: 'WAN works.' }, translatorFor('de'))).toBe('WAN works.');
  });

  it('says what a run waits for in the language', () => {
    expect(triageWaitWords('passwordPrompt', translatorFor('de'))).toBe('Warten auf die Passwortabfrage.');
  });
});
