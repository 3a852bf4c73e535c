import { badArgument } from './failure';
import { pageOf, type PageOf } from './gateway-list';
import type { EventEntity } from './tenant';

/** Page size of the event lists when the query gives no limit. */
export const EVENT_PAGE_SIZE_DEFAULT = 20;

/** sortField values the event lists accept (snake_case, as the spec's start_ts), and what each orders by. */
export const EVENT_SORT_FIELDS: Record<string, (event: EventEntity) => string | number> = {
  start_ts: (event) => event.startTs,
  end_ts: (event) => event.endTs ?? Number.MAX_SAFE_INTEGER,
  event_name: (event) => event.eventName,
  event_type: (event) => event.eventType,
  severity: (event) => ['Critical', 'Major', 'Minor'].indexOf(event.severity),
  source: (event) => event.source,
  state: (event) => event.state,
  entity_name: (event) => event.entityName,
};

/** The filters of the event endpoints, already validated by the endpoint table's query schemas. */
export interface EventFilter {
  startTs: number;
  endTs?: number | undefined;
  entityIdUuid?: string | undefined;
  entityName?: string | undefined;
  eventName?: string | undefined;
  eventType?: string | undefined;
  ituType?: string | undefined;
  severity?: string | undefined;
  source?: string | undefined;
  state?: string | undefined;
  limit?: number | undefined;
  page?: number | undefined;
  sortField?: string | undefined;
  sortOrder?: 'asc' | 'desc' | undefined;
}

/**
 * Filters, sorts and pages events. An event matches the window when it started at or after startTs and (with
 * endTs) at or before endTs. Default order: start_ts desc (newest first); ties by id.
 */
export function listEvents(
  events: readonly EventEntity[],
  visible: (event: EventEntity) => boolean,
  filter: EventFilter,
): PageOf<EventEntity> {
  const sortField = filter.sortField ?? 'start_ts';
  const key = sortField.toLowerCase();
  const valueOf = Object.hasOwn(EVENT_SORT_FIELDS, key) ? EVENT_SORT_FIELDS[key] : undefined;
  if (!valueOf) {
    throw badArgument(
      `sortField: ${sortField} is not sortable; use one of ${Object.keys(EVENT_SORT_FIELDS).join(', ')}`,
    );
  }
  const matching = events.filter(
    (event) =>
      visible(event) &&
      event.startTs >= filter.startTs &&
      (filter.endTs === undefined || event.startTs <= filter.endTs) &&
      (filter.entityIdUuid === undefined || event.entityId === filter.entityIdUuid) &&
      (filter.entityName === undefined || event.entityName === filter.entityName) &&
      (filter.eventName === undefined || event.eventName === filter.eventName) &&
      (filter.eventType === undefined || event.eventType === filter.eventType) &&
      (filter.ituType === undefined || event.ituType === filter.ituType) &&
      (filter.severity === undefined || event.severity === filter.severity) &&
      (filter.source === undefined || event.source === filter.source) &&
      (filter.state === undefined || event.state === filter.state),
  );
  const direction = filter.sortOrder === 'asc' ? 1 : -1;
  matching.sort((left, right) => {
    const a = valueOf(left);
    const b = valueOf(right);
    if (a !== b) return (a < b ? -1 : 1) * direction;
    return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
  });
  return pageOf(matching, filter.page ?? 0, filter.limit ?? EVENT_PAGE_SIZE_DEFAULT);
}
