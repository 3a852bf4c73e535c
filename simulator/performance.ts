import type { PerformanceTag } from '../electron/shared/api/performance';
import { notFound } from './failure';
import { noise } from './random';
import { PERFORMANCE_SERIES, type GatewayEntity, type PerformanceSeries } from './tenant';

/** Sampling period of every series. */
export const SAMPLE_PERIOD_MS = 5 * 60_000;
/** Value of the `period` tag. */
export const SAMPLE_PERIOD_TAG = '5m';
/** How far back series go. */
export const RETENTION_MS = 30 * 86_400_000;
/** Samples returned without a limit (docs/api.md, "Performance": at most 1000). */
export const PERFORMANCE_LIMIT_DEFAULT = 1000;
/** Default window without startMs: the last 24 hours. */
export const DEFAULT_WINDOW_MS = 86_400_000;
/** An aggregated value is the mean over at most this many gateways of its group. */
export const AGGREGATE_SAMPLE_SIZE = 64;

/** A validated performance query. */
export interface PerformanceWindow {
  startMs?: number | undefined;
  stopMs?: number | undefined;
  order?: 'ASC' | 'DESC' | undefined;
  limit?: number | undefined;
}

/** A gateway as a series member: its fixed facts and when it was last heard. */
export interface SeriesMember {
  gateway: GatewayEntity;
  lastSeenTime: number;
  providerId: string;
}

/** The series for measurement/field, or 404 naming the ones that exist. */
export function findSeries(measurement: string, field: string): PerformanceSeries {
  const series = PERFORMANCE_SERIES.find(
    (candidate) => candidate.measurement === measurement && candidate.field === field,
  );
  if (!series) {
    const known = PERFORMANCE_SERIES.map((candidate) => `${candidate.measurement}/${candidate.field}`).join(
      ', ',
    );
    throw notFound(`No performance series ${measurement}/${field}; series: ${known}`);
  }
  return series;
}

/** The value of one gateway's series at a sample time: a daily cycle plus noise, within the series' range. */
export function sampleValue(series: PerformanceSeries, gatewayId: string, timeMs: number): number {
  const day = (timeMs % 86_400_000) / 86_400_000;
  const cycle = Math.sin(2 * Math.PI * day);
  const jitter = noise(
    `${gatewayId}:${series.measurement}:${series.field}`,
    Math.floor(timeMs / SAMPLE_PERIOD_MS),
  );
  const value = series.base + series.amplitude * (0.6 * cycle + 0.4 * jitter);
  return Math.round(Math.min(series.maximum, Math.max(series.minimum, value)) * 100) / 100;
}

function hasSampleAt(member: SeriesMember, timeMs: number, now: number): boolean {
  return (
    timeMs >= member.gateway.createdTime &&
    timeMs >= now - RETENTION_MS &&
    timeMs <= Math.min(now, member.lastSeenTime)
  );
}

/** Sample times inside the window, in the asked order, on the fixed grid. Bounded by the retention period. */
function* sampleTimes(window: PerformanceWindow, now: number): Generator<number> {
  const stop = Math.min(window.stopMs ?? now, now);
  const start = Math.max(window.startMs ?? stop - DEFAULT_WINDOW_MS, now - RETENTION_MS);
  if (start > stop) return;
  const first = Math.ceil(start / SAMPLE_PERIOD_MS) * SAMPLE_PERIOD_MS;
  const last = Math.floor(stop / SAMPLE_PERIOD_MS) * SAMPLE_PERIOD_MS;
  if (window.order === 'DESC') for (let time = last; time >= first; time -= SAMPLE_PERIOD_MS) yield time;
  else for (let time = first; time <= last; time += SAMPLE_PERIOD_MS) yield time;
}

/** Samples of one gateway: startMs and stopMs inclusive, oldest first unless DESC, at most limit. */
export function gatewaySamples(
  series: PerformanceSeries,
  member: SeriesMember,
  window: PerformanceWindow,
  now: number,
) {
  const limit = window.limit ?? PERFORMANCE_LIMIT_DEFAULT;
  const samples: Array<{ timeMs: number; value: number }> = [];
  for (const timeMs of sampleTimes(window, now)) {
    if (samples.length >= limit) break;
    if (hasSampleAt(member, timeMs, now))
      samples.push({ timeMs, value: sampleValue(series, member.gateway.id, timeMs) });
  }
  return samples;
}

function tagValue(member: SeriesMember, tag: PerformanceTag): string {
  switch (tag) {
    case 'period':
      return SAMPLE_PERIOD_TAG;
    case 'gatewayMac':
      return member.gateway.gatewayMac;
    case 'gatewayId':
      return member.gateway.id;
    case 'customerId':
      return member.gateway.customerId;
    case 'providerId':
      return member.providerId;
    case 'gatewayGroupId':
      return member.gateway.gatewayGroupId;
  }
}

/**
 * Aggregated samples: one series per combination of the showTags values (one series without tags), each sample
 * carrying its `tags`; the value is the mean over the group's gateways (at most AGGREGATE_SAMPLE_SIZE of them).
 * Samples come in time order, series by series at equal times, at most limit in all.
 */
export function aggregatedSamples(
  series: PerformanceSeries,
  members: readonly SeriesMember[],
  tags: readonly PerformanceTag[],
  window: PerformanceWindow,
  now: number,
) {
  const groups = new Map<string, { tags: Record<string, string>; members: SeriesMember[] }>();
  for (const member of members) {
    const values = Object.fromEntries(tags.map((tag) => [tag, tagValue(member, tag)]));
    const key = JSON.stringify(values);
    const group = groups.get(key) ?? { tags: values, members: [] };
    group.members.push(member);
    groups.set(key, group);
  }
  const ordered = [...groups.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  const limit = window.limit ?? PERFORMANCE_LIMIT_DEFAULT;
  const samples: Array<{ timeMs: number; value: number; tags: Record<string, string> }> = [];
  for (const timeMs of sampleTimes(window, now)) {
    for (const [, group] of ordered) {
      if (samples.length >= limit) return samples;
      let sum = 0;
      let count = 0;
      for (const member of group.members) {
        if (count >= AGGREGATE_SAMPLE_SIZE) break;
        if (!hasSampleAt(member, timeMs, now)) continue;
        sum += sampleValue(series, member.gateway.id, timeMs);
        count++;
      }
      if (count > 0)
        samples.push({ timeMs, value: Math.round((sum / count) * 100) / 100, tags: { ...group.tags } });
    }
  }
  return samples;
}
