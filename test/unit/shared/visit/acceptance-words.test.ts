import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCEPTANCE_TABLE } from '../../../../electron/services/acceptance';
import { judgeUplink } from '../../../../electron/services/acceptance/judge';
import { judgeAlarms } from '../../../../electron/services/acceptance/judge-upkeep';
import { setLanguage, translatorFor } from '../../../../electron/shared/i18n';
import { AcceptanceStartInputSchema } from '../../../../electron/shared/ipc/domains/acceptance';
import { AcceptanceItemSchema, type AcceptanceItem } from '../../../../electron/shared/visit/acceptance-card';
import {
  acceptanceItemWords,
  cardVerdictWords,
  verdictWords,
} from '../../../../electron/shared/visit/acceptance-words';

const table = DEFAULT_ACCEPTANCE_TABLE;

/** An item as the journal gives it back: written to JSON and read through the card's schema. */
const journaled = (item: AcceptanceItem) => AcceptanceItemSchema.parse(JSON.parse(JSON.stringify(item)));

const blockedFirewall = () =>
  journaled(
    judgeUplink({ firewall: { ok: true, value: { enabled: true, ping: { enabled: false } } } }, table),
  );

describe('acceptanceItemWords', () => {
  it('writes a journaled item in French, whatever language the check ran in', () => {
    expect(acceptanceItemWords(blockedFirewall(), translatorFor('fr'))).toEqual({
      label: 'Liaison Internet',
      findings: ['Le pare-feu bloque le ping, donc le contrôle de la liaison Internet échoue.'],
      fix: expect.stringMatching(/^Autorisez le ping dans l'assistant Pare-feu/),
    });
  });

  it('writes the same item in Spanish, and its values into the sentence', () => {
    const item = journaled(
      judgeUplink(
        {
          pingTarget: { ok: true, value: { ipAddr: '10.0.0.9' } },
          pingToTarget: { ok: true, value: { packets_sent: 4, packets_recv: 1 } },
        },
        table,
      ),
    );
    const words = acceptanceItemWords(item, translatorFor('es'));
    expect(words.label).toBe('Enlace a Internet');
    expect(words.findings).toContain(
      'Ping al destino de la comprobación 10.0.0.9: 1 de 4 respuestas (75 % de pérdida).',
    );
  });

  it('writes the API’s link types as words', () => {
    const item = journaled(
      judgeUplink(
        {
          connectivity: {
            ok: true,
            value: [
              { index: 0, type: 'Ethernet', preferred: true, fallback: false },
              { index: 1, type: 'Cellular', preferred: false, fallback: true },
            ],
          },
          info: {
            ok: true,
            value: {
              interfaces: { eth0: '192.168.0.2', wwan0: '10.1.1.1' },
              moduleName: 'EC25',
              moduleProductCode: 'EC25EFA',
              moduleRevision: 'R01',
              moduleSerialNumber: '123',
              custGatewayId: 'gw-1',
            },
          },
        },
        table,
      ),
    );
    expect(acceptanceItemWords(item, translatorFor('fr')).findings).toContain(
      'La liaison de secours est cellulaire.',
    );
    expect(acceptanceItemWords(item, translatorFor('de')).findings).toContain(
      'Die bevorzugte Verbindung (Ethernet) hat die Adresse 192.168.0.2.',
    );
  });

  it('names alarms in words of the language, never by their API name', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const item = journaled(
      judgeAlarms(
        {
          events: {
            ok: true,
            value: [
              {
                id: 'event-1',
                source: 'GATEWAY',
                entityId: 'gw-1',
                eventName: 'GATEWAY_SHUTDOWN_ALARM',
                eventType: 'Alarms',
                severity: 'MAJOR',
                state: 'Raised',
                startTs: now - 60_000,
                endTs: null,
              },
            ],
          },
        },
        table,
        now,
      ),
    );
    const french = acceptanceItemWords(item, translatorFor('fr')).findings.join(' ');
    expect(french).toMatch(/^Déclenchées au cours des \d+ dernières minutes et non levées : /);
    expect(french).not.toContain('GATEWAY_SHUTDOWN_ALARM');
    expect(french).not.toContain('MAJOR');
  });

  it('keeps a card that names very many alarms fit for the journal', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const alarms = Array.from({ length: 150 }, (_, index) => ({
      id: `event-${index}`,
      source: 'GATEWAY',
      entityId: 'gw-1',
      eventName: `VENDOR_ALARM_${index}`,
      eventType: 'Alarms',
      severity: 'MINOR',
      state: 'Raised',
      startTs: now - 60_000,
      endTs: null,
    }));
    const item = journaled(judgeAlarms({ events: { ok: true, value: alarms } }, table, now));
    expect(item.verdict).toBe('no-go');
    expect(acceptanceItemWords(item).findings[0]).toContain('VENDOR_ALARM_99');
  });

  it('shows a card journaled before the catalogue with its English sentences as they are', () => {
    const old = AcceptanceItemSchema.parse({
      id: 'backup',
      label: 'Backup',
      verdict: 'no-go',
      findings: ['The gateway has no backup.'],
      fix: { text: 'Make a backup now with the Backups wizard.', target: 'backups' },
    });
    expect(acceptanceItemWords(old, translatorFor('fr'))).toEqual({
      label: 'Backup',
      findings: ['The gateway has no backup.'],
      fix: 'Make a backup now with the Backups wizard.',
    });
  });

  it('says a sentence from a newer version cannot be written, and writes no other area’s words', () => {
    const item = AcceptanceItemSchema.parse({
      id: 'clock',
      verdict: 'warn',
      findings: [{ key: 'acceptance:fromTheFuture' }, { key: 'errors:internal' }],
    });
    expect(acceptanceItemWords(item, translatorFor('en')).findings).toEqual([
      '(A finding this version of Field Kit cannot write.)',
      '(A finding this version of Field Kit cannot write.)',
    ]);
  });

  it('writes verdicts in the glossary’s words', () => {
    const german = translatorFor('de');
    expect(verdictWords('no-go', german)).toBe('nicht in Ordnung');
    expect(verdictWords('go', translatorFor('es'))).toBe('correcto');
    expect(cardVerdictWords('warn', translatorFor('fr'))).toBe('CONFORME, avec réserves');
  });

  it('refuses a check of no gateway in the language of the screen', () => {
    setLanguage('fr');
    const answer = AcceptanceStartInputSchema.safeParse({ targets: [] });
    expect(answer.error?.issues[0]?.message).toBe('Choisissez au moins une passerelle');
  });
});

afterEach(() => setLanguage('en'));
