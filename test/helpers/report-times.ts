import { expect } from 'vitest';

/** Month abbreviations as the report writes them. */
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';

/**
 * Asserts that every time in a report's text is written one way: "25 Nov 2026 15:48" or, on the visit's day,
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
  expect(visible).not.toMatch(/\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b/);
  expect(visible).not.toMatch(/\d\s?(AM|PM)\b/i);
  expect(visible).not.toMatch(/\d{1,2}:\d{2}:\d{2}/);
  const dates = visible.match(new RegExp(`\\b\\d{1,2} ${MONTH} \\d{4}\\b(?: \\d{2}:\\d{2})?`, 'g')) ?? [];
  for (const date of dates) expect(date).toMatch(new RegExp(`^\\d{1,2} ${MONTH} \\d{4} \\d{2}:\\d{2}$`));
  for (const clock of visible.match(/\b\d{1,2}:\d{2}\b/g) ?? []) expect(clock).toMatch(/^\d{2}:\d{2}$/);
  return dates;
}
