import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/services/api';
import { MemoryAuditSink } from '../../../../electron/services/audit';
import { createWizardRun, describeError, firewallWizard } from '../../../../electron/services/commissioning';
import { setLanguage, translatorFor } from '../../../../electron/shared/i18n';
import { isRecordedMessage, writeRecorded } from '../../../../electron/shared/i18n/recorded-message';
import { listVisitLines } from '../../../../electron/shared/report/visit-lines';
import { interceptCommands } from '../../../helpers/commander';
import { createSimulatedGateway } from '../../../helpers/simulated-gateway';

// Main-side wizard messages are written in the language of the screen when they are produced, and the audit
// record keeps them as data, so the site report can write them in its own language later.

afterEach(() => setLanguage('en'));

/** A firewall run on a simulated gateway, auditing into memory. */
function firewallRun(gateway: ReturnType<typeof createSimulatedGateway>) {
  const audit = new MemoryAuditSink();
  const run = createWizardRun(firewallWizard, 'gw-1', {
    commander: gateway.commander,
    profileId: 'demo',
    user: 'tech@example.com',
    audit,
    verifyTimeoutMs: 300,
    pollIntervalMs: 5,
  });
  return { run, audit };
}

async function rolledBackFirewallRun() {
  const gateway = createSimulatedGateway();
  const { run, audit } = firewallRun(gateway);
  const state = await run.read();
  // The gateway keeps its old value: verification fails and the previous settings are put back.
  gateway.faults.ignoredChanges.add('setFirewallConfiguration');
  const result = await run.apply({ ...state, doSPrevention: { ...state.doSPrevention, burstLimit: 50 } });
  return { result, audit };
}

describe('wizard messages in French', () => {
  it('says a rolled-back firewall change in French, check and setting included', async () => {
    setLanguage('fr');
    const { result } = await rolledBackFirewallRun();
    expect(result.outcome).toBe('rolled-back');
    expect(result.message).toBe(
      'La vérification a échoué : Relecture : Limite de rafale DoS se lit 100, attendu 50. ' +
        'Les réglages précédents ont été remis en place et relus sans écart.',
    );
    expect(result.changes[0]?.label).toBe('Limite de rafale DoS');
  });

  it('keeps the result as data in the audit record, to be written in any language later', async () => {
    setLanguage('fr');
    const { result, audit } = await rolledBackFirewallRun();
    const final = audit.entries.find((entry) => entry.name === 'firewall');
    const response = final?.response as { words?: unknown; labelWords?: Record<string, unknown> } | undefined;
    expect(isRecordedMessage(response?.words)).toBe(true);
    if (!isRecordedMessage(response?.words)) return;
    expect(writeRecorded(response.words, translatorFor('fr'))).toBe(result.message);
    expect(writeRecorded(response.words, translatorFor('en'))).toBe(
      'Verification failed: Read back: DoS burst limit reads 100, expected 50. ' +
        'The previous settings were put back and read back unchanged.',
    );
    const label = response.labelWords?.['doSPrevention.burstLimit'];
    expect(isRecordedMessage(label) && writeRecorded(label, translatorFor('de'))).toBe('DoS-Burstgrenze');
  });

  it('describes a gateway that did not answer in French, passing the API address through', () => {
    setLanguage('fr');
    const error = new ApiError(408, 2, 'Timeout', '/api/gateway/gw-1/command');
    expect(describeError(error)).toBe(
      "La passerelle n'a pas répondu à temps à /api/gateway/gw-1/command " +
        '(elle redémarre peut-être, est éteinte ou hors couverture).',
    );
  });
});

describe('a settings read that failed', () => {
  /** The audit entries of a firewall read the gateway refused with the server's own words. */
  async function refusedRead() {
    const gateway = createSimulatedGateway();
    interceptCommands(gateway.commander, async () => {
      throw new ApiError(400, 31, 'Gateway firmware busy', '/api/gateway/gw-1/command');
    });
    const { run, audit } = firewallRun(gateway);
    await expect(run.read()).rejects.toThrow(ApiError);
    return audit.entries;
  }

  it('is written in the report’s language, with the server’s words passed through as they came', async () => {
    const entries = await refusedRead();
    const [line] = listVisitLines(entries, { translate: translatorFor('de') });
    expect(line?.reason).toBe('Das Gateway hat die Anfrage abgelehnt: Gateway firmware busy');
  });

  it('shows an older read’s recorded sentence as it is', async () => {
    const entries = (await refusedRead()).map(({ response: _words, ...entry }) => entry);
    const [line] = listVisitLines(entries, { translate: translatorFor('de') });
    expect(line?.reason).toBe('The gateway refused the request: Gateway firmware busy');
  });
});
