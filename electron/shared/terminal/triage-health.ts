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
import { t, type MessageKey, type Translator } from '../i18n';
import { assessClock, TRIAGE_CLOCK_SKEW_SECONDS } from './triage-clock';
import { storedMessage as say } from '../visit/stored-message';
import type {
  TriageCheck,
  TriageHealth,
  TriageInterface,
  TriageResult,
  TriageSentence,
  TriageStatus,
} from './triage-schemas';

/** What one diagnostic command printed (cleaned of its echo and marker) and its exit status. */
export interface TriageReading {
  command: string;
  output: string;
  /** null when the command timed out or its status was not read. */
  exitCode: number | null;
  /** The laptop's time (epoch ms) when the answer came: what the gateway's clock is compared with. */
  answeredAt?: number;
}

/** The readings a triage collects, by what they are about; a missing key was not run (or not answered). */
export interface TriageReadings {
  version?: TriageReading;
  uptime?: TriageReading;
  /** `date +%s`: the gateway's clock. */
  clock?: TriageReading;
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

/** The sentences about one interface, by what kind of interface it is (its name says). */
const INTERFACE_WORDS: Record<
  'ethernet' | 'cellular' | 'other',
  Record<'down' | 'noLink' | 'onlyIpv6' | 'noIpv4' | 'up', MessageKey>
> = {
  ethernet: {
    down: 'triage:ethernetDown',
    noLink: 'triage:ethernetNoLink',
    onlyIpv6: 'triage:ethernetOnlyIpv6',
    noIpv4: 'triage:ethernetNoIpv4',
    up: 'triage:ethernetUp',
  },
  cellular: {
    down: 'triage:cellularDown',
    noLink: 'triage:cellularNoLink',
    onlyIpv6: 'triage:cellularOnlyIpv6',
    noIpv4: 'triage:cellularNoIpv4',
    up: 'triage:cellularUp',
  },
  other: {
    down: 'triage:interfaceDown',
    noLink: 'triage:interfaceNoLink',
    onlyIpv6: 'triage:interfaceOnlyIpv6',
    noIpv4: 'triage:interfaceNoIpv4',
    up: 'triage:interfaceUp',
  },
};

function worst(statuses: TriageStatus[]): TriageStatus {
  if (statuses.includes('fault')) return 'fault';
  if (statuses.includes('unknown') || statuses.length === 0) return 'unknown';
  return 'ok';
}

/**
 * Turns the readings into the health panel. Every statement is what a reading showed; a part whose command did
 * not answer (or is not on this gateway) is `unknown`, never `ok`. Faults are named in words a technician acts on
 * ("Ethernet eth0 has no link", "modem registered … but has no data connection: check the APN", "the gateway's
 * clock is 7 min 12 s behind this laptop's" beyond `clockSkewLimitSeconds`).
 */
export function assessHealth(
  readings: TriageReadings,
  options: { clockSkewLimitSeconds?: number } = {},
): TriageHealth {
  const findings: Array<{ status: TriageStatus; text: TriageSentence }> = [];
  const add = (status: TriageStatus, text: TriageSentence) => findings.push({ status, text });

  const interfaces = readInterfaces(readings.addresses) ?? [];
  const networkStatuses: TriageStatus[] = [];
  if (!succeeded(readings.addresses)) {
    add('unknown', say('triage:interfacesUnread'));
    networkStatuses.push('unknown');
  }
  for (const item of interfaces) {
    if (item.name === 'lo') continue;
    const isEthernet = ETHERNET_NAME.test(item.name);
    const words =
      INTERFACE_WORDS[isEthernet ? 'ethernet' : CELLULAR_NAME.test(item.name) ? 'cellular' : 'other'];
    const name = item.name;
    if (!item.isUp) {
      add(isEthernet ? 'fault' : 'unknown', say(words.down, { name }));
      networkStatuses.push(isEthernet ? 'fault' : 'unknown');
    } else if (item.hasCarrier === false) {
      add('fault', say(words.noLink, { name }));
      networkStatuses.push('fault');
    } else if (item.ipv4.length === 0) {
      const ipv6 = item.ipv6.filter((address) => !address.startsWith('fe80'));
      const status: TriageStatus = ipv6.length > 0 ? 'ok' : 'fault';
      add(
        status,
        ipv6.length > 0
          ? say(words.onlyIpv6, { name, addresses: ipv6.join(', ') })
          : say(words.noIpv4, { name }),
      );
      networkStatuses.push(status);
    } else {
      add('ok', say(words.up, { name, addresses: item.ipv4.join(', ') }));
    }
  }

  const routesRead = succeeded(readings.routes);
  const defaultRoutes = !routesRead
    ? []
    : readings.routes!.command.startsWith('ip ')
      ? parseIpRoute(readings.routes!.output)
      : parseRouteTable(readings.routes!.output);
  if (!routesRead) {
    add('unknown', say('triage:routesUnread'));
    networkStatuses.push('unknown');
  } else if (defaultRoutes.length === 0) {
    add('fault', say('triage:noDefaultRoute'));
    networkStatuses.push('fault');
  } else {
    const [first, ...others] = defaultRoutes;
    // A route as `ip route` writes it ("ppp0 via 10.0.0.1 (metric 20)"): console words, not translated.
    const describeRoute = (route: (typeof defaultRoutes)[number]) =>
      `${route.device}${route.via ? ` via ${route.via}` : ''}${route.metric !== undefined ? ` (metric ${route.metric})` : ''}`;
    const isCellular = CELLULAR_NAME.test(first!.device);
    const route = describeRoute(first!);
    add(
      'ok',
      others.length > 0
        ? say(isCellular ? 'triage:defaultRouteCellularAlso' : 'triage:defaultRouteAlso', {
            route,
            others: others.map(describeRoute).join(', '),
          })
        : say(isCellular ? 'triage:defaultRouteCellular' : 'triage:defaultRoute', { route }),
    );
  }

  const dns = succeeded(readings.dns) ? parseResolvConf(readings.dns.output) : [];
  if (!succeeded(readings.dns)) {
    add('unknown', say('triage:dnsUnread'));
    networkStatuses.push('unknown');
  } else if (dns.length === 0) {
    add('fault', say('triage:noDns'));
    networkStatuses.push('fault');
  }

  const wan = assessWan(readings.ping);
  const modem = assessModem(readings.modem);
  const packetForwarder = assessPacketForwarder(readings.processes);
  for (const check of [wan, modem, packetForwarder]) add(check.status, check.detail);
  const clock = assessClock(readings.clock, options.clockSkewLimitSeconds ?? TRIAGE_CLOCK_SKEW_SECONDS);
  add(clock.status, clock.detail);

  const network: TriageCheck = {
    status: worst(networkStatuses.length > 0 ? networkStatuses : ['ok']),
    detail:
      interfaces.length === 0
        ? say('triage:noInterfaceRead')
        : say(
            defaultRoutes[0]
              ? dns.length > 0
                ? 'triage:networkSummary'
                : 'triage:networkSummaryNoDns'
              : dns.length > 0
                ? 'triage:networkSummaryNoRoute'
                : 'triage:networkSummaryNoRouteNoDns',
            {
              count: interfaces.filter((item) => item.name !== 'lo').length,
              route: defaultRoutes[0]?.device ?? '',
              dns: dns.join(', '),
            },
          ),
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
    ...(clock.clock ? { clock: clock.clock } : {}),
  };
}

function assessWan(reading: TriageReading | undefined): TriageCheck {
  const target = reading?.command.split(/\s+/).at(-1);
  if (!reading || reading.exitCode === null)
    return {
      status: 'unknown',
      detail: target ? say('triage:wanNotFinished', { target }) : say('triage:wanNotRun'),
    };
  if (isNotFound(reading)) return { status: 'unknown', detail: say('triage:wanNoPing') };
  const summary = parsePing(reading.output);
  if (!summary) return { status: 'unknown', detail: say('triage:wanNoSummary', { target: target ?? '' }) };
  if (summary.received > 0)
    return {
      status: 'ok',
      detail: say('triage:wanWorks', {
        received: summary.received,
        sent: summary.transmitted,
        target: target ?? '',
      }),
    };
  return {
    status: 'fault',
    detail: summary.error
      ? // What ping printed: console words, shown as they are.
        say('triage:wanFailsSaid', { said: summary.error.replace(/^ping: /, '') })
      : say('triage:wanFailsNone', { sent: summary.transmitted, target: target ?? '' }),
  };
}

/** The modem's sentences by what mmcli said of its operator: nothing, the operator, or it and the registration. */
const MODEM_WHERE: Record<
  'registered' | 'connected' | 'connectedRadio' | 'state',
  Record<'nowhere' | 'on' | 'onAs', MessageKey>
> = {
  registered: {
    nowhere: 'triage:modemRegistered',
    on: 'triage:modemRegisteredOn',
    onAs: 'triage:modemRegisteredOnAs',
  },
  connected: {
    nowhere: 'triage:modemConnected',
    on: 'triage:modemConnectedOn',
    onAs: 'triage:modemConnectedOnAs',
  },
  connectedRadio: {
    nowhere: 'triage:modemConnectedRadio',
    on: 'triage:modemConnectedOnRadio',
    onAs: 'triage:modemConnectedOnAsRadio',
  },
  state: { nowhere: 'triage:modemState', on: 'triage:modemStateOn', onAs: 'triage:modemStateOnAs' },
};

function assessModem(reading: TriageReading | undefined): TriageCheck {
  if (!reading || reading.exitCode === null) return { status: 'unknown', detail: say('triage:modemNotRead') };
  if (isNotFound(reading)) return { status: 'unknown', detail: say('triage:modemNoTool') };
  const summary = parseModemStatus(reading.output);
  if (!summary) {
    const said = consoleLines(reading.output)
      .map((line) => line.trim())
      .find((line) => line !== '');
    return {
      status: /couldn't find|no modems/i.test(reading.output) ? 'fault' : 'unknown',
      // What mmcli printed: console words, shown as they are.
      detail: said ? say('triage:modemSaid', { said }) : say('triage:modemSaidNothing'),
    };
  }
  const where = summary.operator ? (summary.registration ? 'onAs' : 'on') : 'nowhere';
  const values = {
    operator: summary.operator ?? '',
    registration: summary.registration ?? '',
    state: summary.state ?? '--',
    // What mmcli says when it does not say: a dash, as its own output writes an absent value.
    technology: summary.accessTechnology ?? '--',
    signal: summary.signalQuality ?? '--',
  };
  switch (summary.state) {
    case 'connected': {
      const hasRadio = Boolean(summary.accessTechnology || summary.signalQuality);
      return {
        status: 'ok',
        detail: say(MODEM_WHERE[hasRadio ? 'connectedRadio' : 'connected'][where], values),
      };
    }
    case 'registered':
    case 'enabled':
    case 'connecting':
    case 'disconnecting':
      return { status: 'fault', detail: say(MODEM_WHERE.registered[where], values) };
    case 'searching':
      return {
        status: 'fault',
        detail: summary.signalQuality
          ? say('triage:modemSearchingSignal', { signal: summary.signalQuality })
          : say('triage:modemSearching'),
      };
    case 'failed':
      return {
        status: 'fault',
        detail: summary.failedReason
          ? say('triage:modemFailedReason', { reason: summary.failedReason })
          : say('triage:modemFailed'),
      };
    default:
      return { status: 'fault', detail: say(MODEM_WHERE.state[where], values) };
  }
}

function assessPacketForwarder(reading: TriageReading | undefined): TriageCheck {
  if (!succeeded(reading)) return { status: 'unknown', detail: say('triage:packetForwarderNotRead') };
  const forwarders = findPacketForwarders(reading.output);
  return forwarders.length > 0
    ? { status: 'ok', detail: say('triage:packetForwarderRunning', { names: forwarders.join(', ') }) }
    : { status: 'fault', detail: say('triage:packetForwarderNotRunning') };
}

/**
 * The default routes and the DNS servers in words: what was read, "none" only when the command ran and listed
 * nothing, and "unknown (not read)" when it never answered (a run stopped early must not read as a fault).
 * Written with `translate` (the report's language), the current language's `t` when left out.
 */
export function describeRoutesAndDns(
  result: Pick<TriageResult, 'commands' | 'health'>,
  translate: Translator = t,
): {
  routes: string;
  dns: string;
} {
  const ran = (pattern: RegExp) =>
    result.commands.some((command) => command.outcome === 'ok' && pattern.test(command.command));
  const routes = result.health.defaultRoutes
    .map((route) => `${route.device}${route.via ? ` via ${route.via}` : ''}`)
    .join(', ');
  const dns = result.health.dns.join(', ');
  const none = translate('triage:none');
  const notRead = translate('triage:notRead');
  return {
    routes: routes || (ran(/^(ip route|route\b)/) ? none : notRead),
    dns: dns || (ran(/resolv\.conf/) ? none : notRead),
  };
}
