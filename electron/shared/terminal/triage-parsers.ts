import type { TriageInterface, TriageRoute } from './triage-schemas';

/** Most of a command's output a parser reads: a console printing more is read from its last part. */
export const MAX_CONSOLE_TEXT_CHARACTERS = 512 * 1024;
/** Most of one line a parser reads: a longer line is cut (no line of `ip`, `ps`, `mmcli` or a log comes near). */
export const MAX_LINE_CHARACTERS = 1024;

// Escape sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \, never past a line end), and two-byte escapes
// (ESC and one byte). Each alternative starts at an escape byte and its classes do not overlap, so a match fails
// or succeeds in one pass over what follows: linear in the text.
const ANSI_PATTERN =
  // eslint-disable-next-line no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls other than tab and newline, and U+FFFD (what invalid UTF-8 decodes to).
// eslint-disable-next-line no-control-regex
const NOISE_PATTERN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]/g;
const BACKSPACE = '\b';

/** Text without its escape sequences (CSI, OSC, two-byte escapes); every other character kept. */
export function stripEscapeSequences(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

/**
 * Console text as a parser wants it: escape sequences gone, CR-LF and lone CR made LF (a lone CR ends a line on
 * a tty; a run of CRs is one line end), backspace-erased characters removed, other control bytes and invalid
 * UTF-8 (U+FFFD) dropped. Linear in the text's length.
 */
export function cleanConsoleText(text: string): string {
  // `\r+\n?` always matches where it starts, so a run of CRs is read once (`\r+\n` tried the run from each CR).
  return applyBackspaces(stripEscapeSequences(text).replace(/\r+\n?/g, '\n')).replace(NOISE_PATTERN, '');
}

/** "x\b \b" is how a shell erases a character on screen: each backspace takes back the character before it on its line. */
function applyBackspaces(text: string): string {
  if (!text.includes(BACKSPACE)) return text;
  const kept: string[] = [];
  for (const character of text) {
    const previous = kept.at(-1);
    if (character === BACKSPACE && previous !== undefined && previous !== '\n' && previous !== BACKSPACE)
      kept.pop();
    else kept.push(character);
  }
  return kept.join('');
}

/** Share of a text that is not printable (control bytes, U+FFFD): near 1 for a console at the wrong baud rate. */
export function noiseShare(text: string): number {
  if (text.length === 0) return 0;
  const withoutEscapes = stripEscapeSequences(text);
  const noise = withoutEscapes.match(NOISE_PATTERN)?.filter((character) => character !== '\r').length ?? 0;
  return noise / Math.max(1, withoutEscapes.length);
}

/**
 * The lines every parser here reads: the last MAX_CONSOLE_TEXT_CHARACTERS of the text, cleaned, each line cut to
 * MAX_LINE_CHARACTERS. Whatever a console prints, a parser sees at most that much.
 */
export function consoleLines(text: string): string[] {
  const tail = text.length > MAX_CONSOLE_TEXT_CHARACTERS ? text.slice(-MAX_CONSOLE_TEXT_CHARACTERS) : text;
  return cleanConsoleText(tail)
    .split('\n')
    .map((line) => (line.length > MAX_LINE_CHARACTERS ? line.slice(0, MAX_LINE_CHARACTERS) : line));
}

function newInterface(name: string): TriageInterface {
  return { name, isUp: false, hasCarrier: null, ipv4: [], ipv6: [] };
}

/** Prefix length of a dotted IPv4 netmask (255.255.255.0 → 24); undefined for a non-contiguous mask. */
function maskToPrefix(mask: string): number | undefined {
  const octets = mask.split('.').map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet) || octet < 0 || octet > 255))
    return undefined;
  const bits = octets.map((octet) => octet.toString(2).padStart(8, '0')).join('');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : undefined;
}

/**
 * BusyBox (and net-tools) `ifconfig` output: a block per interface starting at column 0
 * (`eth0      Link encap:Ethernet  HWaddr …`), `inet addr:… Mask:…`, `inet6 addr: …/64 Scope:…`, and a flags line
 * (`UP BROADCAST RUNNING …`). Also the newer net-tools layout (`eth0: flags=4163<UP,…>`, `inet 10.0.0.2  netmask …`).
 * UP without RUNNING means no carrier.
 */
export function parseIfconfig(text: string): TriageInterface[] {
  const interfaces: TriageInterface[] = [];
  let current: TriageInterface | undefined;
  for (const line of consoleLines(text)) {
    const header = /^([^\s:]+(?::\d+)?):?\s+(?:Link encap:|flags=\d+<([^>]*)>)/.exec(line);
    if (header) {
      current = newInterface(header[1]!);
      interfaces.push(current);
      const mac = /HWaddr\s+([0-9A-Fa-f:]{17})/.exec(line);
      if (mac) current.macAddress = mac[1]!.toLowerCase();
      if (header[2] !== undefined) applyFlags(current, header[2].split(','));
      continue;
    }
    if (!current || !/^\s/.test(line)) continue;
    const inet = /\binet (?:addr:)?(\d+\.\d+\.\d+\.\d+)(?:.*?(?:Mask:|netmask )(\d+\.\d+\.\d+\.\d+))?/.exec(
      line,
    );
    if (inet) {
      const prefix = inet[2] ? maskToPrefix(inet[2]) : undefined;
      current.ipv4.push(prefix === undefined ? inet[1]! : `${inet[1]}/${prefix}`);
      continue;
    }
    const inet6 = /\binet6 (?:addr:\s*)?([0-9A-Fa-f:]+)(?:\/(\d+)|.*prefixlen (\d+))?/.exec(line);
    if (inet6) {
      const prefix = inet6[2] ?? inet6[3];
      current.ipv6.push(prefix ? `${inet6[1]}/${prefix}` : inet6[1]!);
      continue;
    }
    const ether = /\bether ([0-9a-f:]{17})/.exec(line);
    if (ether) {
      current.macAddress = ether[1];
      continue;
    }
    if (/^\s+(?:\[NO FLAGS\]|(?:[A-Z]+ )+)\s*MTU:/.test(line)) applyFlags(current, line.trim().split(/\s+/));
  }
  return interfaces;
}

function applyFlags(target: TriageInterface, flags: string[]): void {
  target.isUp = flags.includes('UP');
  if (flags.includes('LOOPBACK')) target.hasCarrier = target.isUp;
  else if (flags.includes('NO-CARRIER')) target.hasCarrier = false;
  else if (flags.includes('RUNNING') || flags.includes('LOWER_UP')) target.hasCarrier = true;
  else if (target.isUp) target.hasCarrier = false;
}

/**
 * iproute2 (or BusyBox) `ip addr` output: `2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 … state DOWN`,
 * then `link/ether …`, `inet 192.168.1.20/24 brd … scope global eth0`, `inet6 fe80::…/64 scope link`. The name
 * loses its `@parent` suffix (`wwan0@if3`).
 */
export function parseIpAddr(text: string): TriageInterface[] {
  const interfaces: TriageInterface[] = [];
  let current: TriageInterface | undefined;
  for (const line of consoleLines(text)) {
    const header = /^\d+:\s+([^:@\s]+)(?:@[^:\s]+)?:\s+<([^>]*)>(.*)$/.exec(line);
    if (header) {
      current = newInterface(header[1]!);
      interfaces.push(current);
      applyFlags(current, header[2]!.split(','));
      const state = /\bstate (\S+)/.exec(header[3]!)?.[1];
      if (state === 'DOWN' || state === 'LOWERLAYERDOWN') current.hasCarrier = current.isUp ? false : null;
      continue;
    }
    if (!current) continue;
    const link = /^\s+link\/\S+\s+([0-9a-f:]{17})/.exec(line);
    if (link && !line.includes('link/loopback')) current.macAddress = link[1];
    const inet = /^\s+inet (\d+\.\d+\.\d+\.\d+(?:\/\d+)?)/.exec(line);
    if (inet) current.ipv4.push(inet[1]!);
    const inet6 = /^\s+inet6 ([0-9a-f:]+(?:\/\d+)?)/.exec(line);
    if (inet6) current.ipv6.push(inet6[1]!);
  }
  return interfaces;
}

/** The usable default routes in `ip route` output (`default via 10.0.0.1 dev eth0 proto dhcp metric 100`), lowest metric first. */
export function parseIpRoute(text: string): TriageRoute[] {
  const routes: TriageRoute[] = [];
  for (const line of consoleLines(text)) {
    // A `linkdown` route stays in the table but the kernel sends nothing over it.
    if (!/^default\b/.test(line) || /\blinkdown\b/.test(line)) continue;
    const device = /\bdev (\S+)/.exec(line)?.[1];
    if (!device) continue;
    const via = /\bvia (\S+)/.exec(line)?.[1];
    const metric = /\bmetric (\d+)/.exec(line)?.[1];
    routes.push({ device, ...(via ? { via } : {}), ...(metric ? { metric: Number(metric) } : {}) });
  }
  return sortRoutes(routes);
}

/**
 * The default routes in BusyBox/net-tools `route -n` output (`0.0.0.0  192.168.1.1  0.0.0.0  UG  0 0 0 eth0`;
 * without -n the destination reads `default`). Routes whose flags lack U (up) are left out.
 */
export function parseRouteTable(text: string): TriageRoute[] {
  const routes: TriageRoute[] = [];
  for (const line of consoleLines(text)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8 || !/^(0\.0\.0\.0|default)$/.test(fields[0]!) || fields[2] !== '0.0.0.0') continue;
    const [, gateway, , flags, metric] = fields;
    if (!flags!.includes('U')) continue;
    const device = fields.at(-1)!;
    const via = gateway === '0.0.0.0' || gateway === '*' ? undefined : gateway;
    routes.push({ device, ...(via ? { via } : {}), metric: Number.parseInt(metric!, 10) || 0 });
  }
  return sortRoutes(routes);
}

/** Lowest metric first: the route the kernel uses. */
function sortRoutes(routes: TriageRoute[]): TriageRoute[] {
  return routes.sort((left, right) => (left.metric ?? 0) - (right.metric ?? 0));
}

/** The `nameserver` lines of resolv.conf, in order. */
export function parseResolvConf(text: string): string[] {
  return consoleLines(text)
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1])
    .filter((server): server is string => server !== undefined);
}

/** What a ping run printed: packets sent and received, or the error it gave instead. */
export interface PingSummary {
  transmitted: number;
  received: number;
  /** ping's own error (`ping: sendto: Network unreachable`), when it printed one. */
  error?: string;
}

/**
 * BusyBox (`3 packets transmitted, 0 packets received, 100% packet loss`) and iputils
 * (`3 packets transmitted, 3 received, 0% packet loss, time 2003ms`) ping summaries; undefined when neither a
 * summary nor an error was printed.
 */
export function parsePing(text: string): PingSummary | undefined {
  const all = consoleLines(text);
  const error = all.find((line) => /^ping: /.test(line))?.trim();
  for (const line of all) {
    const match = /\b(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(line);
    if (match) {
      return {
        transmitted: Number(match[1]),
        received: Number(match[2]),
        ...(error ? { error } : {}),
      };
    }
  }
  return error ? { transmitted: 0, received: 0, error } : undefined;
}

/** The part of `uptime` after "up" and before the load: `3 days,  4:12` or `17 min`. */
export function parseUptime(text: string): string | undefined {
  const line = consoleLines(text).find((candidate) => /\bup\b/.test(candidate));
  // The first "up" only, then one search for the load: `\bup\s+(.*?),…load average` scanned the rest of the line
  // from every "up" in it.
  const up = line === undefined ? null : /\bup\s+/.exec(line);
  if (!line || !up) return undefined;
  const rest = line.slice(up.index + up[0].length);
  const load = /,\s+(?:\d+ users?,\s+)?load average/.exec(rest);
  return load ? rest.slice(0, load.index).replace(/\s+/g, ' ').replace(/,$/, '').trim() : undefined;
}

/**
 * `system_version` (Tektelic) lines of the form `Name: value` or indented `package  version`; returns the BSP,
 * kernel and package versions in the order printed.
 */
export function parseSystemVersion(text: string): Array<{ name: string; version: string }> {
  const versions: Array<{ name: string; version: string }> = [];
  for (const line of consoleLines(text)) {
    const labelled = /^\s*([A-Za-z][\w .-]*?):\s*(\S.*)$/.exec(line);
    if (labelled && /version|kernel|firmware/i.test(labelled[1]!)) {
      versions.push({ name: labelled[1]!.trim(), version: labelled[2]!.trim() });
      continue;
    }
    const packaged = /^\s+([a-z0-9][\w.+-]*)\s{2,}(\d[\w.+~-]*)\s*$/i.exec(line);
    if (packaged) versions.push({ name: packaged[1]!, version: packaged[2]! });
  }
  return versions;
}

const LOG_ERROR_PATTERN =
  /\.(?:err|crit|alert|emerg|warn)\b|\b(?:error|failed|failure|fatal|timeout|timed out)\b/i;

/** The last `limit` error or warning lines of a syslog (BusyBox `logread`: `… daemon.err pkt_fwd[812]: …`). */
export function findLogErrors(text: string, limit = 10): string[] {
  return consoleLines(text)
    .map((line) => line.trim())
    .filter((line) => line !== '' && LOG_ERROR_PATTERN.test(line))
    .slice(-limit);
}

/** What ModemManager's `mmcli -m 0` says of the modem. */
export interface ModemSummary {
  /** ModemManager's state: `connected`, `registered`, `searching`, `disabled`, `failed`… */
  state?: string;
  failedReason?: string;
  operator?: string;
  registration?: string;
  accessTechnology?: string;
  signalQuality?: string;
}

/** Parses `mmcli -m 0` (`  Status   |  state: registered`); undefined when it printed no modem. */
export function parseModemStatus(text: string): ModemSummary | undefined {
  const summary: ModemSummary = {};
  const fields: Record<string, keyof ModemSummary> = {
    state: 'state',
    'failed reason': 'failedReason',
    'operator name': 'operator',
    registration: 'registration',
    'access tech': 'accessTechnology',
    'signal quality': 'signalQuality',
  };
  for (const line of consoleLines(text)) {
    // `(\S.*)` then trimEnd: `(.+?)\s*$` tried the trailing spaces from every character of the value.
    const match = /\|\s*([a-z][a-z ]*?):\s*(\S.*)$/.exec(line);
    if (!match) continue;
    const key = fields[match[1]!];
    if (key && summary[key] === undefined) summary[key] = match[2]!.trimEnd().replace(/^'|'$/g, '');
  }
  return summary.state === undefined ? undefined : summary;
}

/** Packet forwarders a LoRaWAN gateway may run, by process name. */
const FORWARDER_NAMES =
  /\b(?:lora_pkt_fwd|pkt_fwd|pkt-fwd|station|basicstation|mp_pkt_fwd|chirpstack-(?:concentratord|gateway-bridge))\b/;

/** The packet-forwarder processes in BusyBox `ps` output (`  812 root  5400 S  /usr/bin/pkt_fwd -c …`). */
export function findPacketForwarders(text: string): string[] {
  const found: string[] = [];
  for (const line of consoleLines(text)) {
    if (!/^\s*\d+\s/.test(line)) continue;
    const command = line.trim().split(/\s+/).slice(4).join(' ');
    const name = FORWARDER_NAMES.exec(command)?.[0];
    if (name && !/\bgrep\b/.test(command)) found.push(name);
  }
  return [...new Set(found)];
}

/** The latest time `date +%s` may print and be believed: 9999-12-31T23:59:59Z. A larger number is not a clock. */
const LATEST_EPOCH_SECONDS = 253_402_300_799;

/**
 * The gateway's clock as `date +%s` printed it (BusyBox and coreutils: whole seconds since 1970 on a line of their
 * own), in epoch milliseconds. The last non-empty line must be only digits; anything else (words, a sign, a
 * fraction, nothing, more than 12 digits or a time after year 9999) is undefined: the clock is unknown. A clock
 * at 1970 (a gateway that never set its time) is a reading, not an error.
 */
export function parseEpochSeconds(text: string): number | undefined {
  const line = consoleLines(text)
    .map((candidate) => candidate.trim())
    .findLast((candidate) => candidate !== '');
  if (line === undefined || !/^\d{1,12}$/.test(line)) return undefined;
  const seconds = Number(line);
  return seconds <= LATEST_EPOCH_SECONDS ? seconds * 1000 : undefined;
}
