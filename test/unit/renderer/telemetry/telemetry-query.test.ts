import { describe, expect, it } from 'vitest';
import {
  buildTelemetryRequest,
  formatTelemetryRoute,
  mergeSeriesChoices,
  parseTelemetryRoute,
  type TelemetryForm,
} from '../../../../renderer/src/views/telemetry/telemetry-query';

const NOW = Date.UTC(2026, 0, 15, 12, 0);

function buildForm(overrides: Partial<TelemetryForm> = {}): TelemetryForm {
  return {
    scope: 'gateway',
    id: 'gw-1',
    measurement: 'system',
    field: 'cpuUsage',
    range: '6h',
    tags: [],
    limit: '1000',
    ...overrides,
  };
}

describe('buildTelemetryRequest', () => {
  it('asks one gateway for the preset window, oldest first', () => {
    expect(buildTelemetryRequest(buildForm(), NOW)).toEqual({
      ok: true,
      request: {
        endpoint: 'getGatewayPerformance',
        params: { gatewayId: 'gw-1', measurement: 'system', field: 'cpuUsage' },
        window: { startMs: NOW - 6 * 3_600_000, stopMs: NOW, order: 'ASC', limit: 1000 },
      },
    });
  });

  it('sends showTags only to the aggregated endpoints', () => {
    const aggregated = buildTelemetryRequest(
      buildForm({ scope: 'gatewayGroup', tags: ['gatewayId', 'period'] }),
      NOW,
    );
    expect(aggregated.ok && aggregated.request.showTags).toBe('gatewayId,period');
    expect(aggregated.ok && aggregated.request.params.gatewayGroupId).toBe('gw-1');
    const single = buildTelemetryRequest(buildForm({ tags: ['gatewayId'] }), NOW);
    expect(single.ok && 'showTags' in single.request).toBe(false);
  });

  it('names each field that breaks a rule', () => {
    const check = buildTelemetryRequest(buildForm({ id: ' ', measurement: '', limit: '0' }), NOW);
    expect(check.ok ? null : Object.keys(check.errors).sort()).toEqual(['id', 'limit', 'measurement']);
  });
});

describe('telemetry routes and pickers', () => {
  it('reads back the form it wrote, with and without tags', () => {
    for (const form of [buildForm(), buildForm({ scope: 'customer', tags: ['gatewayMac'] })])
      expect(parseTelemetryRoute(formatTelemetryRoute(form))).toEqual(form);
  });

  it('offers remembered series first and each series once', () => {
    const choices = mergeSeriesChoices([
      { measurement: 'radio', field: 'snr' },
      { measurement: 'system', field: 'cpuUsage' },
    ]);
    expect(choices.slice(0, 2)).toEqual([
      { measurement: 'radio', field: 'snr' },
      { measurement: 'system', field: 'cpuUsage' },
    ]);
    expect(choices.filter((choice) => choice.field === 'cpuUsage')).toHaveLength(1);
  });
});
