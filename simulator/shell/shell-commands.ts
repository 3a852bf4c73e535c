import {
  formatDmesg,
  formatSystemVersion,
  formatUname,
  readGatewayFile,
  type GatewayFacts,
} from './gateway-files';
import {
  formatIfconfig,
  formatIpAddr,
  formatIpRoute,
  formatModemStatus,
  formatPing,
  formatProcesses,
  formatResolvConf,
  formatRouteTable,
  type GatewayNetworkView,
} from './gateway-network';

/** What the text commands read of the shell they run in. */
export interface ShellEnvironment {
  facts: GatewayFacts;
  network: GatewayNetworkView;
  now(): Date;
  /** `uptime`'s line. */
  uptime(): string;
  /** `logread`'s lines. */
  logHistory(): string[];
  /** Whether the packet forwarder runs (its init script starts and stops it). */
  packetForwarder: { isRunning: boolean };
}

/** The packet forwarder's init script, as a command. */
const PACKET_FORWARDER_SCRIPT = '/etc/init.d/pkt_fwd';

/** The `help` text. */
const HELP_TEXT = [
  'Built-in commands:',
  '  help              this list',
  '  uname [-a]        kernel and machine',
  '  uptime            time since boot and load',
  '  ifconfig          network interfaces',
  '  ip addr|route     interfaces and routes (iproute2 style); route -n',
  '  ping [-c N] HOST  test the WAN',
  '  mmcli -m 0        modem status',
  '  ps                processes',
  '  /etc/init.d/pkt_fwd status|start|stop|restart   the LoRa packet forwarder',
  '  a; b, a | tail -n N, a | head -n N, a | grep WORD, echo $?',
  '  system_version    BSP version and package versions',
  '  logread [-f]      system log (-f follows it until Ctrl-C)',
  '  dmesg             kernel messages',
  '  cat <file>        /etc/os-release, /proc/cpuinfo, /etc/config/network, /etc/hostname, /etc/resolv.conf',
  '  date [-u] [+FORMAT]  the gateway clock (UTC; +%s: seconds since 1970)',
  '  echo, hostname, whoami, pwd, clear',
  '  flood <MB>        print MB x 1000000 bytes of text, then "sha256 <hex>" of exactly those bytes',
  '  rb, rx FILE       receive a file by YMODEM or XMODEM (CRC) on a serial console; prints its sha256',
  '  reboot            restart the gateway (ends this session)',
  '  exit              leave the shell',
].join('\n');

/** What a command that only prints text prints, and its exit status; undefined for the others. */
export function captureCommand(
  name: string,
  args: string[],
  shell: ShellEnvironment,
): { text: string; code: number } | undefined {
  const ok = (text: string) => ({ text, code: 0 });
  const network = shell.network;
  switch (name) {
    case 'help':
      return ok(HELP_TEXT);
    case 'uname': {
      const output = formatUname(shell.facts, args);
      return output === undefined
        ? { text: `uname: invalid option -- '${args.join(' ').replace(/^-+/, '')}'`, code: 1 }
        : ok(output);
    }
    case 'uptime':
      return ok(shell.uptime());
    case 'ifconfig':
      return ok(formatIfconfig(shell.facts, network));
    case 'ip': {
      const object = args[0] ?? '';
      if (['a', 'addr', 'address'].includes(object)) return ok(formatIpAddr(shell.facts, network));
      if (['r', 'route'].includes(object)) return ok(formatIpRoute(shell.facts, network));
      return { text: `ip: unknown command "${object}"`, code: 1 };
    }
    case 'route':
      return ok(formatRouteTable(network));
    case 'ping':
      return formatPing(network, args);
    case 'mmcli':
      return args.join(' ') === '-m 0'
        ? ok(formatModemStatus(network))
        : { text: 'error: only `mmcli -m 0` (read the modem status) is simulated', code: 1 };
    case 'ps':
      return ok(
        formatProcesses()
          .split('\n')
          .filter((line) => shell.packetForwarder.isRunning || !line.includes('pkt_fwd'))
          .join('\n'),
      );
    case PACKET_FORWARDER_SCRIPT:
      return runPacketForwarderScript(args[0], shell.packetForwarder);
    case 'system_version':
      return ok(formatSystemVersion(shell.facts));
    case 'dmesg':
      return ok(formatDmesg(shell.facts));
    case 'logread':
      return args.length === 0 ? ok(shell.logHistory().join('\n')) : undefined;
    case 'cat': {
      const texts = args.map((path) =>
        path === '/etc/resolv.conf' ? formatResolvConf(network) : readGatewayFile(shell.facts, path),
      );
      const failed = args.filter((_, index) => texts[index] === undefined);
      return {
        text: texts
          .map((text, index) => text ?? `cat: can't open '${args[index]}': No such file or directory`)
          .join('\n'),
        code: failed.length > 0 ? 1 : 0,
      };
    }
    case 'echo':
      return ok(args.join(' '));
    case 'hostname':
      return ok(shell.facts.hostname);
    case 'whoami':
      return ok('root');
    case 'pwd':
      return ok('/root');
    case 'date':
      return formatDate(shell.now(), args);
    default:
      return undefined;
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * BusyBox `date` on a gateway whose zone is UTC: no argument (or `-u`) prints `%a %b %e %H:%M:%S %Z %Y`
 * ("Sat Nov 28 01:03:17 UTC 2026"), `+FORMAT` expands %s %Y %m %d %e %H %M %S %Z %a %b %%. Setting the time is
 * not simulated: any other argument is refused as BusyBox refuses a date it cannot read.
 */
function formatDate(now: Date, args: string[]): { text: string; code: number } {
  const options = args.filter((arg) => arg !== '-u');
  const format = options[0] ?? '+%a %b %e %H:%M:%S %Z %Y';
  if (options.length > 1 || !format.startsWith('+'))
    return { text: `date: invalid date '${options.join(' ')}'`, code: 1 };
  const two = (value: number) => String(value).padStart(2, '0');
  const fields: Record<string, string> = {
    s: String(Math.floor(now.getTime() / 1000)),
    Y: String(now.getUTCFullYear()),
    m: two(now.getUTCMonth() + 1),
    d: two(now.getUTCDate()),
    e: String(now.getUTCDate()).padStart(2, ' '),
    H: two(now.getUTCHours()),
    M: two(now.getUTCMinutes()),
    S: two(now.getUTCSeconds()),
    Z: 'UTC',
    a: WEEKDAYS[now.getUTCDay()]!,
    b: MONTHS[now.getUTCMonth()]!,
    '%': '%',
  };
  return {
    text: format.slice(1).replace(/%(.)/g, (whole, field: string) => fields[field] ?? whole),
    code: 0,
  };
}

/** `/etc/init.d/pkt_fwd status|start|stop|restart`, as a procd script answers: status exits 3 when stopped. */
function runPacketForwarderScript(
  action: string | undefined,
  packetForwarder: { isRunning: boolean },
): { text: string; code: number } {
  switch (action) {
    case 'status':
      return packetForwarder.isRunning ? { text: 'running', code: 0 } : { text: 'inactive', code: 3 };
    case 'start':
    case 'restart':
      packetForwarder.isRunning = true;
      return { text: '', code: 0 };
    case 'stop':
      packetForwarder.isRunning = false;
      return { text: '', code: 0 };
    default:
      return { text: `Syntax: ${PACKET_FORWARDER_SCRIPT} [status|start|stop|restart]`, code: 1 };
  }
}

/** `tail -n N`, `head -n N` (also `-N`) and `grep WORD` over a command's output; grep fails when nothing matches. */
export function applyFilter(text: string, filter: string): { text: string; code: number } {
  const [name = '', ...args] = filter.split(/\s+/);
  const lines = text === '' ? [] : text.split('\n');
  const count = Number.parseInt((args[0] === '-n' ? args[1] : args[0]?.replace(/^-/, '')) ?? '10', 10);
  const limit = Number.isInteger(count) && count >= 0 ? count : 10;
  switch (name) {
    case 'tail':
      return { text: lines.slice(Math.max(0, lines.length - limit)).join('\n'), code: 0 };
    case 'head':
      return { text: lines.slice(0, limit).join('\n'), code: 0 };
    case 'grep': {
      const matching = lines.filter((line) => line.includes(args.join(' ')));
      return { text: matching.join('\n'), code: matching.length > 0 ? 0 : 1 };
    }
    default:
      return { text: `-sh: ${name}: not found`, code: 127 };
  }
}
