import { labelOfField } from '../../../../electron/shared/api/field-labels';
import { describeScalar } from '../../../../electron/shared/report/readable-value';
import { format } from '../../../../electron/shared/format';
import { t } from '../i18n';

/** One labelled value of a structured answer; `children` for a nested object or list of objects. */
export interface LabelledField {
  key: string;
  label: string;
  text: string;
  children?: LabelledField[];
}

/** Keys whose children are names of their own (network interfaces: `lo`, `eth0`), shown as they are. */
const NAMED_CHILDREN_KEY = /interfaces$/i;
/** A number of seconds by its key (`uptimeSeconds`, `uptime_seconds`): shown as a duration. */
const SECONDS_KEY = /^(.+?)(?:[_-]seconds|Seconds|[_-]secs|Secs)$/;

/**
 * A duration in seconds as a technician reads it, to the two largest units (format.duration): 54056 → "15 hr",
 * 95 → "1 min 35 sec", 200000 → "2 days 7 hr" in en-US. A value that is not a non-negative number of seconds is
 * left as it is.
 */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return String(seconds);
  return format.duration(Math.floor(seconds) * 1000);
}

/** Nesting shown as fields at most; deeper values are shown as compact JSON. */
const MAX_DEPTH = 4;

/**
 * A JSON key as words (labelOfField: `uptimeSeconds` → "Uptime seconds", `bspVersion` → "BSP version"). Keys that
 * are names of their own (`eth0`, `wwan0`) stay as they are.
 */
export function labelForKey(key: string): string {
  return /^[a-z]+\d+$/.test(key) ? key : labelOfField(key);
}

function textOf(key: string, value: unknown): string {
  // A number named like a time and in the range of epoch milliseconds is a moment: shown in local time.
  if (typeof value === 'number' && /(time|timestamp|ts)$/i.test(key) && value > 1e12 && value < 1e14)
    return format.dateTime(value);
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'))
    return value.length === 0 ? t('components:none') : value.map((item) => textOf('', item)).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return describeScalar(value);
}

/**
 * A structured answer (GPS fix, BSP status, gateway info…) as labelled fields, nested objects as nested fields:
 * the technician reads "Latitude 47.37" rather than a line of JSON that runs off the screen.
 */
export function toLabelledFields(value: unknown, depth = 0, parentKey = ''): LabelledField[] {
  if (value === null || typeof value !== 'object')
    return [{ key: 'value', label: t('components:value'), text: textOf('', value) }];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index + 1), item])
    : Object.entries(value as Record<string, unknown>);
  return entries.map(([key, item]) => {
    const label = Array.isArray(value)
      ? `#${key}`
      : NAMED_CHILDREN_KEY.test(parentKey)
        ? key
        : labelForKey(key);
    const seconds = SECONDS_KEY.exec(key);
    if (seconds?.[1] && typeof item === 'number' && !Array.isArray(value))
      return { key, label: labelForKey(seconds[1]), text: formatSeconds(item) };
    const isNested =
      item !== null &&
      typeof item === 'object' &&
      depth < MAX_DEPTH &&
      !(Array.isArray(item) && item.every((element) => element === null || typeof element !== 'object'));
    return isNested
      ? { key, label, text: '', children: toLabelledFields(item, depth + 1, key) }
      : { key, label, text: textOf(key, item) };
  });
}
