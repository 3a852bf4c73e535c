import { describe, expect, it } from 'vitest';
import { EVENT_PAGE_SIZE_DEFAULT, listEvents } from '../../../simulator/events';
import { createTenant } from '../../../simulator/tenant';

const NOW = Date.UTC(2026, 0, 15, 12);
const tenant = createTenant({
  seed: 11,
  gateways: 24,
  devices: 100,
  customers: 2,
  offlineFraction: 0,
  nowMs: NOW,
});
const everyone = () => true;

describe('listEvents', () => {
  it('answers a page of the default size, newest first', () => {
    const page = listEvents(tenant.events, everyone, { startTs: 0 });
    expect(page.data).toHaveLength(EVENT_PAGE_SIZE_DEFAULT);
    const starts = page.data.map((event) => event.startTs);
    expect(starts).toEqual([...starts].sort((left, right) => right - left));
    expect(page.totalElements).toBe(tenant.events.length);
  });

  it('keeps only events that started inside [startTs, endTs]', () => {
    const startTs = NOW - 3 * 86_400_000;
    const endTs = NOW - 86_400_000;
    const page = listEvents(tenant.events, everyone, { startTs, endTs, limit: 100 });
    expect(page.data.every((event) => event.startTs >= startTs && event.startTs <= endTs)).toBe(true);
  });

  it('combines filters', () => {
    const page = listEvents(tenant.events, everyone, {
      startTs: 0,
      source: 'DEVICE',
      severity: 'Major',
      limit: 100,
    });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((event) => event.source === 'DEVICE' && event.severity === 'Major')).toBe(true);
  });

  it('visits every matching event once across pages', () => {
    const seen = new Set<string>();
    for (let page = 0; page < 1_000; page++) {
      const answer = listEvents(tenant.events, everyone, {
        startTs: 0,
        limit: 7,
        page,
        sortField: 'severity',
        sortOrder: 'asc',
      });
      answer.data.forEach((event) => seen.add(event.id));
      if (!answer.hasNext) break;
    }
    expect(seen.size).toBe(tenant.events.length);
  });

  it('refuses a sort field it does not know with a 400 naming sortField', () => {
    expect(() => listEvents(tenant.events, everyone, { startTs: 0, sortField: 'colour' })).toThrow(
      /sortField/,
    );
  });
});
