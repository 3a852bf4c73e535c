import { describe, expect, it } from 'vitest';
import {
  describeEventsFromPack,
  packEventsOf,
  type PackedGateway,
} from '../../../../renderer/src/views/gateways/pack-events';
import { makeGateway } from '../../../helpers/factories';

const READ_AT = Date.UTC(2026, 10, 24, 7, 30);
const packDate = (at: number) => new Date(at).toISOString().slice(0, 10);

function packWith(events: unknown, sections: 'events' | 'none' | 'no-details' = 'events'): PackedGateway {
  return {
    asOf: READ_AT,
    gateway: makeGateway(),
    hasRootPassword: false,
    details:
      sections === 'no-details'
        ? null
        : {
            readAt: READ_AT,
            sections: sections === 'events' ? { events: events as { value: unknown } } : {},
          },
  };
}

const page = (data: unknown[]) => ({
  value: { data, totalPages: 1, totalElements: data.length, hasNext: false },
});

describe('packEventsOf', () => {
  it('says the pack has no events when it holds an empty list for the gateway', () => {
    const events = packEventsOf(packWith(page([])));
    expect(events).toEqual({ kind: 'events', events: [], asOf: READ_AT });
    expect(describeEventsFromPack(events, packDate)).toBe(
      'No events in the last 24 h (site pack of 2026-11-24).',
    );
  });

  it('gives the events the pack holds, and no note: the page lists them', () => {
    const event = {
      id: 'e1',
      startTs: READ_AT - 60_000,
      endTs: null,
      source: 'gateway',
      entityId: 'gw-1',
      eventName: 'Backhaul down',
      eventType: 'Events',
      severity: 'MAJOR',
      state: 'Raised',
    };
    const events = packEventsOf(packWith(page([event])));
    expect(events).toMatchObject({ kind: 'events', events: [{ eventName: 'Backhaul down' }] });
    expect(describeEventsFromPack(events, packDate)).toBeNull();
  });

  it('tells a pack that holds only the list record from one that holds no events', () => {
    const events = packEventsOf(packWith(undefined, 'no-details'));
    expect(events).toEqual({ kind: 'not-covered', asOf: READ_AT });
    expect(describeEventsFromPack(events, packDate)).toBe(
      "The site pack of 2026-11-24 holds only this gateway's list record, not its events, and no earlier visit kept them.",
    );
    expect(packEventsOf(packWith(undefined, 'none')).kind).toBe('not-covered');
  });

  it('says why the pack could not read the events, and takes a malformed section as not read', () => {
    expect(describeEventsFromPack(packEventsOf(packWith({ error: 'HTTP 503' })), packDate)).toBe(
      "The site pack of 2026-11-24 could not read this gateway's events (HTTP 503), and no earlier visit kept them.",
    );
    expect(packEventsOf(packWith({ value: { data: 'not a list' } })).kind).toBe('not-read');
  });

  it('leaves the words to the read error when there is no pack at all', () => {
    const events = packEventsOf(null);
    expect(events).toEqual({ kind: 'not-covered', asOf: null });
    expect(describeEventsFromPack(events, packDate)).toBeNull();
  });
});
