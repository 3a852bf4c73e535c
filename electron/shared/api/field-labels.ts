import { isMessageKey, t, type Translator } from '../i18n';

/** Words written as acronyms, units or whole words once split out of a name (looked up in lower case). */
const WORD_LABELS: Record<string, string> = {
  adr: 'ADR',
  apn: 'APN',
  apns: 'APNs',
  bsp: 'BSP',
  crc: 'CRC',
  dns: 'DNS',
  dos: 'DoS',
  eui: 'EUI',
  gps: 'GPS',
  iccid: 'ICCID',
  id: 'ID',
  imei: 'IMEI',
  imsi: 'IMSI',
  ip: 'IP',
  ipv4: 'IPv4',
  ipv6: 'IPv6',
  lte: 'LTE',
  mac: 'MAC',
  mcc: 'MCC',
  mnc: 'MNC',
  mqtts: 'MQTTS',
  pdp: 'PDP',
  rf: 'RF',
  rssi: 'RSSI',
  rsrp: 'RSRP',
  rsrq: 'RSRQ',
  rx: 'RX',
  sim: 'SIM',
  sinr: 'SINR',
  snr: 'SNR',
  ssh: 'SSH',
  tx: 'TX',
  udp: 'UDP',
  url: 'URL',
  wan: 'WAN',
  addr: 'address',
  cust: 'customer',
  idx: 'index',
  max: 'maximum',
  min: 'minimum',
  num: 'number of',
  // Package lists say `ver` and `newVer`: "Version", "New version".
  ver: 'version',
  ms: '(ms)',
};

/**
 * The catalogue's words for an API field name it knows (`commands:fieldPerMinLimit` for `perMinLimit`), or
 * undefined. Keys drop underscores and start upper case: `packets_recv` → `fieldPacketsRecv`.
 */
function catalogueLabel(name: string, translate: Translator): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) return undefined;
  const joined = name
    .replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase())
    .replace(/_/g, '');
  const key = `commands:field${joined.charAt(0).toUpperCase()}${joined.slice(1)}`;
  return isMessageKey(key) ? translate(key) : undefined;
}

/**
 * An API field name in words, for a form label or a report row, in the language of `translate` (the screen's by
 * default): the fields of the command catalogue have words in the message catalogue (`perMinLimit` → "Limit per
 * minute", „Limit pro Minute“ in German). Any other name (a field the server adds) is labelled by an English rule,
 * the fallback: `pingTarget` → "Ping target", `ipAddress` → "IP address", `primaryDNS` → "Primary DNS". The rule:
 * split at each change from lower case to upper case, at underscores and before digits that follow letters;
 * write known acronyms and abbreviations from a small table; lower-case the other words and capitalise the first.
 * Never empty: a name with no letters is returned as it is.
 */
export function labelOfField(name: string, translate: Translator = t): string {
  const known = catalogueLabel(name, translate);
  if (known !== undefined) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((word) => word !== '');
  if (words.length === 0) return name;
  const label = words
    // A word in capitals (DNS, MCC) is an acronym the table does not know: kept as written.
    .map(
      (word) =>
        WORD_LABELS[word.toLowerCase()] ?? (/^[A-Z][A-Z0-9]+$/.test(word) ? word : word.toLowerCase()),
    )
    .join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}
