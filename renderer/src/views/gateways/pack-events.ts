import { EnhancedEventSchema, type EnhancedEvent } from '../../../../electron/shared/api/events';
import { pageSchema } from '../../../../electron/shared/api/common';
import { packSectionProblem } from '../../../../electron/shared/site-pack-file';
import type { ChannelOutput } from '../../lib/wire-types';
import { t } from '../../lib/i18n';

/** What `site-pack:gateway` answers about one gateway (null: the pack does not hold it, or there is no pack). */
export type PackedGateway = ChannelOutput<'site-pack:gateway'>;

const EventPageSchema = pageSchema(EnhancedEventSchema);

/**
 * What the site pack says about a gateway's recent events: the list it holds (`events`, possibly empty: the
 * gateway had none), that it tried and could not read them (`not-read`, with why), or that it does not cover
 * them at all (`not-covered`: no pack, the gateway is not in it, or only its list record is).
 */
export type PackEvents =
  | { kind: 'events'; events: EnhancedEvent[]; asOf: number }
  /** `reason`: what the pack wrote when it could not read them, null when it holds them in an unreadable form. */
  | { kind: 'not-read'; reason: string | null; asOf: number }
  | { kind: 'not-covered'; asOf: number | null };

/**
 * Reads the events the site pack holds for a gateway (the 24 hours before the pack was made), telling "the pack
 * has none" from "the pack does not cover them". A section that is not a page of events counts as not read.
 */
export function packEventsOf(packed: PackedGateway): PackEvents {
  if (!packed) return { kind: 'not-covered', asOf: null };
  const details = packed.details;
  const section = details?.sections.events;
  if (!details || !section) return { kind: 'not-covered', asOf: packed.asOf };
  if (!('value' in section))
    return { kind: 'not-read', reason: packSectionProblem(section), asOf: details.readAt };
  const page = EventPageSchema.safeParse(section.value);
  if (!page.success)
    return {
      kind: 'not-read',
      reason: null,
      asOf: details.readAt,
    };
  return { kind: 'events', events: page.data.data, asOf: details.readAt };
}

/**
 * Why the gateway page shows no events when neither the server nor an earlier visit's copy answered, with what
 * the site pack says (`packDate`: the pack's date in words). Null when the pack holds the list: the page shows it.
 */
export function describeEventsFromPack(events: PackEvents, packDate: (at: number) => string): string | null {
  switch (events.kind) {
    case 'events':
      return events.events.length === 0 ? t('gateways:packNoEvents', { date: packDate(events.asOf) }) : null;
    case 'not-read':
      return t('gateways:packEventsNotRead', {
        date: packDate(events.asOf),
        reason: events.reason ?? t('gateways:packUnreadableForm'),
      });
    case 'not-covered':
      return events.asOf === null ? null : t('gateways:packListRecordOnly', { date: packDate(events.asOf) });
  }
}
