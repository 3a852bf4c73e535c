import { describe, expect, it } from 'vitest';
import { buildAcceptancePageHtml } from '../../../../electron/services/reports/acceptance-page';
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

describe('the acceptance page of the site report', () => {
  it('is empty when the visit has no acceptance check', () => {
    expect(buildAcceptancePageHtml([{ at: 1, entry: { kind: 'note' } }])).toBe('');
  });

  it('shows the card with its verdict, findings and fix, every text escaped', () => {
    const html = buildAcceptancePageHtml([line(card({ backup: 'no-go' }))]);
    expect(html).toContain('<h2>Acceptance check before leaving</h2>');
    expect(html).toContain(
      'Roof &lt;script&gt;alert(1)&lt;/script&gt; · <span class="verdict v-no-go">NO-GO</span>',
    );
    expect(html).toContain('<td>The gateway has no backup.</td><td>Make a backup now &lt;now&gt;.</td>');
    expect(html).not.toContain('<script>');
  });

  it('shows before → after when the gateway was checked again', () => {
    const first = card({ backup: 'no-go' });
    const again = card({ backup: 'go', takenAt: first.takenAt + 60_000 });
    const html = buildAcceptancePageHtml([line(first), line(again)]);
    expect(html).toContain(
      '<span class="verdict v-no-go">no-go</span> → <span class="verdict v-go">go</span>',
    );
    expect(html).toContain('Backup &quot;a&amp;b&quot; was made today.');
  });
});
