import { describe, expect, it } from 'vitest';
import {
  collectPages,
  loadPerformanceWindow,
  type PerformanceWindow,
} from '../../../../electron/services/api';
import type { PerformanceSample } from '../../../../electron/shared/api';

/** A series served the way the simulator does: inclusive window, ordered, at most `limit` samples. */
function seriesServer(series: PerformanceSample[]) {
  const requests: PerformanceWindow[] = [];
  const fetchSlice = async (window: PerformanceWindow) => {
    requests.push(window);
    const inWindow = series.filter(
      (sample) => sample.timeMs >= window.startMs && sample.timeMs <= window.stopMs,
    );
    const ordered = window.order === 'ASC' ? inWindow : [...inWindow].reverse();
    return ordered.slice(0, window.limit);
  };
  return { fetchSlice, requests };
}

function makeSeries(count: number, { sharedEvery = 0 } = {}): PerformanceSample[] {
  const samples: PerformanceSample[] = [];
  let time = 1_000;
  for (let index = 0; index < count; index++) {
    if (!sharedEvery || index % sharedEvery !== 0) time += 10;
    samples.push({ timeMs: time, value: index, tags: { gatewayId: `gw-${index % 3}` } });
  }
  return samples;
}

describe('loadPerformanceWindow', () => {
  it.each(['ASC', 'DESC'] as const)('visits every sample exactly once in %s order', async (order) => {
    const series = makeSeries(1_037);
    const { fetchSlice, requests } = seriesServer(series);
    const { samples, truncated } = await loadPerformanceWindow(fetchSlice, {
      startMs: 0,
      stopMs: 1e9,
      order,
      limit: 100,
    });
    expect(truncated).toBe(false);
    expect(samples.map((sample) => sample.value)).toEqual(
      (order === 'ASC' ? series : [...series].reverse()).map((sample) => sample.value),
    );
    expect(requests.length).toBeGreaterThan(10);
  });

  it('does not repeat samples that share the boundary timestamp', async () => {
    const series = makeSeries(500, { sharedEvery: 2 }); // pairs of samples share a timestamp
    const { fetchSlice } = seriesServer(series);
    const { samples } = await loadPerformanceWindow(fetchSlice, {
      startMs: 0,
      stopMs: 1e9,
      order: 'ASC',
      limit: 7,
    });
    expect(samples).toHaveLength(500);
    expect(new Set(samples.map((sample) => sample.value)).size).toBe(500);
  });

  it('reports progress and stops, truncated, when one timestamp holds more samples than a page', async () => {
    const series = Array.from({ length: 30 }, (_, value) => ({ timeMs: 5, value }));
    const { fetchSlice } = seriesServer(series);
    const fractions: number[] = [];
    const result = await loadPerformanceWindow(
      fetchSlice,
      { startMs: 0, stopMs: 10, order: 'ASC', limit: 10 },
      { onProgress: (progress) => fractions.push(progress.fraction) },
    );
    expect(result.truncated).toBe(true);
    expect(result.samples).toHaveLength(10);
    expect(fractions.length).toBeGreaterThan(0);
  });
});

describe('collectPages', () => {
  it('walks pages from 0 until hasNext is false', async () => {
    const pages: number[] = [];
    const items = await collectPages(async (page) => {
      pages.push(page);
      return { data: [page * 2, page * 2 + 1], totalPages: 3, totalElements: 6, hasNext: page < 2 };
    });
    expect(pages).toEqual([0, 1, 2]);
    expect(items).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
