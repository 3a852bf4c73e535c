import { describe, expect, it } from 'vitest';
import { buildOfflineCard, DEFAULT_ACCEPTANCE_TABLE } from '../../../../electron/services/acceptance';
import type { TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import { t } from '../../../../electron/shared/i18n';
import { formatterFor } from '../../../../electron/shared/format';
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

const wordsOf = (card: ReturnType<typeof build>, id: string) =>
  acceptanceItemWords(
    card.items.find((item) => item.id === id)!,
    t,
  );

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

  it("states the triage's link fault by name, names that link in the fix, and does not contradict the ping", () => {
    const card = build(
      triage({
        network: { status: 'fault', detail: 'eth0 and ppp0' },
        wan: {
          status: 'ok',
          detail: { key: 'triage:wanWorks', params: { received: 3, sent: 3, target: '8.8.8.8' } },
        },
        findings: [
          { status: 'fault', text: { key: 'triage:ethernetNoLink', params: { name: 'eth0' } } },
          {
            status: 'ok',
            text: { key: 'triage:cellularUp', params: { name: 'ppp0', addresses: '10.0.0.2' } },
          },
        ],
      }),
    );
    const uplink = wordsOf(card, 'uplink');
    expect(card.items[0]!.verdict).toBe('no-go');
    expect(uplink.findings).toContain(
      'Ethernet eth0 has no link (no carrier: check the cable and the switch port).',
    );
    expect(uplink.findings).not.toContain('Cellular ppp0 is up with 10.0.0.2.');
    expect(uplink.findings).toContain('WAN works: 3 of 3 pings to 8.8.8.8 answered.');
    expect(uplink.findings.at(-1)).toBe(
      "Not judged without the server: the gateway's own ping check (the target its uplink watchdog pings) and the firewall's rules.",
    );
    expect(uplink.fix).toBe(
      'Bring back the link of eth0 (Ethernet: the cable and the switch port; cellular: the SIM and the APN), then run the check through the server.',
    );
    expect(uplink.fix).not.toMatch(/named above/);
  });

  it('points the uplink fix at the lines above when no link is down', () => {
    const card = build(triage({ wan: { status: 'fault', detail: 'WAN down' } }));
    expect(wordsOf(card, 'uplink').fix).toMatch(/^Give the gateway what the lines above say is missing/);
  });

  it('judges backup and alarms from the site pack as of its time, and lists the installed software', () => {
    const readAt = Date.UTC(2026, 10, 28, 0, 52);
    const now = readAt + 3_600_000;
    const card = buildOfflineCard({
      gatewayId: 'gw-1',
      triage: triage(),
      table: DEFAULT_ACCEPTANCE_TABLE,
      now,
      describeTime: (at) => formatterFor({ locale: 'en-US', timeZone: 'UTC' }).dateTime(at),
      pack: {
        readAt,
        sections: {
          backups: {
            value: {
              status: 'ok',
              backups: [{ description: 'commissioning', date: '2026-11-28T00:30:00', index: 0 }],
            },
          },
          alarms: {
            value: {
              data: [],
              totalPages: 1,
              totalElements: 0,
              hasNext: false,
            },
          },
          software: { value: { packages: [{ name: 'packet-forwarder', ver: '5.1.2' }] } },
        },
      },
    });
    const asOf = 'As of the site pack of Nov 28, 2026, 12:52 AM (what changed since is not seen):';
    const backup = card.items.find((item) => item.id === 'backup')!;
    expect(backup.verdict).toBe('go');
    expect(wordsOf(card, 'backup').findings[0]).toBe(asOf);
    expect(wordsOf(card, 'backup').findings[1]).toMatch(/^Backup "commissioning"/);
    const alarms = card.items.find((item) => item.id === 'alarms')!;
    expect(alarms.verdict).toBe('go');
    expect(wordsOf(card, 'alarms').findings).toEqual([
      asOf,
      'No alarm raised in the last 60 minutes is still raised.',
    ]);
    const software = wordsOf(card, 'software');
    expect(software.findings.slice(0, 2)).toEqual([asOf, 'Installed: packet-forwarder 5.1.2.']);
    expect(card.items.filter((item) => item.verdict === 'needs-server').map((item) => item.id)).toEqual([
      'lora',
      'position',
      'software',
    ]);
  });

  it('says needs the server for a pack section it cannot read', () => {
    const card = buildOfflineCard({
      gatewayId: 'gw-1',
      triage: triage(),
      table: DEFAULT_ACCEPTANCE_TABLE,
      now: 3_000,
      pack: {
        readAt: 2_000,
        sections: { backups: { skipped: 'gateway-offline' }, alarms: { value: 'nonsense' } },
      },
    });
    expect(card.items.find((item) => item.id === 'backup')?.verdict).toBe('needs-server');
    expect(wordsOf(card, 'alarms').findings).toEqual(["Needs the server: the gateway's alarms."]);
  });
});
