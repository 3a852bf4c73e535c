import { describe, expect, it } from 'vitest';
import { buildOfflineCard, DEFAULT_ACCEPTANCE_TABLE } from '../../../../electron/services/acceptance';
import type { TriageResult } from '../../../../electron/shared/terminal/triage-schemas';

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
    [120_000, 'go'],
    [121_000, 'no-go'],
  ] as const)('judges a gateway clock %s ms ahead of the laptop %s', (skewMs, verdict) => {
    const card = build(triage({ clock: { gatewayTime: 10_000 + skewMs, laptopTime: 10_000 } }));
    expect(card.items.find((item) => item.id === 'clock')?.verdict).toBe(verdict);
  });

  it('says the clock could not be judged when the triage did not read it', () => {
    expect(build(triage()).items.find((item) => item.id === 'clock')?.verdict).toBe('unknown');
  });
});
