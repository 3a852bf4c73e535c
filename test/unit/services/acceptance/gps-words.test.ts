import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCEPTANCE_TABLE } from '../../../../electron/services/acceptance';
import { judgePosition } from '../../../../electron/services/acceptance/judge-upkeep';
import { translatorFor } from '../../../../electron/shared/i18n';
import { acceptanceItemWords } from '../../../../electron/shared/visit/acceptance-words';

// The Position item of a gateway without a GPS fix: the fix state is said in words, never the API's "none".

const position = (answer: unknown) =>
  judgePosition({ gps: { ok: true, value: answer } }, DEFAULT_ACCEPTANCE_TABLE);

describe('the Position item without a fix', () => {
  it.each(['en', 'de', 'fr', 'es'] as const)('says "no GPS fix" in %s without the raw "none"', (language) => {
    const translate = translatorFor(language);
    const words = acceptanceItemWords(position({ latitude: 0, longitude: 0, fix: 'none' }), translate);
    expect(words.findings).toEqual([translate('acceptance:noGpsFix')]);
    expect(words.findings.join(' ')).not.toMatch(/none/i);
  });

  it('writes a card journaled with the state "none" as no GPS fix', () => {
    const translate = translatorFor('de');
    const item = {
      id: 'position' as const,
      verdict: 'warn' as const,
      findings: [{ key: 'acceptance:noGpsFixKind', params: { kind: 'none' } }],
    };
    expect(acceptanceItemWords(item, translate).findings).toEqual(['Kein GPS-Fix.']);
  });

  it('keeps a fix state that says more than "no fix"', () => {
    const words = acceptanceItemWords(position({ fix: '2D' }), translatorFor('en'));
    expect(words.findings).toEqual(['No GPS fix (2D).']);
  });
});
