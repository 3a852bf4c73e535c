import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../../electron/shared/i18n';
import { PackGatewayDetailsSchema } from '../../../../electron/shared/site-pack-file';
import { packFactsOf } from '../../../../renderer/src/views/gateways/pack-facts';

afterEach(() => setLanguage('en'));

/** What the gateway page shows for a pack file's firewall section, read back through the file's schema. */
function firewallFactOf(section: unknown) {
  const details = PackGatewayDetailsSchema.parse(
    JSON.parse(JSON.stringify({ readAt: 0, sections: { firewall: section } })),
  );
  return packFactsOf(details.sections).firewall;
}

describe('a section the pack did not read', () => {
  it('says the gateway was offline in the language shown, from the code the pack keeps', () => {
    const skipped = { skipped: 'gateway-offline' };
    expect(firewallFactOf(skipped)).toEqual({
      kind: 'not-read',
      reason: 'The gateway was offline when the pack was made.',
    });
    setLanguage('de');
    expect(firewallFactOf(skipped)).toEqual({
      kind: 'not-read',
      reason: 'Das Gateway war offline, als das Paket erstellt wurde.',
    });
  });

  it('shows the sentence an older pack file kept, as it is', () => {
    setLanguage('de');
    const old = firewallFactOf({ error: 'The gateway was offline when the pack was made.' });
    expect(old).toEqual({ kind: 'not-read', reason: 'The gateway was offline when the pack was made.' });
  });

  it('shows the server’s message for a section that failed, as it came', () => {
    const failed = firewallFactOf({ error: 'Gateway command timed out' });
    expect(failed).toEqual({ kind: 'not-read', reason: 'Gateway command timed out' });
  });
});
