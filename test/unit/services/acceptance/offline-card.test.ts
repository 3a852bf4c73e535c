import { describe, expect, it } from 'vitest';
import { buildOfflineCard, DEFAULT_ACCEPTANCE_TABLE } from '../../../../electron/services/acceptance';
import type { TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import { t } from '../../../../electron/shared/i18n';
import { acceptanceItemWords } from '../../../../electron/shared/visit/acceptance-words';

/** A finished triage whose health parts are as given. */
function triage(parts: Partial<TriageResult['health']> = {}): TriageResult {
  const ok = { status: 'ok' as const, detail: 'fine' };
  return {
    terminalId: 'serial-1',
    title: 'Demo gateway console',
    startedAt: 1_000,
    finishedAt: 2_000,
    outcome: 'complete',
    commands: [],
    health: {
      interfaces: [],
      defaultRoutes: [],
      dns: [],
      findings: [],
      network: ok,
      wan: ok,
      modem: ok,
      packetForwarder: { status: 'ok', detail: 'The packet forwarder runs.' },
      versions: [],
      logErrors: [],
      ...parts,
    },
  };
}

const build = (result: TriageResult) =>
  buildOfflineCard({ gatewayId: 'gw-1', triage: result, table: DEFAULT_ACCEPTANCE_TABLE, now: 3_000 });

describe('the offline acceptance card', () => {
  it('says which items need the server', () => {
    const card = build(triage());
    expect(card.source).toBe('serial-triage');
    expect(card.items.filter((item) => item.verdict === 'needs-server').map((item) => item.id)).toEqual([
      'lora',
      'position',
      'software',
      'backup',
      'alarms',
    ]);
  });

  it('is a no-go when the packet forwarder does not run', () => {
    const card = build(
      triage({ packetForwarder: { status: 'fault', detail: 'No packet forwarder process.' } }),
    );
    expect(card.verdict).toBe('no-go');
    expect(card.items.find((item) => item.id === 'packet-forwarder')?.fix?.target).toBe('diagnostics');
  });

  it.each([
    [-119_000, 'go'],
    [-120_000, 'go'],
    [-121_000, 'no-go'],
    [119_000, 'go'],
    [120_000, 'go'],
    [121_000, 'no-go'],
  ] as const)('judges a gateway clock %s ms from the laptop %s', (skewMs, verdict) => {
    const card = build(triage({ clock: { gatewayTime: 10_000_000 + skewMs, laptopTime: 10_000_000 } }));
    expect(card.items.find((item) => item.id === 'clock')?.verdict).toBe(verdict);
  });

  it('says how far the clock is, the limit, and how to fix it, pointing to no wizard', () => {
    const card = build(triage({ clock: { gatewayTime: 10_000_000 - 432_000, laptopTime: 10_000_000 } }));
    const clock = card.items.find((item) => item.id === 'clock')!;
    const words = acceptanceItemWords(clock, t);
    expect(words.findings).toEqual([
      "The gateway's clock is 7 min 12 s behind this laptop's.",
      'More than 120 s apart is a no-go.',
    ]);
    expect(words.fix).toMatch(/NTP/);
    expect(clock.fix?.target).toBeUndefined();
    expect(card.verdict).toBe('no-go');
  });

  it('judges with the clockSkewSeconds of the table in force', () => {
    const card = buildOfflineCard({
      gatewayId: 'gw-1',
      triage: triage({ clock: { gatewayTime: 10_000_000 - 432_000, laptopTime: 10_000_000 } }),
      table: { ...DEFAULT_ACCEPTANCE_TABLE, clockSkewSeconds: 600 },
      now: 3_000,
    });
    expect(card.items.find((item) => item.id === 'clock')?.verdict).toBe('go');
  });

  it('says the clock could not be judged when the triage read no time from it', () => {
    const result = {
      ...triage(),
      commands: [
        { command: 'date +%s', outcome: 'ok' as const, exitCode: 0, durationMs: 5, timeoutMs: 15_000 },
      ],
    };
    const clock = build(result).items.find((item) => item.id === 'clock')!;
    expect(clock.verdict).toBe('unknown');
    expect(acceptanceItemWords(clock, t).findings).toEqual([
      "The triage got no time from the gateway's clock: it could not be judged; collect diagnostics again.",
    ]);
  });

  it('says the clock could not be judged when the triage did not read it', () => {
    expect(build(triage()).items.find((item) => item.id === 'clock')?.verdict).toBe('unknown');
  });
});
