import { describe, expect, it } from 'vitest';
import { buildReportModel, renderReportHtml } from '../../../../electron/services/reports';
import { makeSiteVisit } from '../../../helpers/factories';
import type { AcceptanceCard } from '../../../../electron/shared/visit/acceptance-card';

/** A finished card of one gateway with a backup item of the given verdict. */
function card(overrides: Partial<AcceptanceCard> & { backup: 'go' | 'no-go' }): AcceptanceCard {
  const { backup, ...rest } = overrides;
  return {
    gatewayId: 'gw-1',
    gatewayName: 'Roof <script>alert(1)</script>',
    source: 'server',
    startedAt: Date.UTC(2026, 0, 15, 12, 0),
    takenAt: Date.UTC(2026, 0, 15, 12, 1),
    verdict: backup === 'go' ? 'go' : 'no-go',
    windowSeconds: 60,
    items: [
      {
        id: 'backup',
        label: 'Backup',
        verdict: backup,
        findings: [backup === 'go' ? 'Backup "a&b" was made today.' : 'The gateway has no backup.'],
        ...(backup === 'go' ? {} : { fix: { text: 'Make a backup now <now>.', target: 'backups' as const } }),
      },
    ],
    ...rest,
  };
}

const line = (value: AcceptanceCard) => ({ at: value.takenAt, entry: { kind: 'acceptance', card: value } });

/** The exported page of a visit whose journal holds these lines. */
function reportOf(lines: Array<{ at: number; entry: { kind: string } }>): Promise<string> {
  return renderReportHtml(buildReportModel(makeSiteVisit([], { journalLines: lines }), { timeZone: 'UTC' }));
}

describe('the acceptance page of the site report', () => {
  it('is left out when the visit has no acceptance check', async () => {
    expect(await reportOf([{ at: 1, entry: { kind: 'note' } }])).not.toContain(
      'Acceptance check before leaving',
    );
  });

  it('shows the card with its verdict, findings and fix, every text escaped', async () => {
    const html = await reportOf([line(card({ backup: 'no-go' }))]);
    expect(html).toContain('Acceptance check before leaving</h2>');
    expect(html).toMatch(
      /Roof &lt;script>alert\(1\)&lt;\/script> · <span class="verdict v-no-go[^"]*">NO-GO<\/span>/,
    );
    expect(html).toMatch(/<td>The gateway has no backup.<\/td> ?<td>Make a backup now &lt;now>.<\/td>/);
    expect(html).not.toContain('<script>');
  });

  it('shows before → after when the gateway was checked again', async () => {
    const first = card({ backup: 'no-go' });
    const again = card({ backup: 'go', takenAt: first.takenAt + 60_000 });
    const html = await reportOf([line(first), line(again)]);
    expect(html).toMatch(/>no-go<\/span>\s*→(\s|&nbsp;)+<span class="verdict v-go[^"]*">go<\/span>/);
    expect(html).toContain('Checked earlier at 15 Jan 2026, 12:01');
    expect(html).toContain('Backup "a&amp;b" was made today.');
  });

  it('closes "checked earlier" right after the verdict, with no space before the full stop', async () => {
    const first = card({ backup: 'no-go' });
    const again = card({ backup: 'no-go', takenAt: first.takenAt + 60_000 });
    const html = await reportOf([line(first), line(again)]);
    expect(html).toMatch(/→ now <span class="in-sentence v-no-go[^"]*">NO-GO<\/span>\.<\/p>/);
  });

  it('keeps its heading and introduction on the page of the first card', async () => {
    const html = await reportOf([line(card({ backup: 'no-go' }))]);
    expect(html).toMatch(
      /<div class="keep-together[^"]*">\s*<h2[^>]*>Acceptance check before leaving<\/h2>\s*<p[^>]*>[^<]*<\/p>\s*<div class="card/,
    );
    expect(html).toMatch(/\.keep-together[^{]*\{[^}]*break-inside: ?avoid/);
  });
});
