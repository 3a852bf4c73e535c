import { describe, expect, it } from 'vitest';
import { checkFilterList, parseFilterList } from '../../../../renderer/src/views/wizards/firewall-filters';
import { buildFirewallPatch, emptyFirewallDraft } from '../../../../renderer/src/views/fleet/fleet-firewall';

const FILTER = { name: 'allow-lns', protocol: 'udp', port: 1700 };

describe('the firewall filter list field', () => {
  it('reads a JSON list of filters, empty included', () => {
    expect(parseFilterList(JSON.stringify([FILTER]))).toEqual([FILTER]);
    expect(parseFilterList(' [] ')).toEqual([]);
    expect(checkFilterList('[]')).toBeNull();
  });

  it('refuses text that is not JSON, giving the parser’s reason', () => {
    expect(parseFilterList('{')).toBeUndefined();
    expect(checkFilterList('{')).toMatch(/^Not valid JSON: .+\.$/);
  });

  it('refuses JSON that is not a list', () => {
    expect(parseFilterList(JSON.stringify(FILTER))).toBeUndefined();
    expect(checkFilterList(JSON.stringify(FILTER))).toBe(
      'Filters must be a JSON list: [ … ] (use [] for none).',
    );
  });
});

describe('the fleet firewall change with filters', () => {
  it('sends the typed filter list when asked to replace the filters', () => {
    const draft = { ...emptyFirewallDraft(), replaceFilters: true, filtersText: JSON.stringify([FILTER]) };
    expect(buildFirewallPatch(draft)).toEqual({ patch: { filters: [FILTER] } });
  });

  it('refuses to start while the filter text is not a list, with the same check as the wizard', () => {
    const draft = { ...emptyFirewallDraft(), replaceFilters: true, filtersText: '{"name": "x"}' };
    expect(buildFirewallPatch(draft)).toEqual({ problem: 'One field needs correcting: see above.' });
  });
});
