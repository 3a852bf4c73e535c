import {
  consoleLines,
  findLogErrors,
  findPacketForwarders,
  parseIfconfig,
  parseIpAddr,
  parseIpRoute,
  parseModemStatus,
  parsePing,
  parseResolvConf,
  parseRouteTable,
  parseSystemVersion,
  parseUptime,
} from './triage-parsers';
import type {
  TriageCheck,
  TriageHealth,
  TriageInterface,
  TriageResult,
  TriageStatus,
} from './triage-schemas';

/** What one diagnostic command printed (cleaned of its echo and marker) and its exit status. */
export interface TriageReading {
  command: string;
  output: string;
  /** null when the command timed out or its status was not read. */
  exitCode: number | null;
}

/** The readings a triage collects, by what they are about; a missing key was not run (or not answered). */
export interface TriageReadings {
  version?: TriageReading;
  uptime?: TriageReading;
  addresses?: TriageReading;
  routes?: TriageReading;
  dns?: TriageReading;
  log?: TriageReading;
  modem?: TriageReading;
  processes?: TriageReading;
  ping?: TriageReading;
}

/** Exit status a shell gives for a command it cannot find. */
const NOT_FOUND = 127;
const ETHERNET_NAME = /^(?:eth|en)/;
const CELLULAR_NAME = /^(?:wwan|ppp|rmnet|wwp|usb|cdc-wdm)/;

function succeeded(reading: TriageReading | undefined): reading is TriageReading {
  return reading !== undefined && reading.exitCode === 0;
}

function isNotFound(reading: TriageReading | undefined): boolean {
  return (
    reading !== undefined &&
    (reading.exitCode === NOT_FOUND || /: not found|No such file or directory/.test(reading.output))
  );
}

/** Parses the interfaces from whichever of `ip addr` / `ifconfig` answered. */
function readInterfaces(reading: TriageReading | undefined): TriageInterface[] | undefined {
  if (!succeeded(reading)) return undefined;
  return reading.command.startsWith('ip ') ? parseIpAddr(reading.output) : parseIfconfig(reading.output);
}

function worst(statuses: TriageStatus[]): TriageStatus {
  if (statuses.includes('fault')) return 'fault';
  if (statuses.includes('unknown') || statuses.length === 0) return 'unknown';
  return 'ok';
}

/**
 * Turns the readings into the health panel. Every statement is what a reading showed; a part whose command did
 * not answer (or is not on this gateway) is `unknown`, never `ok`. Faults are named in words a technician acts on
 * ("Ethernet eth0 has no link", "modem registered … but has no data connection: check the APN").
 */
export function assessHealth(readings: TriageReadings): TriageHealth {
  const findings: Array<{ status: TriageStatus; text: string }> = [];
  const add = (status: TriageStatus, text: string) => findings.push({ status, text });

  const interfaces = readInterfaces(readings.addresses) ?? [];
  const networkStatuses: TriageStatus[] = [];
  if (!succeeded(readings.addresses)) {
    add('unknown', 'The network interfaces could not be read.');
    networkStatuses.push('unknown');
  }
  for (const item of interfaces) {
    if (item.name === 'lo') continue;
    const isEthernet = ETHERNET_NAME.test(item.name);
    const kind = isEthernet ? 'Ethernet ' : CELLULAR_NAME.test(item.name) ? 'Cellular ' : '';
    if (!item.isUp) {
      add(isEthernet ? 'fault' : 'unknown', `${kind}${item.name} is down (not enabled).`);
      networkStatuses.push(isEthernet ? 'fault' : 'unknown');
    } else if (item.hasCarrier === false) {
      add(
        'fault',
        `${kind}${item.name} has no link (no carrier${isEthernet ? ': check the cable and the switch port' : ''}).`,
      );
      networkStatuses.push('fault');
    } else if (item.ipv4.length === 0) {
      const ipv6 = item.ipv6.filter((address) => !address.startsWith('fe80'));
      const status: TriageStatus = ipv6.length > 0 ? 'ok' : 'fault';
      add(
        status,
        ipv6.length > 0
          ? `${kind}${item.name} has only IPv6 (${ipv6.join(', ')}), no IPv4 address.`
          : `${kind}${item.name} is up but has no IPv4 address.`,
      );
      networkStatuses.push(status);
    } else {
      add('ok', `${kind}${item.name} is up with ${item.ipv4.join(', ')}.`);
    }
  }

  const routesRead = succeeded(readings.routes);
  const defaultRoutes = !routesRead
    ? []
    : readings.routes!.command.startsWith('ip ')
      ? parseIpRoute(readings.routes!.output)
      : parseRouteTable(readings.routes!.output);
  if (!routesRead) {
    add('unknown', 'The routing table could not be read.');
    networkStatuses.push('unknown');
  } else if (defaultRoutes.length === 0) {
    add('fault', 'No default route: the gateway has no way to the internet.');
    networkStatuses.push('fault');
  } else {
    const [first, ...others] = defaultRoutes;
    const describeRoute = (route: (typeof defaultRoutes)[number]) =>
      `${route.device}${route.via ? ` via ${route.via}` : ''}${route.metric !== undefined ? ` (metric ${route.metric})` : ''}`;
    const overCellular = CELLULAR_NAME.test(first!.device) ? ', the cellular link' : '';
    add(
      'ok',
      `Default route: ${describeRoute(first!)}${overCellular}${others.length > 0 ? `; also ${others.map(describeRoute).join(', ')}` : ''}.`,
    );
  }

  const dns = succeeded(readings.dns) ? parseResolvConf(readings.dns.output) : [];
  if (!succeeded(readings.dns)) {
    add('unknown', 'The DNS servers could not be read (/etc/resolv.conf).');
    networkStatuses.push('unknown');
  } else if (dns.length === 0) {
    add('fault', 'No DNS server in /etc/resolv.conf.');
    networkStatuses.push('fault');
  }

  const wan = assessWan(readings.ping);
  const modem = assessModem(readings.modem);
  const packetForwarder = assessPacketForwarder(readings.processes);
  for (const check of [wan, modem, packetForwarder]) add(check.status, check.detail);

  const network: TriageCheck = {
    status: worst(networkStatuses.length > 0 ? networkStatuses : ['ok']),
    detail:
      interfaces.length === 0
        ? 'No interface was read.'
        : `${interfaces.filter((item) => item.name !== 'lo').length} interface(s); default route ${defaultRoutes[0]?.device ?? 'none'}; DNS ${dns.join(', ') || 'none'}`,
  };
  const order: Record<TriageStatus, number> = { fault: 0, unknown: 1, ok: 2 };
  findings.sort((left, right) => order[left.status] - order[right.status]);
  return {
    interfaces,
    defaultRoutes,
    dns,
    findings,
    network,
    wan,
    modem,
    packetForwarder,
    versions: succeeded(readings.version) ? parseSystemVersion(readings.version.output) : [],
    ...(succeeded(readings.uptime) && parseUptime(readings.uptime.output)
      ? { uptime: parseUptime(readings.uptime.output)! }
      : {}),
    logErrors: succeeded(readings.log) ? findLogErrors(readings.log.output) : [],
  };
}

function assessWan(reading: TriageReading | undefined): TriageCheck {
  const target = reading?.command.split(/\s+/).at(-1) ?? 'the internet';
  if (!reading || reading.exitCode === null)
    return { status: 'unknown', detail: `WAN unknown: the ping to ${target} did not finish.` };
  if (isNotFound(reading)) return { status: 'unknown', detail: 'WAN unknown: this gateway has no ping.' };
  const summary = parsePing(reading.output);
  if (!summary)
    return { status: 'unknown', detail: `WAN unknown: the ping to ${target} printed no summary.` };
  if (summary.received > 0)
    return {
      status: 'ok',
      detail: `WAN works: ${summary.received} of ${summary.transmitted} pings to ${target} answered.`,
    };
  return {
    status: 'fault',
    detail: `WAN does not work: ${summary.error ? summary.error.replace(/^ping: /, '') : `none of ${summary.transmitted} pings to ${target} answered`}.`,
  };
}

function assessModem(reading: TriageReading | undefined): TriageCheck {
  if (!reading || reading.exitCode === null)
    return { status: 'unknown', detail: 'Modem unknown: its status was not read.' };
  if (isNotFound(reading))
    return { status: 'unknown', detail: 'Modem unknown: this gateway has no modem tool (mmcli).' };
  const summary = parseModemStatus(reading.output);
  if (!summary) {
    const said = consoleLines(reading.output)
      .map((line) => line.trim())
      .find((line) => line !== '');
    return {
      status: /couldn't find|no modems/i.test(reading.output) ? 'fault' : 'unknown',
      detail: `Modem: ${said || 'no status printed'}.`,
    };
  }
  const where = summary.operator
    ? ` on ${summary.operator}${summary.registration ? ` (${summary.registration})` : ''}`
    : '';
  const technology = summary.accessTechnology ? `, ${summary.accessTechnology}` : '';
  const signal = summary.signalQuality ? `, signal ${summary.signalQuality}` : '';
  switch (summary.state) {
    case 'connected':
      return { status: 'ok', detail: `Modem connected${where}${technology}${signal}.` };
    case 'registered':
    case 'enabled':
    case 'connecting':
    case 'disconnecting':
      return {
        status: 'fault',
        detail: `Modem registered${where} but has no data connection (state ${summary.state}): check the APN.`,
      };
    case 'searching':
      return { status: 'fault', detail: `Modem is searching for a network${signal}: no registration.` };
    case 'failed':
      return {
        status: 'fault',
        detail: `Modem failed${summary.failedReason ? `: ${summary.failedReason}` : ''}.`,
      };
    default:
      return { status: 'fault', detail: `Modem is ${summary.state}${where}: no data connection.` };
  }
}

function assessPacketForwarder(reading: TriageReading | undefined): TriageCheck {
  if (!succeeded(reading))
    return { status: 'unknown', detail: 'Packet forwarder unknown: the process list was not read.' };
  const forwarders = findPacketForwarders(reading.output);
  return forwarders.length > 0
    ? { status: 'ok', detail: `Packet forwarder running (${forwarders.join(', ')}).` }
    : { status: 'fault', detail: 'No packet forwarder is running.' };
}

/** Said of a part whose command never answered. */
const NOT_READ = 'unknown (not read)';

/**
 * The default routes and the DNS servers in words: what was read, "none" only when the command ran and listed
 * nothing, and "unknown (not read)" when it never answered (a run stopped early must not read as a fault).
 */
export function describeRoutesAndDns(result: Pick<TriageResult, 'commands' | 'health'>): {
  routes: string;
  dns: string;
} {
  const ran = (pattern: RegExp) =>
    result.commands.some((command) => command.outcome === 'ok' && pattern.test(command.command));
  const routes = result.health.defaultRoutes
    .map((route) => `${route.device}${route.via ? ` via ${route.via}` : ''}`)
    .join(', ');
  const dns = result.health.dns.join(', ');
  return {
    routes: routes || (ran(/^(ip route|route\b)/) ? 'none' : NOT_READ),
    dns: dns || (ran(/resolv\.conf/) ? 'none' : NOT_READ),
  };
}
