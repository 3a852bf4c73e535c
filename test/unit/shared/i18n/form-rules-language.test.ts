import { afterEach, describe, expect, it } from 'vitest';
import { HostSchema, PortSchema } from '../../../../electron/shared/api/common';
import { EntityEventQuerySchema } from '../../../../electron/shared/api/events';
import { MqttV2ConfigurationSchema, PemSchema } from '../../../../electron/shared/api/integration';
import { setLanguage } from '../../../../electron/shared/i18n';
import { checkRunbookPattern } from '../../../../electron/shared/terminal/runbook-pattern';
import { RunbookDraftSchema } from '../../../../electron/shared/terminal/runbook-schemas';

/** The messages of a failed parse, in order. */
function messagesOf(result: {
  success: boolean;
  error?: { issues: readonly { message: string }[] };
}): string[] {
  return result.error?.issues.map((issue) => issue.message) ?? [];
}

const mqttConfiguration = { host: 'broker.example', port: 1883, pushTopic: 'up' };

describe('form rules in the language on screen', () => {
  afterEach(() => setLanguage('en'));

  it('refuses a bad port, host and PEM block in German once the screen is German', () => {
    // The schemas were built at import, in English: the words must be chosen when the check fails.
    expect(messagesOf(PortSchema.safeParse(70000))).toEqual(['must be a port from 1 to 65535']);
    setLanguage('de');
    expect(messagesOf(PortSchema.safeParse(70000))).toEqual(['muss ein Port von 1 bis 65535 sein']);
    expect(messagesOf(PortSchema.safeParse(0))).toEqual(['muss ein Port von 1 bis 65535 sein']);
    expect(messagesOf(HostSchema.safeParse('http://broker:1883'))).toEqual([
      'muss ein Hostname oder eine IP-Adresse sein, ohne Schema, Port oder Pfad',
    ]);
    expect(messagesOf(PemSchema.safeParse('MIIBxyz'))[0]).toMatch(/^muss im PEM-Format sein/);
  });

  it('refuses an events window that ends before it starts in Spanish', () => {
    setLanguage('es');
    expect(messagesOf(EntityEventQuerySchema.safeParse({ startTs: 2000, endTs: 1000 }))).toEqual([
      'endTs no debe ser anterior a startTs',
    ]);
  });

  it('names the MQTT client-ID limit in French, with the count in the sentence', () => {
    setLanguage('fr');
    const tooLong = { ...mqttConfiguration, mqttVersion: 'MQTT_VERSION_3_1', clientId: 'x'.repeat(24) };
    expect(messagesOf(MqttV2ConfigurationSchema.safeParse(tooLong))).toEqual([
      'clientId doit avoir au plus 23 caractères pour MQTT 3.1',
    ]);
  });

  it('refuses a bad runbook pattern in German, in the check and in the saved draft', () => {
    setLanguage('de');
    expect(checkRunbookPattern('(a+)+')).toBe(
      'Eine wiederholte Gruppe darf selbst keine Wiederholung und keine Alternativen enthalten (wie (a+)+ oder (a|ab)*): Die Suche könnte endlos dauern.',
    );
    expect(checkRunbookPattern('a?b?c?d?')).toBe('Ein Muster darf höchstens 3 optionale Teile (?) haben.');
    expect(checkRunbookPattern('x'.repeat(201))).toBe('Ein Muster hat höchstens 200 Zeichen.');
    const draft = {
      name: ' ',
      steps: [{ send: 'reboot', wait: { kind: 'pattern', value: '(\\w+)*' }, timeLimitSeconds: 5 }],
    };
    expect(messagesOf(RunbookDraftSchema.safeParse(draft))).toEqual([
      'Geben Sie dem Runbook einen Namen',
      'Eine wiederholte Gruppe darf selbst keine Wiederholung und keine Alternativen enthalten (wie (a+)+ oder (a|ab)*): Die Suche könnte endlos dauern.',
    ]);
  });

  it('speaks English again once the screen is back in English', () => {
    setLanguage('de');
    setLanguage('en');
    expect(checkRunbookPattern('')).toBe('Enter a pattern.');
    expect(messagesOf(PortSchema.safeParse(0))).toEqual(['must be a port from 1 to 65535']);
  });
});
