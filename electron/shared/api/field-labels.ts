/**
 * Whole field names whose words the splitting rule cannot find (a capital inside an acronym, a word the API
 * abbreviates). Keep it small: any other name is labelled by the rule in {@link labelOfField}.
 */
const FIELD_LABELS: Record<string, string> = {
  doSPrevention: 'DoS prevention',
  perMinLimit: 'Limit per minute',
  pingPerMinLimit: 'Ping limit per minute',
  idx: 'Index',
  idxModem: 'Modem index',
  workingIdx: 'Index in use',
  sshRevPort: 'Reverse SSH port',
  cellid: 'Cell ID',
  ecio: 'Ec/Io',
};

/** Words written as acronyms, units or whole words once split out of a name (looked up in lower case). */
const WORD_LABELS: Record<string, string> = {
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
 * An API field name in words, for a form label or a report row: `pingTarget` → "Ping target", `perMinLimit` →
 * "Per minute limit", `ipAddress` → "IP address", `primaryDNS` → "Primary DNS". The rule: split at each change
 * from lower case to upper case, at underscores and before digits that follow letters; write known acronyms
 * and abbreviations from a small table; lower-case the other words and capitalise the first. A few whole names
 * the rule cannot split are in a table of their own. Never empty: a name with no letters is returned as it is.
 */
export function labelOfField(name: string): string {
  const whole = FIELD_LABELS[name];
  if (whole) return whole;
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
