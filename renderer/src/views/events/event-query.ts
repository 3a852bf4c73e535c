import type { z } from 'zod';
// The shared schemas are the only statement of the spec's filter rules (views-common: never re-declare a rule).
import {
  EnhancedEventQuerySchema,
  EntityEventParamsSchema,
  EntityEventQuerySchema,
  RaisedEventQuerySchema,
} from '../../../../electron/shared/api/events';
import { describeIssues } from '../../../../electron/shared/api/validation';
import { format } from '../../../../electron/shared/format';
import type { ApiCallParts } from '../devices/api-call';
import { t } from '../../lib/i18n';

/** Which events endpoint the view lists: all events, only raised ones, or one entity's by category. */
export type EventMode = 'all' | 'raised' | 'entity';

/** The event modes in the order the view offers them. */
export const EVENT_MODES: readonly EventMode[] = ['all', 'raised', 'entity'];

/** Every filter of the events view as the user typed it (text, as the inputs hold it). */
export interface EventForm {
  /** Date-time in the app's zone (`YYYY-MM-DD HH:mm`, the T form too), as DateTimeField holds it. */
  start: string;
  end: string;
  entityIdUuid: string;
  entityName: string;
  eventName: string;
  eventType: string;
  ituType: string;
  severity: string;
  source: string;
  state: string;
  sortField: string;
  sortOrder: string;
  limit: string;
  /** Per-entity mode: the path's entity type, entity id and event category. */
  entityType: string;
  entityId: string;
  entityEventType: string;
}

/** The form fields, for iteration (URL state, tests). */
export const EVENT_FORM_FIELDS = [
  'start',
  'end',
  'entityIdUuid',
  'entityName',
  'eventName',
  'eventType',
  'ituType',
  'severity',
  'source',
  'state',
  'sortField',
  'sortOrder',
  'limit',
  'entityType',
  'entityId',
  'entityEventType',
] as const satisfies ReadonlyArray<keyof EventForm>;

/** Page size the view starts with. */
export const DEFAULT_EVENT_PAGE_SIZE = 20;

/** A time as a date field holds it (`2026-11-26 14:05`), in the app's zone, to the minute. */
export function toLocalInput(timeMs: number): string {
  return format.dateTimeField(timeMs);
}

/** The filters a new events view starts with: the last 24 hours, newest first, 20 a page. */
export function buildDefaultEventForm(nowMs: number): EventForm {
  return {
    start: toLocalInput(nowMs - 86_400_000),
    end: '',
    entityIdUuid: '',
    entityName: '',
    eventName: '',
    eventType: '',
    ituType: '',
    severity: '',
    source: '',
    state: '',
    sortField: 'start_ts',
    sortOrder: 'desc',
    limit: String(DEFAULT_EVENT_PAGE_SIZE),
    entityType: 'GATEWAY',
    entityId: '',
    entityEventType: 'Alarms',
  };
}

/** Where the events view is: mode, filters and page (kept in the URL path so a reload keeps them). */
export interface EventRoute {
  mode: EventMode;
  form: EventForm;
  page: number;
}

/** The view's path for a route: `[mode, '<filters as a query string>']`. Empty filters are left out. */
export function formatEventRoute(route: EventRoute): string[] {
  const search = new URLSearchParams();
  for (const field of EVENT_FORM_FIELDS) if (route.form[field] !== '') search.set(field, route.form[field]);
  if (route.page > 0) search.set('page', String(route.page));
  return [route.mode, search.toString()];
}

/** Reads a route from the view's path; missing parts take the defaults (`nowMs` sets the default window). */
export function parseEventRoute(path: readonly string[], nowMs: number): EventRoute {
  const mode = (EVENT_MODES as readonly string[]).includes(path[0] ?? '') ? (path[0] as EventMode) : 'all';
  const defaults = buildDefaultEventForm(nowMs);
  if (path[1] === undefined) return { mode, form: defaults, page: 0 };
  const search = new URLSearchParams(path[1]);
  const form = { ...defaults };
  // A saved route holds every non-empty field, so a field it lacks was cleared on purpose.
  for (const field of EVENT_FORM_FIELDS) form[field] = search.get(field) ?? '';
  const page = Number(search.get('page') ?? '0');
  return { mode, form, page: Number.isSafeInteger(page) && page >= 0 ? page : 0 };
}

/** A typed number as the schemas should see it: blank is absent; anything else a number (NaN says "not one"). */
function readNumber(text: string): number | undefined {
  const trimmed = String(text).trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/**
 * A date field's text as milliseconds since the epoch (API assumption: event timestamps are milliseconds); NaN
 * for text that names no date, which checkTimes reports before the schemas see it.
 */
function readTime(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  return format.parseDateTimeField(text) ?? Number.NaN;
}

/** What is wrong with the typed times, by field: text that names no date, said with the pattern to use. */
function checkTimes(form: EventForm): Partial<Record<keyof EventForm, string>> {
  const errors: Partial<Record<keyof EventForm, string>> = {};
  for (const field of ['start', 'end'] as const) {
    if (Number.isNaN(readTime(form[field]))) errors[field] = t('events:notADateTime');
  }
  return errors;
}

function readText(text: string): string | undefined {
  return text.trim() === '' ? undefined : text.trim();
}

/** Schema paths mapped back to the form's field names, so a message lands next to its input. */
const FIELD_OF_PATH: Record<string, keyof EventForm> = {
  startTs: 'start',
  endTs: 'end',
  entityType: 'entityType',
  entityId: 'entityId',
  eventType: 'eventType',
};

/** The outcome of checking the filters: the call to send, or a message per field. */
export type EventRequest =
  | { ok: true; call: ApiCallParts<EventListEndpoint> }
  | { ok: false; errors: Partial<Record<keyof EventForm, string>> };

/** The endpoints that list enhanced events: all of them, the raised ones, or one entity's. */
export type EventListEndpoint =
  'listEnhancedEvents' | 'listRaisedEnhancedEvents' | 'listEntityEnhancedEvents';

function collect(
  error: z.ZodError,
  pathMap: Record<string, keyof EventForm> = FIELD_OF_PATH,
): Partial<Record<keyof EventForm, string>> {
  const errors: Partial<Record<keyof EventForm, string>> = {};
  for (const issue of describeIssues(error)) {
    const field = pathMap[issue.path] ?? (issue.path as keyof EventForm);
    errors[field] ??= issue.message;
  }
  return errors;
}

function dropUndefined(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}

/**
 * Checks the filters with the spec's schemas and builds the `api:call` for a mode and page. Nothing is sent
 * for filters that break a rule: the answer names each field and what is wrong.
 */
export function buildEventRequest(mode: EventMode, form: EventForm, page: number): EventRequest {
  const timeErrors = checkTimes(form);
  if (Object.keys(timeErrors).length > 0) return { ok: false, errors: timeErrors };
  const window = { startTs: readTime(form.start), endTs: readTime(form.end) };
  const limit = readNumber(form.limit);
  if (mode === 'entity') {
    const params = {
      entityType: form.entityType,
      entityId: form.entityId.trim(),
      eventType: form.entityEventType,
    };
    const query = dropUndefined({ ...window, limit, page });
    const paramsCheck = EntityEventParamsSchema.safeParse(params);
    const queryCheck = EntityEventQuerySchema.safeParse(query);
    if (!paramsCheck.success || !queryCheck.success) {
      return {
        ok: false,
        errors: {
          ...(queryCheck.success ? {} : collect(queryCheck.error)),
          ...(paramsCheck.success
            ? {}
            : collect(paramsCheck.error, { ...FIELD_OF_PATH, eventType: 'entityEventType' })),
        },
      };
    }
    return {
      ok: true,
      call: { endpoint: 'listEntityEnhancedEvents', params: paramsCheck.data, query: queryCheck.data },
    };
  }
  const query = dropUndefined({
    ...window,
    entityIdUuid: readText(form.entityIdUuid),
    entityName: readText(form.entityName),
    eventName: readText(form.eventName),
    eventType: readText(form.eventType),
    ituType: readText(form.ituType),
    severity: readText(form.severity),
    source: readText(form.source),
    sortField: readText(form.sortField),
    sortOrder: readText(form.sortOrder),
    limit,
    page,
    ...(mode === 'all' ? { state: readText(form.state) } : {}),
  });
  const schema = mode === 'all' ? EnhancedEventQuerySchema : RaisedEventQuerySchema;
  const check = schema.safeParse(query);
  if (!check.success) return { ok: false, errors: collect(check.error) };
  return {
    ok: true,
    call: {
      endpoint: mode === 'all' ? 'listEnhancedEvents' : 'listRaisedEnhancedEvents',
      query: check.data as Record<string, unknown>,
    },
  };
}

/** The Badge tone of a severity: colour always paired with the severity's name in the badge's text. */
export function severityTone(severity: string): 'danger' | 'warn' | 'neutral' {
  if (severity === 'Critical') return 'danger';
  if (severity === 'Major') return 'warn';
  return 'neutral';
}
