import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../../electron/shared/i18n';
import { PackGatewayDetailsSchema } from '../../../../electron/shared/site-pack-file';
import { packFactsOf } from '../../../../renderer/src/views/gateways/pack-facts';

afterEach(() => setLanguage('en'));

/** A gateway's details as a pack file holds them, read back through the file's schema. */
function readDetails(sections: Record<string, unknown>) {
  return PackGatewayDetailsSchema.parse(JSON.parse(JSON.stringify({ readAt: 0, sections })));
}

describe('a section the pack did not read', () => {
  it('says the gateway was offline in the language shown, from the code the pack keeps', () => {
    const details = readDetails({ firewall: { skipped: 'gateway-offline' } });
    expect(packFactsOf(details.sections).firewall).toEqual({
      kind: 'not-read',
      reason: 'The gateway was offline when the pack was made.',
    });
    setLanguage('de');
    expect(packFactsOf(details.sections).firewall).toEqual({
      kind: 'not-read',
      reason: 'Das Gateway war offline, als das Paket erstellt wurde.',
    });
  });

  it('shows the sentence an older pack file kept, as it is', () => {
    const details = readDetails({ info: { error: 'The gateway was offline when the pack was made.' } });
    setLanguage('de');
    expect(packFactsOf(details.sections).info).toEqual({
      kind: 'not-read',
      reason: 'The gateway was offline when the pack was made.',
    });
  });

  it('shows the server’s message for a section that failed, as it came', () => {
    const details = readDetails({ apns: { error: 'Gateway command timed out' } });
    expect(packFactsOf(details.sections).apns).toEqual({
      kind: 'not-read',
      reason: 'Gateway command timed out',
    });
  });
});
