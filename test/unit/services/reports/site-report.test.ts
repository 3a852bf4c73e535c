import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../electron/services/audit';
import {
  buildSiteReportHtml,
  collectVisit,
  reportBaseName,
  type SiteVisit,
} from '../../../../electron/services/reports';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';

const AT = Date.UTC(2026, 0, 15, 12);
const SECRET = 'relay-password-8842';

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    at: AT,
    profileId: 'demo',
    user: 'tech@example.com',
    gatewayId: 'gw-1',
    kind: 'command',
    name: 'ping',
    outcome: 'ok',
    durationMs: 40,
    ...overrides,
  };
}

function visitWith(entries: AuditEntry[], overrides: Partial<SiteVisit> = {}): SiteVisit {
  return {
    title: 'Roof job',
    technician: 'tech@example.com',
    profileId: 'demo',
    gateways: [{ id: 'gw-1', name: 'Kona Macro 7' }],
    startedAt: AT,
    endedAt: AT + 3_600_000,
    entries,
    ...overrides,
  };
}

describe('buildSiteReportHtml', () => {
  it('shows each change with its value before and after, and the checks that verified it', () => {
    const html = buildSiteReportHtml(
      visitWith([
        entry({
          kind: 'wizard',
          name: 'firewall',
          before: { 'ssh.enabled': true },
          after: { 'ssh.enabled': false },
          response: { outcome: 'applied', checks: [{ name: 'Read back', ok: true, detail: 'SSH refused' }] },
        }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(html).toMatch(/<td>ssh\.enabled<\/td><td><code>true<\/code><\/td><td><code>false<\/code><\/td>/);
    expect(html).toContain('✔ Read back: SSH refused');
    expect(html).toContain('Kona Macro 7');
  });

  it('never shows a secret, whether under a secret key, in an error text or given as known', () => {
    const html = buildSiteReportHtml(
      visitWith(
        [
          entry({ name: 'reverseSsh', request: { username: 'relay', password: SECRET } }),
          entry({ name: 'login', error: `refused with password=${SECRET}` }),
          entry({
            kind: 'wizard',
            name: 'cellular',
            before: { userName: 'x', password: SECRET },
            after: { password: 'other' },
          }),
        ],
        { notes: `the label says ${SECRET}` },
      ),
      { knownSecrets: [SECRET] },
    );
    expect(html).not.toContain(SECRET);
    expect(html).toContain('[redacted]');
  });

  it('escapes markup that comes from the data', () => {
    const html = buildSiteReportHtml(visitWith([entry({ name: '<script>alert(1)</script>' })]));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('lists the RF best values, the pings and links to the terminal logs', () => {
    const html = buildSiteReportHtml(
      visitWith([], {
        rf: [
          {
            gatewayId: 'gw-1',
            samples: [{ at: AT, signalStrength: -81, sinr: 18, rsrq: -9, ecio: -6 }],
            best: {
              signalStrength: { value: -77, at: AT },
              sinr: { value: 21, at: AT },
              rsrq: { value: -8, at: AT },
              ecio: { value: -5, at: AT },
            },
          },
        ],
        pings: [{ at: AT, gatewayId: 'gw-1', destination: '8.8.8.8', packetsSent: 4, packetsReceived: 4 }],
        terminalLogs: [{ label: 'SSH session', path: '/home/tech/logs/gw 1.log' }],
      }),
    );
    expect(html).toContain('-77 (');
    expect(html).toContain('8.8.8.8');
    expect(html).toContain('href="file:///home/tech/logs/gw%201.log"');
  });

  it('is self-contained: no script and no external resource', () => {
    const html = buildSiteReportHtml(visitWith([entry({})]));
    expect(html).not.toMatch(/<script|<link|src=|@import|https?:\/\//);
  });

  it('shows a serial triage per gateway with its faults first and what each part showed', () => {
    const html = buildSiteReportHtml(
      visitWith([], {
        serialTriage: [
          {
            terminalId: 't-1',
            title: 'gw-1 · 115200 8N1',
            gatewayId: 'gw-1',
            startedAt: AT,
            finishedAt: AT + 20_000,
            outcome: 'stopped',
            problem: 'The serial port went away during diagnostics (Disconnected: <unplugged>).',
            commands: [
              { command: 'ip addr', outcome: 'ok', exitCode: 0, durationMs: 80, timeoutMs: 15_000 },
              {
                command: 'ping -c 3 -W 2 8.8.8.8',
                outcome: 'timed-out',
                exitCode: null,
                durationMs: 20_000,
                timeoutMs: 20_000,
              },
            ],
            health: assessHealth({
              addresses: {
                command: 'ip addr',
                output: '2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 state DOWN\n',
                exitCode: 0,
              },
            }),
          },
        ],
      }),
      { timeZone: 'UTC' },
    );
    const section = html.slice(html.indexOf('<h2>Serial triage</h2>'));
    expect(section).toContain('<h3>Kona Macro 7 · ');
    expect(section).toContain(
      '<li><span class="failed">fault</span> Ethernet eth0 has no link (no carrier: check the cable and the switch port).</li>',
    );
    expect(section).toContain(
      'Stopped early: The serial port went away during diagnostics (Disconnected: &lt;unplugged&gt;).',
    );
    expect(section).toContain('<td>WAN</td><td><span class="unknown">unknown</span></td>');
    expect(section).toContain('<code>ping -c 3 -W 2 8.8.8.8</code> timed out after 20 s');
  });

  it('has no serial triage section when no diagnostics were collected', () => {
    expect(buildSiteReportHtml(visitWith([]))).not.toContain('Serial triage');
  });

  it('says so when nothing was changed', () => {
    expect(buildSiteReportHtml(visitWith([]))).toContain('Nothing was changed.');
  });
});

describe('reportBaseName', () => {
  it('names the file after the gateway and the date with only safe characters', () => {
    expect(reportBaseName(visitWith([]))).toBe('site-report-Kona_Macro_7-2026-01-15T12-00');
  });
});

describe('collectVisit', () => {
  it('takes the audit entries of the visit span and of the chosen gateways only', async () => {
    const entries = [entry({ gatewayId: 'gw-1', name: 'mine' }), entry({ gatewayId: 'gw-2', name: 'other' })];
    const audit = {
      read: async (query: { since?: number; until?: number }) =>
        entries.filter((item) => item.at >= (query.since ?? 0) && item.at <= (query.until ?? Infinity)),
    };
    const visit = await collectVisit({
      audit,
      profileId: 'demo',
      technician: 't',
      startedAt: AT,
      endedAt: AT + 1,
      gateways: [{ id: 'gw-1', name: 'Kona' }],
    });
    expect(visit.entries.map((item) => item.name)).toEqual(['mine']);
    expect(visit.gateways).toEqual([{ id: 'gw-1', name: 'Kona' }]);
  });
});
