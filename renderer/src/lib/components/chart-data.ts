import { toIsoTime } from '../../../../electron/shared/time';

/** One performance sample as the endpoints answer it (spec "Gateway performance sample"). */
export interface ChartSample {
  timeMs: number;
  value: number;
  tags?: Record<string, string> | undefined;
}

/** Series aligned on one time axis, as uPlot takes them: x in seconds, then one y array per series. */
export interface GroupedSeries {
  /** One label per series, in the order of `values`. */
  labels: string[];
  /** The tags each series was grouped by (empty for an unaggregated series). */
  tags: Array<Record<string, string>>;
  /** Sample times in seconds, ascending, distinct. */
  times: number[];
  /** One array per series, aligned with `times`; null where that series has no sample. */
  values: Array<Array<number | null>>;
}

/** Tags written in a stable order (by key), so the same combination always gives the same key. */
export function describeTags(tags: Record<string, string> | undefined): string {
  const entries = Object.entries(tags ?? {}).sort(([left], [right]) => left.localeCompare(right));
  return entries.map(([key, value]) => `${key}=${value}`).join(', ');
}

function tagKey(tags: Record<string, string> | undefined): string {
  // Most series carry no tags (one gateway): skip the sort-and-join for them.
  if (tags === undefined) return '';
  for (const _key in tags) return describeTags(tags);
  return '';
}

/**
 * Groups samples into one series per tag combination (showTags), on one ascending time axis. A series without
 * tags is labelled `fallbackLabel`. Samples at the same time and tags keep the last value seen.
 */
export function groupSamplesBySeries(
  samples: readonly ChartSample[],
  fallbackLabel = 'value',
): GroupedSeries {
  const seriesIndex = new Map<string, number>();
  const tags: Array<Record<string, string>> = [];
  const rows = new Array<number>(samples.length);
  let isAscending = true;
  for (let index = 0; index < samples.length; index++) {
    const sample = samples[index]!;
    const key = tagKey(sample.tags);
    let row = seriesIndex.get(key);
    if (row === undefined) {
      row = tags.length;
      seriesIndex.set(key, row);
      tags.push({ ...(sample.tags ?? {}) });
    }
    rows[index] = row;
    if (index > 0 && sample.timeMs <= samples[index - 1]!.timeMs) isAscending = false;
  }
  const labels = tags.map((entry) => describeTags(entry) || fallbackLabel);
  // One series already in time order (what one gateway's paged load gives): no lookup tables needed.
  if (tags.length === 1 && isAscending) {
    const times = new Array<number>(samples.length);
    const values = new Array<number | null>(samples.length);
    for (let index = 0; index < samples.length; index++) {
      times[index] = samples[index]!.timeMs / 1000;
      values[index] = samples[index]!.value;
    }
    return { labels, tags, times, values: [values] };
  }
  const timesMs = [...new Set(samples.map((sample) => sample.timeMs))].sort((left, right) => left - right);
  const column = new Map<number, number>();
  timesMs.forEach((time, index) => column.set(time, index));
  const values = tags.map(() => new Array<number | null>(timesMs.length).fill(null));
  samples.forEach((sample, index) => {
    values[rows[index]!]![column.get(sample.timeMs)!] = sample.value;
  });
  return { labels, tags, times: timesMs.map((time) => time / 1000), values };
}

// A spreadsheet runs a cell starting with one of these as a formula (OWASP, "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
// …except a plain number such as -1.5, which it reads as the number: left as is so columns stay numeric.
// No two parts can match the same digits, so a long digit run is checked in linear time.
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function quoteCsv(text: string): string {
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Writes samples as CSV (RFC 4180, CRLF line ends): `timeMs,isoTime,value` and one column per tag key found,
 * in the samples' order. Fields with commas, quotes or line breaks are quoted. A field a spreadsheet would run
 * as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return, and not a plain number) is
 * written as quoted text behind a `'`, so opening the export never runs what a server sent.
 */
export function buildSamplesCsv(samples: readonly ChartSample[]): string {
  const tagKeys = [...new Set(samples.flatMap((sample) => Object.keys(sample.tags ?? {})))].sort();
  const header = ['timeMs', 'isoTime', 'value', ...tagKeys];
  const lines = [header.map(quoteCsv).join(',')];
  for (const sample of samples) {
    const fields = [
      String(sample.timeMs),
      toIsoTime(sample.timeMs) ?? '',
      String(sample.value),
      ...tagKeys.map((key) => sample.tags?.[key] ?? ''),
    ];
    lines.push(fields.map(quoteCsv).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A file name safe on Windows, macOS and Linux, from free text (measurement, field, a time). */
export function toFileName(...parts: string[]): string {
  return parts
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Hands a Blob to the browser as a download named `fileName` (the Electron shell saves it the same way). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click starts the download synchronously; revoking on the next turn lets the browser read it first. A turn
  // of the event loop, not a wait in the app's time: no clock.
  // eslint-disable-next-line no-restricted-globals
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Colours of successive series: distinguishable in light and dark themes. */
export const SERIES_COLOURS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#7f7f7f',
] as const;
