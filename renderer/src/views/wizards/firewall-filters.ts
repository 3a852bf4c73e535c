import { t } from '../../lib/i18n';

// One reading of the firewall's filter-list JSON for the firewall wizard and the fleet's firewall change, so both
// accept and refuse the same text with the same message.

function readFilterList(text: string): { filters: unknown[] } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: t('wizards:notJson', { reason: (error as Error).message }) };
  }
  return Array.isArray(value) ? { filters: value } : { problem: t('wizards:filtersNotList') };
}

/** The filter list the text holds, or undefined when it is not JSON or not a list. */
export function parseFilterList(text: string): unknown[] | undefined {
  const read = readFilterList(text);
  return 'filters' in read ? read.filters : undefined;
}

/** The filter field's error in words (not JSON, with the parser's reason, or not a list), or null when fine. */
export function checkFilterList(text: string): string | null {
  const read = readFilterList(text);
  return 'problem' in read ? read.problem : null;
}
