/** One labelled value of a structured answer; `children` for a nested object or list of objects. */
export interface LabelledField {
  key: string;
  label: string;
  text: string;
  children?: LabelledField[];
}

/** Abbreviations written in capitals (or their usual form) when a key becomes a label. */
const ABBREVIATIONS: Record<string, string> = {
  apn: 'APN',
  bsp: 'BSP',
  crc: 'CRC',
  dos: 'DoS',
  eui: 'EUI',
  gps: 'GPS',
  iccid: 'ICCID',
  id: 'ID',
  imei: 'IMEI',
  imsi: 'IMSI',
  ip: 'IP',
  lo: 'lo',
  lte: 'LTE',
  mac: 'MAC',
  ms: 'ms',
  pdp: 'PDP',
  rssi: 'RSSI',
  rx: 'RX',
  snr: 'SNR',
  ssh: 'SSH',
  tx: 'TX',
  url: 'URL',
  // Package lists say `ver` and `newVer`: "Version", "New version".
  ver: 'version',
  wan: 'WAN',
};

/** Nesting shown as fields at most; deeper values are shown as compact JSON. */
const MAX_DEPTH = 4;

/**
 * A JSON key as words: `uptimeSeconds` → "Uptime seconds", `bspVersion` → "BSP version", `packets_recv` →
 * "Packets recv". Keys that are names of their own (`eth0`, `wwan0`) stay as they are.
 */
export function labelForKey(key: string): string {
  if (/^[a-z]+\d+$/.test(key)) return key;
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => ABBREVIATIONS[word.toLowerCase()] ?? word.toLowerCase());
  const [first = key, ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

function textOf(key: string, value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return '(none)';
  if (value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // A number named like a time and in the range of epoch milliseconds is a moment: shown in local time.
  if (typeof value === 'number' && /(time|timestamp|ts)$/i.test(key) && value > 1e12 && value < 1e14)
    return new Date(value).toLocaleString();
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'))
    return value.length === 0 ? '(none)' : value.map((item) => textOf('', item)).join(', ');
  return JSON.stringify(value);
}

/**
 * A structured answer (GPS fix, BSP status, gateway info…) as labelled fields, nested objects as nested fields:
 * the technician reads "Latitude 47.37" rather than a line of JSON that runs off the screen.
 */
export function toLabelledFields(value: unknown, depth = 0): LabelledField[] {
  if (value === null || typeof value !== 'object')
    return [{ key: 'value', label: 'Value', text: textOf('', value) }];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index + 1), item])
    : Object.entries(value as Record<string, unknown>);
  return entries.map(([key, item]) => {
    const label = Array.isArray(value) ? `#${key}` : labelForKey(key);
    const isNested =
      item !== null &&
      typeof item === 'object' &&
      depth < MAX_DEPTH &&
      !(Array.isArray(item) && item.every((element) => element === null || typeof element !== 'object'));
    return isNested
      ? { key, label, text: '', children: toLabelledFields(item, depth + 1) }
      : { key, label, text: textOf(key, item) };
  });
}
