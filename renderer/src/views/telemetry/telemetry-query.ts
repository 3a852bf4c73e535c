import {
  AggregatedPerformanceQuerySchema,
  PERFORMANCE_TAGS,
  PerformanceQuerySchema,
  SeriesParamsSchema,
} from '../../../../electron/shared/api/performance';
import { describeIssues } from '../../../../electron/shared/api/validation';
import type { PerformanceWindow } from '../../../../electron/shared/api/performance-window';
import { t, type MessageKey } from '../../lib/i18n';

/** Whose telemetry a chart shows: one gateway, or the aggregate of a customer, provider or gateway group. */
export type TelemetryScope = 'gateway' | 'customer' | 'provider' | 'gatewayGroup';

/** The scopes in the order the view offers them, with their labels. */
export const TELEMETRY_SCOPES: ReadonlyArray<{ value: TelemetryScope; label: MessageKey }> = [
  { value: 'gateway', label: 'telemetry:scopeGateway' },
  { value: 'customer', label: 'telemetry:scopeCustomer' },
  { value: 'provider', label: 'telemetry:scopeProvider' },
  { value: 'gatewayGroup', label: 'telemetry:scopeGatewayGroup' },
];

/** Time-range presets: how far back from now the chart reaches. */
export const RANGE_PRESETS = [
  { value: '1h', label: 'telemetry:rangeHour', durationMs: 3_600_000 },
  { value: '6h', label: 'telemetry:range6Hours', durationMs: 6 * 3_600_000 },
  { value: '24h', label: 'telemetry:range24Hours', durationMs: 86_400_000 },
  { value: '7d', label: 'telemetry:range7Days', durationMs: 7 * 86_400_000 },
] as const satisfies ReadonlyArray<{ value: string; label: MessageKey; durationMs: number }>;
/** One of the time-range presets. */
export type RangePreset = (typeof RANGE_PRESETS)[number]['value'];

/**
 * Series a real server is known to carry, offered in the pickers beside free text (the spec has no endpoint
 * that lists them): the demo server's series. Series the user typed are remembered and offered as well.
 */
export const KNOWN_SERIES: ReadonlyArray<{ measurement: string; field: string; words: MessageKey }> = [
  { measurement: 'system', field: 'cpuUsage', words: 'telemetry:seriesSystemCpuUsage' },
  { measurement: 'system', field: 'ramUsage', words: 'telemetry:seriesSystemRamUsage' },
  { measurement: 'system', field: 'diskUsage', words: 'telemetry:seriesSystemDiskUsage' },
  { measurement: 'system', field: 'temperature', words: 'telemetry:seriesSystemTemperature' },
  { measurement: 'battery', field: 'voltage', words: 'telemetry:seriesBatteryVoltage' },
  { measurement: 'battery', field: 'level', words: 'telemetry:seriesBatteryLevel' },
  { measurement: 'lora', field: 'rxPackets', words: 'telemetry:seriesLoraRxPackets' },
  { measurement: 'lora', field: 'txPackets', words: 'telemetry:seriesLoraTxPackets' },
  { measurement: 'backhaul', field: 'latencyMs', words: 'telemetry:seriesBackhaulLatencyMs' },
];

/**
 * A series in words ("Processor load" for system/cpuUsage), in the current language; a series the app does not
 * know (typed by the technician) is named as typed, "Series measurement/field".
 */
export function seriesWords(measurement: string, field: string): string {
  const known = KNOWN_SERIES.find((entry) => entry.measurement === measurement && entry.field === field);
  return known ? t(known.words) : t('telemetry:seriesOther', { name: `${measurement}/${field}` });
}

/** Samples asked for per request unless the user says otherwise. */
export const DEFAULT_PAGE_SIZE = 1000;

/** What the telemetry form holds: text as typed, tags as chosen. */
export interface TelemetryForm {
  scope: TelemetryScope;
  id: string;
  measurement: string;
  field: string;
  range: RangePreset;
  tags: string[];
  limit: string;
}

/** The endpoints that read performance samples: of one gateway, or a customer's, provider's or group's. */
export type PerformanceEndpoint =
  | 'getGatewayPerformance'
  | 'getCustomerPerformance'
  | 'getProviderPerformance'
  | 'getGatewayGroupPerformance';

const ENDPOINTS: Record<TelemetryScope, { endpoint: PerformanceEndpoint; idParam: string }> = {
  gateway: { endpoint: 'getGatewayPerformance', idParam: 'gatewayId' },
  customer: { endpoint: 'getCustomerPerformance', idParam: 'customerId' },
  provider: { endpoint: 'getProviderPerformance', idParam: 'providerId' },
  gatewayGroup: { endpoint: 'getGatewayGroupPerformance', idParam: 'gatewayGroupId' },
};

/** A checked request: the endpoint, its path parameters, the window to page through, and showTags. */
export interface TelemetryRequest {
  endpoint: PerformanceEndpoint;
  params: Record<string, string>;
  window: PerformanceWindow;
  showTags?: string;
}

/** The outcome of checking the form: a request to page through, or one message per field. */
export type TelemetryCheck =
  | { ok: true; request: TelemetryRequest }
  | { ok: false; errors: Partial<Record<keyof TelemetryForm, string>> };

/**
 * Checks the form with the spec's schemas and builds the request for the window ending at `nowMs`. Samples are
 * asked oldest first (ASC), so each next page starts at the last timestamp received.
 */
export function buildTelemetryRequest(form: TelemetryForm, nowMs: number): TelemetryCheck {
  const errors: Partial<Record<keyof TelemetryForm, string>> = {};
  if (form.id.trim() === '') errors.id = t('telemetry:idRequired');
  const series = SeriesParamsSchema.safeParse({
    measurement: form.measurement.trim(),
    field: form.field.trim(),
  });
  if (!series.success)
    for (const issue of describeIssues(series.error))
      errors[issue.path as 'measurement' | 'field'] ??= issue.message;
  const preset = RANGE_PRESETS.find((candidate) => candidate.value === form.range) ?? RANGE_PRESETS[2];
  const limitText = String(form.limit).trim();
  const query = {
    startMs: Math.max(0, Math.round(nowMs - preset.durationMs)),
    stopMs: Math.round(nowMs),
    order: 'ASC' as const,
    limit: limitText === '' ? DEFAULT_PAGE_SIZE : Number(limitText),
    ...(form.scope !== 'gateway' && form.tags.length > 0 ? { showTags: form.tags.join(',') } : {}),
  };
  const schema = form.scope === 'gateway' ? PerformanceQuerySchema : AggregatedPerformanceQuerySchema;
  const checked = schema.safeParse(query);
  if (!checked.success)
    for (const issue of describeIssues(checked.error)) {
      const field = issue.path === 'showTags' ? 'tags' : issue.path === 'limit' ? 'limit' : 'range';
      errors[field] ??= issue.message;
    }
  if (Object.keys(errors).length > 0 || !series.success) return { ok: false, errors };
  const { endpoint, idParam } = ENDPOINTS[form.scope];
  return {
    ok: true,
    request: {
      endpoint,
      params: { [idParam]: form.id.trim(), ...series.data },
      window: { startMs: query.startMs, stopMs: query.stopMs, order: 'ASC', limit: query.limit },
      ...('showTags' in query ? { showTags: query.showTags } : {}),
    },
  };
}

/** Stands for "no tags" in the path: the router drops empty path segments. */
const NO_TAGS = '-';

/** The view's path for a form: `[scope, id, measurement, field, range, tags, limit]`. */
export function formatTelemetryRoute(form: TelemetryForm): string[] {
  const tags = form.tags.length > 0 ? form.tags.join(',') : NO_TAGS;
  return [form.scope, form.id, form.measurement, form.field, form.range, tags, form.limit];
}

/** Reads a form from the view's path; parts that are missing or unknown take the defaults. */
export function parseTelemetryRoute(path: readonly string[]): TelemetryForm {
  const [scope = '', id = '', measurement = '', field = '', range = '', tags = '', limit = ''] = path;
  return {
    scope: TELEMETRY_SCOPES.some((candidate) => candidate.value === scope)
      ? (scope as TelemetryScope)
      : 'gateway',
    id,
    measurement: measurement || 'system',
    field: field || 'cpuUsage',
    range: RANGE_PRESETS.some((candidate) => candidate.value === range) ? (range as RangePreset) : '24h',
    tags: tags.split(',').filter((tag) => (PERFORMANCE_TAGS as readonly string[]).includes(tag)),
    limit: limit || String(DEFAULT_PAGE_SIZE),
  };
}

/** Remembered series first, then the known ones, without repeats. */
export function mergeSeriesChoices(
  remembered: ReadonlyArray<{ measurement: string; field: string }>,
): Array<{ measurement: string; field: string }> {
  const seen = new Set<string>();
  const choices: Array<{ measurement: string; field: string }> = [];
  for (const entry of [...remembered, ...KNOWN_SERIES]) {
    const key = `${entry.measurement}/${entry.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    choices.push({ measurement: entry.measurement, field: entry.field });
  }
  return choices;
}
