import { expect } from 'vitest';

/** Month abbreviations as an English report writes them (en-GB; ICU versions differ on "Sep" / "Sept"). */
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)';

/**
 * Asserts that every time in an English report's text is written one way: "25 Nov 2026, 15:48" or, on the visit's day,
 * "15:48" — 24-hour, no seconds, no AM/PM, no numeric date ("11/25/2026", "2026-11-25"). Returns the dates seen.
 */
export function expectOneTimeFormat(text: string): string[] {
  // Only what the reader sees: no style sheet, no tags, no file paths or links (log files carry ISO dates).
  const visible = text
    .replace(/<style>[\s\S]*?<\/style>/g, ' ')
    .replace(/<code>[^<]*<\/code>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    // MACs ("64:7F:DA:FF:FE:00:00:0C") are not times.
    .replace(/\b[0-9A-F]{2}(?::[0-9A-F]{2}){5,7}\b/gi, ' ');
  // The text found, rather than the whole report, is what a failure shows.
  // Numeric dates: "11/25/2026", "25/11/26", "25.11.2026", "2026-11-25" (not versions or IP addresses).
  expect(
    visible.match(/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2}\.\d{1,2}\.\d{4}\b|\b\d{4}-\d{2}-\d{2}\b/)?.[0],
  ).toBeUndefined();
  expect(visible.match(/\d\s?(AM|PM)\b/i)?.[0]).toBeUndefined();
  expect(visible.match(/\d{1,2}:\d{2}:\d{2}/)?.[0]).toBeUndefined();
  const dates = visible.match(new RegExp(`\\b\\d{1,2} ${MONTH} \\d{4}\\b(?:, \\d{2}:\\d{2})?`, 'g')) ?? [];
  for (const date of dates) expect(date).toMatch(new RegExp(`^\\d{1,2} ${MONTH} \\d{4}, \\d{2}:\\d{2}$`));
  for (const clock of visible.match(/\b\d{1,2}:\d{2}\b/g) ?? []) expect(clock).toMatch(/^\d{2}:\d{2}$/);
  return dates;
}
