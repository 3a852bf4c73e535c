import { describe, expect, it } from 'vitest';
import {
  aggregatedSamples,
  findSeries,
  gatewaySamples,
  SAMPLE_PERIOD_MS,
  type SeriesMember,
} from '../../../simulator/performance';
import { createTenant } from '../../../simulator/tenant';

const NOW = Date.UTC(2026, 0, 15, 12);
const tenant = createTenant({
  seed: 5,
  gateways: 12,
  devices: 0,
  customers: 2,
  offlineFraction: 0,
  nowMs: NOW,
});
const members: SeriesMember[] = tenant.gateways.map((gateway) => ({
  gateway,
  lastSeenTime: NOW,
  providerId: tenant.providerId,
}));
const series = findSeries('system', 'cpuUsage');

describe('performance series', () => {
  it('includes samples at startMs and stopMs', () => {
    const startMs = NOW - 10 * SAMPLE_PERIOD_MS;
    const samples = gatewaySamples(series, members[0]!, { startMs, stopMs: NOW - 5 * SAMPLE_PERIOD_MS }, NOW);
    expect(samples[0]!.timeMs).toBe(startMs);
    expect(samples.at(-1)!.timeMs).toBe(NOW - 5 * SAMPLE_PERIOD_MS);
  });

  it('answers newest first with DESC and stops at limit', () => {
    const samples = gatewaySamples(series, members[0]!, { order: 'DESC', limit: 3 }, NOW);
    expect(samples.map((sample) => sample.timeMs)).toEqual([
      NOW,
      NOW - SAMPLE_PERIOD_MS,
      NOW - 2 * SAMPLE_PERIOD_MS,
    ]);
  });

  it('keeps values inside the range of the measure', () => {
    const samples = gatewaySamples(series, members[1]!, { limit: 1000 }, NOW);
    expect(samples.every((sample) => sample.value >= 0 && sample.value <= 100)).toBe(true);
  });

  it('has no samples after a gateway was last seen', () => {
    const silent = { ...members[2]!, lastSeenTime: NOW - 3_600_000 };
    const samples = gatewaySamples(series, silent, { order: 'DESC', limit: 1 }, NOW);
    expect(samples[0]!.timeMs).toBeLessThanOrEqual(NOW - 3_600_000);
  });

  it('answers one series per tag combination, tagged, in time order', () => {
    const samples = aggregatedSamples(
      series,
      members,
      ['customerId'],
      { startMs: NOW - SAMPLE_PERIOD_MS, stopMs: NOW },
      NOW,
    );
    const customers = new Set(members.map((member) => member.gateway.customerId));
    expect(samples).toHaveLength(2 * customers.size);
    expect(new Set(samples.map((sample) => sample.tags.customerId))).toEqual(customers);
    expect(samples.map((sample) => sample.timeMs)).toEqual(
      [...samples.map((sample) => sample.timeMs)].sort(),
    );
  });

  it('answers one untagged series averaging every gateway without showTags', () => {
    const [sample] = aggregatedSamples(series, members, [], { startMs: NOW, stopMs: NOW }, NOW);
    const values = members.map(
      (member) => gatewaySamples(series, member, { startMs: NOW, stopMs: NOW }, NOW)[0]!.value,
    );
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(sample!.tags).toEqual({});
    expect(sample!.value).toBeCloseTo(mean, 1);
  });

  it('refuses an unknown measurement with a 404 listing the series', () => {
    expect(() => findSeries('system', 'colour')).toThrow(/system\/cpuUsage/);
  });
});
