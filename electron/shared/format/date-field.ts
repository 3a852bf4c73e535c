/**
 * The text of a date-time field: `2026-11-26 14:05` (ISO 8601's order, a space for its `T`), in the formatter's
 * time zone, to the minute. The app's date fields hold this rather than what `<input type="datetime-local">`
 * shows, which follows the browser's language instead of the app's ("11/26/2026, 02:05 PM" on one machine,
 * "26.11.2026, 14:05" on another). Year first reads the same in every locale; the field echoes the date as the
 * locale writes it beside it.
 */

import type { DateTimeWriter } from './date-time';

/** How the field's text is written, said to the user as a hint. */
export const DATE_TIME_FIELD_PATTERN = 'YYYY-MM-DD HH:MM';

/** `2026-11-26 14:05`, `2026-11-26T14:05`, or a date alone (its midnight); seconds are allowed and dropped. */
const FIELD_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `at` as the field's text in `writer`'s zone ("2026-11-26 14:05"), or '' for a time a `Date` cannot hold. */
export function writeDateTimeField(writer: DateTimeWriter, at: number | null | undefined): string {
  const fields = writer.fieldsOf(at);
  if (!fields || fields.year < 0 || fields.year > 9999) return '';
  return `${pad(fields.year, 4)}-${pad(fields.month)}-${pad(fields.day)} ${pad(fields.hour)}:${pad(fields.minute)}`;
}

/**
 * The moment a field's text names in `writer`'s zone, in milliseconds since the epoch; undefined when the text is
 * not a date in the field's pattern or names a day the calendar lacks (2026-02-30). A local time that summer time
 * skips (02:30 on the night clocks go forward) is read at the offset before the change, as `Date` reads it.
 */
export function readDateTimeField(writer: DateTimeWriter, text: string): number | undefined {
  const match = FIELD_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1, 6).map((part) => Number(part ?? '0')) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The day must exist: Date.UTC rolls 30 February over into March.
  if (new Date(wall).getUTCDate() !== day) return undefined;
  // The zone's offset at a first guess, then at the moment that guess gives (a change of offset lies between).
  const first = wall - offsetAt(writer, wall);
  const second = wall - offsetAt(writer, first);
  return offsetAt(writer, second) === offsetAt(writer, first) ? second : first;
}

/** How far the zone's wall clock is ahead of UTC at `at`, in milliseconds. */
function offsetAt(writer: DateTimeWriter, at: number): number {
  const fields = writer.fieldsOf(at);
  if (!fields) return 0;
  const wall = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  return wall - (at - (((at % 1000) + 1000) % 1000));
}
