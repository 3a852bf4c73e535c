import { describe, expect, it } from 'vitest';
import {
  buildReportModel,
  renderPrintTemplates,
  renderReportHtml,
  type SiteVisit,
} from '../../../../electron/services/reports';
import type { AuditEntry } from '../../../../electron/services/audit';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import type { TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import {
  FACTORY_TIME,
  makeAuditEntry,
  makeSessionLines,
  makeSiteVisit,
  makeTriageLines,
} from '../../../helpers/factories';

const AT = FACTORY_TIME;
const NO_CARRIER = '2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 state DOWN\n';
const CARRIER = '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP\n    inet 192.168.1.13/24\n';

/** A serial triage of gw-1 finished at `at`, whose `ip addr` answered `addresses`. */
function triage(at: number, addresses: string, outcome: TriageResult['outcome'] = 'complete'): TriageResult {
  return {
    terminalId: 't-1',
    title: 'Kona Macro 7 · 115200 8N1',
    gatewayId: 'gw-1',
    startedAt: at - 10_000,
    finishedAt: at,
    outcome,
    commands: [{ command: 'ip addr', outcome: 'ok', exitCode: 0, durationMs: 80, timeoutMs: 15_000 }],
    health: assessHealth({ addresses: { command: 'ip addr', output: addresses, exitCode: 0 } }),
  };
}

/** A wizard's end on gw-1 with the outcome its response names. */
function wizard(outcome: string, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return makeAuditEntry({
    kind: 'wizard',
    name: 'cellular',
    outcome: outcome === 'applied' ? 'ok' : 'failed',
    before: { 'apn[0].name': 'internet' },
    after: { 'apn[0].name': 'iot.example' },
    response: { outcome },
    ...overrides,
  });
}

/** Page one's words for gw-1, worst first. */
function wordsOf(visit: SiteVisit): string[] {
  const [gateway] = buildReportModel(visit, { timeZone: 'UTC' }).gateways;
  return (gateway?.findings ?? []).map((finding) =>
    [finding.what, finding.words, finding.detail].filter(Boolean).join(' | '),
  );
}

describe('buildReportModel: page one names each gateway’s worst finding first', () => {
  it('names the fault a health check still sees, before a change that was verified', () => {
    expect(
      wordsOf(
        makeSiteVisit([wizard('applied')], { journalLines: makeTriageLines([triage(AT, NO_CARRIER)]) }),
      ),
    ).toEqual([
      expect.stringMatching(/^fault found \| Ethernet eth0 has no link/),
      'Cellular modem and APN | changed and verified',
    ]);
  });

  it('says fixed when the last complete check no longer sees an earlier fault', () => {
    expect(
      wordsOf(
        makeSiteVisit([], {
          journalLines: makeTriageLines([triage(AT, NO_CARRIER), triage(AT + 60_000, CARRIER)]),
        }),
      ),
    ).toEqual([expect.stringMatching(/^fixed \| Ethernet eth0 has no link/)]);
  });

  it('says changed and verified for a change that was read back', () => {
    expect(wordsOf(makeSiteVisit([wizard('applied')]))).toEqual([
      'Cellular modem and APN | changed and verified',
    ]);
  });

  it('says rolled back, and why, before a verified change', () => {
    expect(
      wordsOf(
        makeSiteVisit([
          wizard('applied', { at: AT }),
          wizard('rolled-back', {
            at: AT + 1_000,
            name: 'firewall',
            error: 'Verification failed: SSH still answers. The previous settings were put back.',
          }),
        ]),
      ),
    ).toEqual([
      'Firewall | rolled back | Verification failed: SSH still answers',
      'Cellular modem and APN | changed and verified',
    ]);
  });

  it('says unknown for a change nothing confirmed or denied', () => {
    expect(
      wordsOf(makeSiteVisit([makeAuditEntry({ kind: 'wizard', name: 'reboot', outcome: 'unknown' })])),
    ).toEqual(['Reboot | unknown']);
  });

  it('says inspected, healthy when the last complete check found no fault', () => {
    expect(wordsOf(makeSiteVisit([], { journalLines: makeTriageLines([triage(AT, CARRIER)]) }))).toEqual([
      'inspected, healthy',
    ]);
  });

  it('says only inspected when nothing was changed and no health check ran, and never when a fault was seen', () => {
    expect(wordsOf(makeSiteVisit([]))).toEqual(['only inspected']);
    expect(
      wordsOf(makeSiteVisit([], { journalLines: makeTriageLines([triage(AT, NO_CARRIER)]) })),
    ).not.toContain('only inspected');
  });

  it('names session logs by their place in the bundle, never by a file:// link', () => {
    const model = buildReportModel(
      makeSiteVisit([], {
        journalLines: makeSessionLines([
          { label: 'SSH session', path: 'C:\\Users\\tech\\logs\\gw-1.log', gatewayId: 'gw-1' },
        ]),
      }),
    );
    expect(model.sections[0]?.sessions).toEqual([{ label: 'SSH session', file: 'logs/gw-1.log' }]);
  });
});

describe('the report rendered by svelte/server', () => {
  const HOSTILE = '<script>alert("x")</script> & \'quoted\'';

  it("prints the customer's latest acknowledgement from the visit journal, its words as text", async () => {
    const acknowledgement = (at: number, text: string) => ({
      at,
      entry: {
        kind: 'acknowledgement',
        technicianName: 'Sam Field',
        customerRepresentative: 'Dana Roe',
        text,
      },
    });
    const model = buildReportModel(
      makeSiteVisit([], {
        journalLines: [
          acknowledgement(FACTORY_TIME, 'first'),
          acknowledgement(FACTORY_TIME + 60_000, HOSTILE),
        ],
      }),
      { timeZone: 'UTC' },
    );
    const html = await renderReportHtml(model);
    expect(html).toMatch(/Acknowledged by Dana Roe to Sam Field at\s+\d/);
    expect(html).toContain('“&lt;script>alert("x")&lt;/script> &amp; \'quoted\'”');
    expect(html).not.toContain('“first”');
  });

  it('prints no recorded acknowledgement when the journal holds none', async () => {
    const html = await renderReportHtml(buildReportModel(makeSiteVisit([], { journalLines: [] })));
    expect(html).not.toContain('Acknowledged by');
  });

  it('prints hostile names as text in the page and in the print header, never as markup', async () => {
    const model = buildReportModel(
      makeSiteVisit([], {
        site: HOSTILE,
        title: HOSTILE,
        gateways: [{ id: 'gw-1', name: HOSTILE }],
        photos: [{ id: 'p1', caption: HOSTILE, mimeType: 'image/png', base64: 'iVBORw0KGgo=' }],
      }),
    );
    const html = await renderReportHtml(model);
    const { headerHtml, footerHtml } = await renderPrintTemplates(model);
    for (const text of [html, headerHtml]) {
      expect(text).not.toContain('<script>');
      expect(text).toContain('&lt;script>alert("x")&lt;/script> &amp; \'quoted\'');
    }
    // In an attribute the quote is escaped too, so the value cannot end early.
    expect(html).toContain('alt="&lt;script>alert(&quot;x&quot;)&lt;/script> &amp; \'quoted\'"');
    expect(footerHtml).toContain('Page <span class="pageNumber"></span> of <span class="totalPages"></span>');
  });
});
