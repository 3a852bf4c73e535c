import { describe, expect, it } from 'vitest';
import {
  buildDefaultEventForm,
  buildEventRequest,
  formatEventRoute,
  parseEventRoute,
  severityTone,
  toLocalInput,
  type EventForm,
} from '../../../../renderer/src/views/events/event-query';

const NOW = Date.UTC(2026, 0, 15, 12, 0);

function buildForm(overrides: Partial<EventForm> = {}): EventForm {
  return { ...buildDefaultEventForm(NOW), ...overrides };
}

describe('buildEventRequest', () => {
  it('sends every filter of the all-events endpoint with the times in milliseconds', () => {
    const form = buildForm({
      start: toLocalInput(NOW - 3_600_000),
      end: toLocalInput(NOW),
      entityIdUuid: 'uuid-1',
      entityName: 'gw-1',
      eventName: 'GATEWAY_HIGH_CPU_UTILIZATION',
      eventType: 'Alarms',
      ituType: 'x733',
      severity: 'Major',
      source: 'GATEWAY',
      state: 'Raised',
      limit: '50',
    });
    const request = buildEventRequest('all', form, 2);
    expect(request).toEqual({
      ok: true,
      call: {
        endpoint: 'listEnhancedEvents',
        query: {
          startTs: NOW - 3_600_000,
          endTs: NOW,
          entityIdUuid: 'uuid-1',
          entityName: 'gw-1',
          eventName: 'GATEWAY_HIGH_CPU_UTILIZATION',
          eventType: 'Alarms',
          ituType: 'x733',
          severity: 'Major',
          source: 'GATEWAY',
          state: 'Raised',
          sortField: 'start_ts',
          sortOrder: 'desc',
          limit: 50,
          page: 2,
        },
      },
    });
  });

  it('refuses a page size of 101 with the message on the page size field', () => {
    const request = buildEventRequest('all', buildForm({ limit: '101' }), 0);
    expect(request).toEqual({ ok: false, errors: { limit: 'limit must be 1 to 100' } });
  });

  it('refuses an end before the start on the end field', () => {
    const request = buildEventRequest('raised', buildForm({ end: toLocalInput(NOW - 2 * 86_400_000) }), 0);
    expect(request.ok ? null : request.errors.end).toBe('endTs must not be before startTs');
  });

  it('requires a start time', () => {
    const request = buildEventRequest('all', buildForm({ start: '' }), 0);
    expect(request.ok ? null : request.errors.start).toMatch(/startTs/);
  });

  it('says how to write a date when the text names none, on each field, and sends nothing', () => {
    const request = buildEventRequest('all', buildForm({ start: '26/11/2026', end: '2026-02-30 10:00' }), 0);
    const message = 'Not a date and time: write it year first, as 2026-11-26 14:05.';
    expect(request).toEqual({ ok: false, errors: { start: message, end: message } });
  });

  it('reads the ISO form a saved address holds (with its T) as the same time', () => {
    const spaced = buildEventRequest('all', buildForm({ start: toLocalInput(NOW) }), 0);
    const withT = buildEventRequest('all', buildForm({ start: toLocalInput(NOW).replace(' ', 'T') }), 0);
    expect(spaced.ok && spaced.call.query).toMatchObject({ startTs: NOW });
    expect(withT).toEqual(spaced);
  });

  it('leaves state out of the raised endpoint', () => {
    const request = buildEventRequest('raised', buildForm({ state: 'Clear' }), 0);
    expect(request.ok && request.call.endpoint).toBe('listRaisedEnhancedEvents');
    expect(request.ok && 'state' in request.call.query!).toBe(false);
  });

  it('puts entity type, id and category in the path of the per-entity endpoint', () => {
    const request = buildEventRequest(
      'entity',
      buildForm({ entityType: 'DEVICE', entityId: 'dev-1', entityEventType: 'Offline', severity: 'Major' }),
      1,
    );
    expect(request).toEqual({
      ok: true,
      call: {
        endpoint: 'listEntityEnhancedEvents',
        params: { entityType: 'DEVICE', entityId: 'dev-1', eventType: 'Offline' },
        query: { startTs: NOW - 86_400_000, limit: 20, page: 1 },
      },
    });
  });

  it('asks for the entity id of the per-entity endpoint', () => {
    const request = buildEventRequest('entity', buildForm(), 0);
    expect(request.ok ? null : Object.keys(request.errors)).toEqual(['entityId']);
  });
});

describe('event routes', () => {
  it('reads back the filters and page it wrote', () => {
    const route = { mode: 'raised' as const, form: buildForm({ severity: 'Critical', end: '' }), page: 3 };
    expect(parseEventRoute(formatEventRoute(route), NOW + 999_999)).toEqual(route);
  });

  it('starts with the last 24 hours when the address holds no filters', () => {
    expect(parseEventRoute([], NOW)).toEqual({ mode: 'all', form: buildDefaultEventForm(NOW), page: 0 });
  });
});

describe('severityTone', () => {
  it('colours critical as danger, major as a warning and minor as neutral', () => {
    expect(['Critical', 'Major', 'Minor'].map(severityTone)).toEqual(['danger', 'warn', 'neutral']);
  });
});
