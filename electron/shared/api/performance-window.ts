import type { PerformanceSample } from './performance';
import { format } from '../format';

/** Most requests one window load makes, whatever the server answers; past it the load stops, labelled partial. */
export const MAX_WINDOW_REQUESTS = 10_000;

/**
 * Most samples one window load keeps: five times the 100,000 points the chart is measured with. A server that
 * keeps answering full pages of new samples stops here, the result labelled partial (`stoppedAt: 'samples'`).
 */
export const MAX_WINDOW_SAMPLES = 500_000;

/**
 * Why a load ended before the window's end (the result is partial): more samples share one timestamp than a page
 * holds, MAX_WINDOW_SAMPLES were kept, or MAX_WINDOW_REQUESTS were made.
 */
export type WindowStop = 'shared-timestamp' | 'samples' | 'requests';

/** What the user reads beside a partial load, per reason it stopped. */
export const WINDOW_STOP_WORDS: Record<WindowStop, string> = {
  'shared-timestamp': 'stopped: more samples share one time than a page holds',
  samples: `stopped at ${format.number(MAX_WINDOW_SAMPLES)} samples, the most Field Kit loads at once: a shorter time range shows the rest`,
  requests: `stopped after ${format.number(MAX_WINDOW_REQUESTS)} requests: the server's answers did not reach the end of the time range`,
};

/** A window of a performance series, as its endpoints take it. */
export interface PerformanceWindow {
  startMs: number;
  stopMs: number;
  order: 'ASC' | 'DESC';
  limit: number;
}

/** Progress of a paged performance load. */
export interface PerformanceProgress {
  samples: number;
  requests: number;
  /** Share of the time window covered so far, 0 to 1. */
  fraction: number;
}

const sampleKey = (sample: PerformanceSample) =>
  `${sample.timeMs}|${JSON.stringify(sample.tags ?? {})}|${sample.value}`;

/**
 * Loads a whole time window of a performance series, `limit` samples at a time: each next request starts
 * (ASC) or stops (DESC) at the last timestamp received, as the spec says, and the samples at that boundary
 * timestamp that were already received are not repeated. Stops when a page is short, or when a full page
 * brings nothing new (more samples share one timestamp than `limit`), or at MAX_WINDOW_SAMPLES or
 * MAX_WINDOW_REQUESTS. A load that stops early says so: `truncated` is true and `stoppedAt` says why.
 */
export async function loadPerformanceWindow(
  fetchSlice: (window: PerformanceWindow) => Promise<PerformanceSample[]>,
  window: PerformanceWindow,
  options: { signal?: AbortSignal; onProgress?: (progress: PerformanceProgress) => void } = {},
): Promise<{ samples: PerformanceSample[]; truncated: boolean; stoppedAt?: WindowStop; requests: number }> {
  const samples: PerformanceSample[] = [];
  let current = { ...window };
  // Samples at the last timestamp of the previous slice, counted: the next slice starts there again.
  let boundary = new Map<string, number>();
  const span = Math.max(1, window.stopMs - window.startMs);

  for (let requests = 1; requests <= MAX_WINDOW_REQUESTS; requests++) {
    options.signal?.throwIfAborted();
    const slice = await fetchSlice(current);
    let added = 0;
    for (const sample of slice) {
      const key = sampleKey(sample);
      const repeats = boundary.get(key) ?? 0;
      if (repeats > 0) {
        boundary.set(key, repeats - 1);
        continue;
      }
      if (samples.length >= MAX_WINDOW_SAMPLES)
        return { samples, truncated: true, stoppedAt: 'samples', requests };
      samples.push(sample);
      added++;
    }
    const lastTimeMs = slice.at(-1)?.timeMs;
    boundary = new Map();
    for (const sample of slice) {
      if (sample.timeMs !== lastTimeMs) continue;
      const key = sampleKey(sample);
      boundary.set(key, (boundary.get(key) ?? 0) + 1);
    }
    const last = slice.at(-1);
    const covered = last
      ? window.order === 'ASC'
        ? last.timeMs - window.startMs
        : window.stopMs - last.timeMs
      : span;
    options.onProgress?.({
      samples: samples.length,
      requests,
      fraction: Math.min(1, Math.max(0, covered / span)),
    });
    if (slice.length < current.limit || !last) return { samples, truncated: false, requests };
    if (added === 0) return { samples, truncated: true, stoppedAt: 'shared-timestamp', requests };
    current =
      window.order === 'ASC' ? { ...current, startMs: last.timeMs } : { ...current, stopMs: last.timeMs };
  }
  return { samples, truncated: true, stoppedAt: 'requests', requests: MAX_WINDOW_REQUESTS };
}
