import { describe, expect, it } from 'vitest';
import { labelOfField } from '../../../../electron/shared/api/field-labels';
import { setLanguage, translatorFor } from '../../../../electron/shared/i18n';
import { gatewayCommands } from '../../../../electron/shared/api/commands';

describe('labelOfField', () => {
  it('splits a camel-case name into words, the first capitalised', () => {
    expect(labelOfField('pingTarget')).toBe('Ping target');
    expect(labelOfField('packageToInstall')).toBe('Package to install');
  });

  it('writes acronyms and units from the table, and keeps an unknown word in capitals as written', () => {
    expect(labelOfField('dosLimitPerMinute')).toBe('DoS limit per minute');
    expect(labelOfField('ipAddress')).toBe('IP address');
    expect(labelOfField('primaryDNS')).toBe('Primary DNS');
    expect(labelOfField('sshHost')).toBe('SSH host');
    expect(labelOfField('MCC')).toBe('MCC');
    expect(labelOfField('XYZCode')).toBe('XYZ code');
  });

  it('spells out abbreviations the API uses', () => {
    expect(labelOfField('custGatewayId')).toBe('Customer gateway ID');
    expect(labelOfField('numRxPackets')).toBe('Number of RX packets');
    expect(labelOfField('fallbackIdx')).toBe('Fallback index');
  });

  it('takes the whole-name table first, for names the rule cannot split', () => {
    expect(labelOfField('doSPrevention')).toBe('DoS prevention');
    expect(labelOfField('perMinLimit')).toBe('Limit per minute');
    expect(labelOfField('idxModem')).toBe('Modem index');
  });

  it('splits at underscores and returns a name without letters as it is', () => {
    expect(labelOfField('pdp_type')).toBe('PDP type');
    expect(labelOfField('_')).toBe('_');
  });

  it('gives every request field of the command catalogue a label in words, not its camel-case name', () => {
    const names = new Set<string>();
    const collect = (schema: unknown) => {
      const shape = (schema as { shape?: Record<string, unknown> }).shape;
      if (!shape) return;
      for (const [name, child] of Object.entries(shape)) {
        names.add(name);
        collect(child);
      }
    };
    for (const definition of Object.values(gatewayCommands)) collect(definition.request);
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) {
      const label = labelOfField(name);
      expect(label, name).toMatch(/^[A-Z]/);
      expect(label, name).not.toMatch(/[a-z][A-Z][a-z]/);
    }
  });

  it('writes the fields it knows in the language on screen, and an unknown field by the English rule', () => {
    try {
      setLanguage('de');
      expect(labelOfField('perMinLimit')).toBe('Limit pro Minute');
      expect(labelOfField('packetsCount')).toBe('Anzahl Pakete');
      expect(labelOfField('pdp_type')).toBe('PDP-Typ');
      expect(labelOfField('someNewField')).toBe('Some new field');
    } finally {
      setLanguage('en');
    }
    expect(labelOfField('workingIdx', translatorFor('es'))).toBe('Índice en uso');
  });
});
