import { describe, expect, it } from 'vitest';
import { buildSiteReportHtml } from '../../../../electron/services/reports';
import type { ReportJournalLine } from '../../../../electron/services/reports/journal-terminals';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import type { TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import type { GatewayIdentity, VisitEntry } from '../../../../electron/shared/visit/journal-entry';
import { FACTORY_TIME, makeAuditEntry, makeSiteVisit } from '../../../helpers/factories';

const AT = FACTORY_TIME;
const NO_CARRIER = '2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 state DOWN\n';
const CARRIER = '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP\n    inet 192.168.1.13/24\n';
const PACKED_13: GatewayIdentity = { gatewayId: 'gw-13', name: 'acme-gw-0013', mac: '647FDAFFFE001CAD' };

/** A triage read at `at` whose `ip addr` answered `addresses`. */
function triage(at: number, addresses: string, outcome: TriageResult['outcome'] = 'complete'): TriageResult {
  return {
    terminalId: 't-1',
    title: 'acme-gw-0013 · 115200 8N1',
    gatewayId: 'acme-gw-0013',
    startedAt: at - 10_000,
    finishedAt: at,
    outcome,
    commands: [{ command: 'ip addr', outcome: 'ok', exitCode: 0, durationMs: 80, timeoutMs: 15_000 }],
    health: assessHealth({ addresses: { command: 'ip addr', output: addresses, exitCode: 0 } }),
  };
}

function lines(...entries: VisitEntry[]): ReportJournalLine[] {
  return entries.map((entry, index) => ({ at: AT + index * 60_000, entry }));
}

/** Page one's row of a gateway, as HTML. */
function pageOneRow(html: string, name: string): string {
  const pageOne = html.slice(0, html.indexOf('</section>'));
  const start = pageOne.indexOf(`<strong>${name}</strong>`);
  return start < 0 ? '' : pageOne.slice(start, pageOne.indexOf('</tr>', start));
}

describe('the site report from the visit journal', () => {
  it('names a gateway of the site pack and its fault on page one, from a triage the journal recorded', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        gateways: [],
        journalLines: lines(
          {
            kind: 'terminal-opened',
            sessionId: 't-1',
            transport: 'serial',
            title: 'acme-gw-0013 · 115200 8N1',
            gateway: { ...PACKED_13, typed: 'acme-gw-0013' },
            logFile: '/logs/acme-gw-0013.log',
          },
          {
            kind: 'triage',
            gateway: { ...PACKED_13, typed: 'acme-gw-0013' },
            result: triage(AT, NO_CARRIER),
          },
        ),
      }),
      { timeZone: 'UTC' },
    );
    const row = pageOneRow(html, 'acme-gw-0013');
    expect(row).toContain('<span class="mac">64:7F:DA:FF:FE:00:1C:AD</span>');
    expect(row).toContain(
      '<span class="failed">fault found</span> — Ethernet eth0 has no link (no carrier: check the cable and the switch port).',
    );
    expect(row).not.toContain('only inspected');
    expect(html).not.toContain('not matched to a gateway');
    expect(html).toContain('<code>logs/acme-gw-0013.log</code>');
  });

  it('puts the worst finding first: a fault still seen before a change that was verified', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit(
        [
          makeAuditEntry({
            gatewayId: 'gw-13',
            kind: 'wizard',
            name: 'firewall',
            before: { a: 1 },
            after: { a: 2 },
            response: { outcome: 'applied' },
          }),
        ],
        {
          gateways: [],
          journalLines: lines({ kind: 'triage', gateway: PACKED_13, result: triage(AT, NO_CARRIER) }),
        },
      ),
      { timeZone: 'UTC' },
    );
    const row = pageOneRow(html, 'acme-gw-0013');
    expect(row.indexOf('fault found')).toBeGreaterThan(-1);
    expect(row.indexOf('fault found')).toBeLessThan(row.indexOf('changed and verified'));
  });

  it('says fixed when a later complete check no longer sees the fault, and inspected, healthy when none saw one', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        gateways: [],
        journalLines: lines(
          { kind: 'triage', gateway: PACKED_13, result: triage(AT, NO_CARRIER) },
          { kind: 'triage', gateway: PACKED_13, result: triage(AT + 600_000, CARRIER) },
          {
            kind: 'triage',
            gateway: { gatewayId: 'gw-14', name: 'acme-gw-0014', mac: '647FDAFFFE001CAE' },
            result: triage(AT, CARRIER),
          },
        ),
      }),
      { timeZone: 'UTC' },
    );
    expect(pageOneRow(html, 'acme-gw-0013')).toContain(
      '<span class="ok">fixed</span> — Ethernet eth0 has no link',
    );
    expect(pageOneRow(html, 'acme-gw-0014')).toContain('<span class="ok">inspected, healthy</span>');
  });

  it('says unknown, not healthy, when the last check stopped early without a fault', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        gateways: [],
        journalLines: lines({
          kind: 'triage',
          gateway: PACKED_13,
          result: { ...triage(AT, CARRIER, 'stopped'), problem: 'Cancelled.' },
        }),
      }),
      { timeZone: 'UTC' },
    );
    expect(pageOneRow(html, 'acme-gw-0013')).toContain(
      '<span class="unknown">unknown</span> — the health check stopped early: Cancelled.',
    );
  });

  it('puts a triage recorded by what was typed under the gateway the technician picked for that text', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        gateways: [],
        journalLines: lines(
          { kind: 'triage', gateway: { typed: 'shed' }, result: triage(AT, NO_CARRIER) },
          { kind: 'gateway-identified', typed: 'Shed', gateway: PACKED_13 },
        ),
      }),
      { timeZone: 'UTC' },
    );
    expect(pageOneRow(html, 'acme-gw-0013')).toContain('fault found');
    expect(html).not.toContain('<h2>shed</h2>');
    expect(html).not.toContain('not matched to a gateway');
  });
});
