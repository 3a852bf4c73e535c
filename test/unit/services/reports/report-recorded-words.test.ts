import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAuditSink, type AuditEntry } from '../../../../electron/services/audit';
import { createWizardRun, firewallWizard } from '../../../../electron/services/commissioning';
import { buildReportModel } from '../../../../electron/services/reports';
import { setLanguage, type DisplayLanguage } from '../../../../electron/shared/i18n';
import { recorded } from '../../../../electron/shared/i18n/recorded-message';
import { listVisitLines } from '../../../../electron/shared/report/visit-lines';
import { translatorFor } from '../../../../electron/shared/i18n';
import { makeAuditEntry, makeSiteVisit } from '../../../helpers/factories';
import { createSimulatedGateway } from '../../../helpers/simulated-gateway';

// The audit log keeps a wizard's, task's or fleet row's words as data beside its English sentence; the report
// writes them in the language it is exported in. An older entry, without that data, shows its English sentence.

afterEach(() => setLanguage('en'));

/** The audit entries of a firewall change on gw-1 the gateway ignored: verification fails, the values go back. */
async function rolledBackFirewallEntries(): Promise<AuditEntry[]> {
  const gateway = createSimulatedGateway();
  const audit = new MemoryAuditSink();
  const run = createWizardRun(firewallWizard, 'gw-1', {
    commander: gateway.commander,
    profileId: 'demo',
    user: 'tech@example.com',
    audit,
    verifyTimeoutMs: 300,
    pollIntervalMs: 5,
  });
  const state = await run.read();
  gateway.faults.ignoredChanges.add('setFirewallConfiguration');
  const result = await run.apply({ ...state, doSPrevention: { ...state.doSPrevention, burstLimit: 50 } });
  expect(result.outcome).toBe('rolled-back');
  return audit.entries;
}

/** The firewall change of the report built in `language`. */
function firewallChange(entries: AuditEntry[], language: DisplayLanguage) {
  const model = buildReportModel(makeSiteVisit(entries), { timeZone: 'UTC', language });
  const change = model.sections.flatMap((section) => section.changes).find((item) => item.checks.length > 0);
  expect(change).toBeDefined();
  return change!;
}

describe('report: recorded words in the report’s language', () => {
  it('writes a rolled-back firewall change’s reason, checks and setting in French and German', async () => {
    // The change was made with the screen in English: the log's sentences are English.
    const entries = await rolledBackFirewallEntries();

    const english = firewallChange(entries, 'en');
    expect(english.why).toBe('Read back: DoS burst limit reads 100, expected 50');

    const french = firewallChange(entries, 'fr');
    expect(french.why).toBe('Relecture : Limite de rafale DoS se lit 100, attendu 50');
    expect(french.checks).toEqual([
      { ok: false, name: 'Relecture', detail: 'Limite de rafale DoS se lit 100, attendu 50' },
    ]);
    expect(french.rows.map((row) => row.label)).toEqual(['Limite de rafale DoS']);

    const german = firewallChange(entries, 'de');
    expect(german.why).not.toMatch(/Read back|reads|expected/);
    expect(german.why).toContain('DoS-Burstgrenze');
    expect(german.rows.map((row) => row.label)).toEqual(['DoS-Burstgrenze']);
    expect(german.checks.map((check) => check.name)).not.toContain('Read back');
  });

  it('writes a fleet row’s reason in French and German', () => {
    const row = makeAuditEntry({
      kind: 'fleet',
      name: 'pingTarget',
      outcome: 'failed',
      error: 'Offline: the gateway did not answer (3 attempts); no change was sent to it',
      response: {
        words: recorded('fleet:rowOffline', { attempts: recorded('fleet:attempts', { count: 3 }) }),
      },
    });
    const reasonIn = (language: DisplayLanguage) =>
      listVisitLines([row], { translate: translatorFor(language), formatTime: String })[0]?.reason;
    expect(reasonIn('fr')).toBe(
      "Hors ligne : la passerelle n'a pas répondu (3 essais) ; aucune modification ne lui a été envoyée",
    );
    expect(reasonIn('de')).toMatch(/^Offline: Das Gateway hat nicht geantwortet \(3 [^)]+\)/);
    expect(reasonIn('en')).toBe(row.error);
  });

  it('prints an older entry’s English sentence, with no recorded words, as it is', () => {
    const old = makeAuditEntry({
      kind: 'wizard',
      name: 'firewall',
      outcome: 'failed',
      error:
        'Verification failed: Read back: DoS burst limit reads 100, expected 50. ' +
        'The previous settings were put back and read back unchanged.',
      before: { 'doSPrevention.burstLimit': 100 },
      after: { 'doSPrevention.burstLimit': 50 },
      response: {
        outcome: 'rolled-back',
        checks: [{ name: 'Read back', ok: false, detail: 'DoS burst limit reads 100, expected 50' }],
        labels: { 'doSPrevention.burstLimit': 'DoS burst limit' },
      },
    });
    const french = firewallChange([old], 'fr');
    // The check's English words, joined as French writes "name : detail".
    expect(french.why).toBe('Read back : DoS burst limit reads 100, expected 50');
    expect(french.checks).toEqual([
      { ok: false, name: 'Read back', detail: 'DoS burst limit reads 100, expected 50' },
    ]);
    expect(french.rows.map((row) => row.label)).toEqual(['DoS burst limit']);
  });
});
