import {
  activeLink,
  CELLULAR_INDEX,
  isCellularConnected,
  workingApn,
  type GatewayState,
} from '../gateways/state';
import { deriveHostOctet, deriveMacAddress, type GatewayFacts } from './gateway-files';

/** The gateway's network as its shell shows it; made from the same state the API answers from. */
export interface GatewayNetworkView {
  /** Whether the Ethernet cable has a link (carrier). */
  hasEthernetLink: boolean;
  /** Whether the modem has a data call; registered on its network either way. */
  isCellularConnected: boolean;
  /** The link traffic uses now, or null when none works. */
  activeLink: 'ethernet' | 'cellular' | null;
  /** The APN the modem uses. */
  apn: string;
  operator: string;
}

/** A healthy gateway: Ethernet with a link and in use, the modem connected as fallback. */
export const HEALTHY_NETWORK: GatewayNetworkView = {
  hasEthernetLink: true,
  isCellularConnected: true,
  activeLink: 'ethernet',
  apn: 'internet',
  operator: 'Rogers',
};

/** The shell's view of a simulated gateway's state at `now` (what getConnectivityTypes / getWmStatusApn say). */
export function describeGatewayNetwork(state: GatewayState, now: number): GatewayNetworkView {
  const link = activeLink(state, now);
  return {
    hasEthernetLink: state.entity.hasEthernetLink,
    isCellularConnected: isCellularConnected(state, now),
    activeLink: link === null ? null : link === CELLULAR_INDEX ? 'cellular' : 'ethernet',
    apn: workingApn(state)?.name ?? '',
    operator: 'Rogers',
  };
}

function addresses(facts: GatewayFacts) {
  const octet = deriveHostOctet(facts.gatewayId);
  const mac = deriveMacAddress(facts.gatewayId);
  return {
    mac,
    ethernet: `192.168.1.${octet}`,
    cellular: `10.64.${octet}.17`,
    // EUI-64 from the MAC: 64:7f:da:ab:cd:ef → fe80::667f:daff:feab:cdef.
    linkLocal: `fe80::667f:daff:fe${mac.slice(9, 11)}:${mac.slice(12, 14)}${mac.slice(15, 17)}`,
  };
}

/** BusyBox `ifconfig` (up interfaces only): eth0 (no RUNNING and no address without a link), lo, ppp0 when connected. */
export function formatIfconfig(facts: GatewayFacts, network: GatewayNetworkView = HEALTHY_NETWORK): string {
  const { mac, ethernet, cellular, linkLocal } = addresses(facts);
  const blocks = [
    [
      `eth0      Link encap:Ethernet  HWaddr ${mac.toUpperCase()}`,
      ...(network.hasEthernetLink
        ? [
            `          inet addr:${ethernet}  Bcast:192.168.1.255  Mask:255.255.255.0`,
            `          inet6 addr: ${linkLocal}/64 Scope:Link`,
            '          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1',
          ]
        : ['          UP BROADCAST MULTICAST  MTU:1500  Metric:1']),
      '          RX packets:184213 errors:0 dropped:0 overruns:0 frame:0',
      `          TX packets:90211 errors:0 dropped:0 overruns:0 carrier:${network.hasEthernetLink ? 0 : 412}`,
      '          RX bytes:61231022 (58.3 MiB)  TX bytes:12200931 (11.6 MiB)',
    ],
    [
      'lo        Link encap:Local Loopback',
      '          inet addr:127.0.0.1  Mask:255.0.0.0',
      '          UP LOOPBACK RUNNING  MTU:65536  Metric:1',
    ],
  ];
  if (network.isCellularConnected)
    blocks.push([
      'ppp0      Link encap:Point-to-Point Protocol',
      `          inet addr:${cellular}  P-t-P:10.64.64.64  Mask:255.255.255.255`,
      '          UP POINTOPOINT RUNNING NOARP MULTICAST  MTU:1500  Metric:1',
    ]);
  return blocks.map((block) => block.join('\n')).join('\n\n');
}

/** `ip addr` as BusyBox's ip applet prints it. */
export function formatIpAddr(facts: GatewayFacts, network: GatewayNetworkView): string {
  const { mac, ethernet, cellular, linkLocal } = addresses(facts);
  const lines = [
    '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue qlen 1000',
    '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
    '    inet 127.0.0.1/8 scope host lo',
    '       valid_lft forever preferred_lft forever',
    network.hasEthernetLink
      ? '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast qlen 1000'
      : '2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 qdisc pfifo_fast state DOWN qlen 1000',
    `    link/ether ${mac} brd ff:ff:ff:ff:ff:ff`,
    ...(network.hasEthernetLink
      ? [
          `    inet ${ethernet}/24 brd 192.168.1.255 scope global eth0`,
          '       valid_lft forever preferred_lft forever',
          `    inet6 ${linkLocal}/64 scope link`,
          '       valid_lft forever preferred_lft forever',
        ]
      : []),
  ];
  if (network.isCellularConnected)
    lines.push(
      '5: ppp0: <POINTOPOINT,MULTICAST,NOARP,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast qlen 3',
      '    link/ppp',
      `    inet ${cellular} peer 10.64.64.64/32 scope global ppp0`,
      '       valid_lft forever preferred_lft forever',
    );
  return lines.join('\n');
}

function defaultRoutes(network: GatewayNetworkView): Array<{ device: string; via?: string; metric: number }> {
  const ethernet = { device: 'eth0', via: '192.168.1.1', metric: 10 };
  const cellular = { device: 'ppp0', metric: 20 };
  if (network.activeLink === 'ethernet')
    return network.isCellularConnected ? [ethernet, cellular] : [ethernet];
  if (network.activeLink === 'cellular') return [cellular];
  return [];
}

/** `ip route`: the default routes (Ethernet first when it works) and the connected networks. */
export function formatIpRoute(facts: GatewayFacts, network: GatewayNetworkView): string {
  const { ethernet } = addresses(facts);
  const lines = defaultRoutes(network).map(
    (route) =>
      `default ${route.via ? `via ${route.via} ` : ''}dev ${route.device} ${route.via ? 'proto dhcp ' : 'scope link '}metric ${route.metric} `,
  );
  if (network.hasEthernetLink) lines.push(`192.168.1.0/24 dev eth0 proto kernel scope link src ${ethernet} `);
  if (network.isCellularConnected) lines.push('10.64.64.64 dev ppp0 proto kernel scope link src 10.64.0.17 ');
  return lines.join('\n');
}

/** BusyBox `route -n`. */
export function formatRouteTable(network: GatewayNetworkView): string {
  const row = (
    destination: string,
    gateway: string,
    mask: string,
    flags: string,
    metric: number,
    device: string,
  ) =>
    `${destination.padEnd(15)} ${gateway.padEnd(15)} ${mask.padEnd(16)}${flags.padEnd(6)}${String(metric).padEnd(6)} 0  ${'0'.padStart(7)} ${device}`;
  const rows = defaultRoutes(network).map((route) =>
    row('0.0.0.0', route.via ?? '0.0.0.0', '0.0.0.0', route.via ? 'UG' : 'U', route.metric, route.device),
  );
  if (network.hasEthernetLink) rows.push(row('192.168.1.0', '0.0.0.0', '255.255.255.0', 'U', 0, 'eth0'));
  return [
    'Kernel IP routing table',
    'Destination     Gateway         Genmask         Flags Metric Ref    Use Iface',
    ...rows,
  ].join('\n');
}

/** /etc/resolv.conf as udhcpc and pppd write it for the links that are up. */
export function formatResolvConf(network: GatewayNetworkView): string {
  const lines: string[] = [];
  if (network.hasEthernetLink) lines.push('# Interface wan', 'nameserver 192.168.1.1');
  if (network.isCellularConnected)
    lines.push('# Interface wwan', 'nameserver 10.0.0.53', 'nameserver 10.0.1.53');
  return lines.join('\n');
}

/** ModemManager's `mmcli -m 0`: registered either way, connected only with a data call. */
export function formatModemStatus(network: GatewayNetworkView): string {
  return [
    '  --------------------------------',
    '  General  |                 path: /org/freedesktop/ModemManager1/Modem/0',
    '  --------------------------------',
    '  Hardware |         manufacturer: Quectel',
    '           |                model: EG25-G',
    '  --------------------------------',
    `  Status   |                state: ${network.isCellularConnected ? 'connected' : 'registered'}`,
    '           |          power state: on',
    '           |          access tech: lte',
    '           |       signal quality: 67% (recent)',
    '  --------------------------------',
    `  3GPP     |        operator name: ${network.operator}`,
    '           |         registration: home',
    '  --------------------------------',
    `  3GPP EPS |   initial bearer apn: ${network.apn}`,
  ].join('\n');
}

/** BusyBox `ps`: the gateway's daemons, the packet forwarder among them. */
export function formatProcesses(): string {
  return [
    '  PID USER       VSZ STAT COMMAND',
    '    1 root      1632 S    init',
    '  402 root      2380 S    /sbin/syslogd -C128',
    '  611 root      9640 S    /usr/sbin/ModemManager',
    '  702 root      1680 S    /usr/sbin/dropbear -R',
    '  812 root      5400 S    /usr/bin/pkt_fwd -c /etc/pkt_fwd/config.json',
    '  840 root     18212 S    /usr/bin/oam-agent',
    '  901 root      2120 S    /usr/sbin/gpsd -n /dev/ttymxc2',
    ' 1402 root      1640 S    -sh',
    ' 1433 root      1636 R    ps',
  ].join('\n');
}

/** BusyBox `ping -c <n> <host>`: answered when a WAN link works, else "Network unreachable". */
export function formatPing(network: GatewayNetworkView, args: string[]): { text: string; code: number } {
  let count = 4;
  let host: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '-c') count = Math.max(1, Math.min(10, Number.parseInt(args[++index] ?? '', 10) || 1));
    else if (arg === '-W' || arg === '-w' || arg === '-I') index += 1;
    else if (!arg.startsWith('-')) host = arg;
  }
  if (!host) return { text: 'BusyBox v1.31.1 multi-call binary.\n\nUsage: ping [OPTIONS] HOST', code: 1 };
  if (network.activeLink === null)
    return { text: `PING ${host} (${host}): 56 data bytes\nping: sendto: Network unreachable`, code: 1 };
  const base = network.activeLink === 'ethernet' ? 21 : 48;
  const times = Array.from({ length: count }, (_, index) => base + ((index * 7) % 5) + 0.311 * (index + 1));
  return {
    text: [
      `PING ${host} (${host}): 56 data bytes`,
      ...times.map((time, index) => `64 bytes from ${host}: seq=${index} ttl=117 time=${time.toFixed(3)} ms`),
      '',
      `--- ${host} ping statistics ---`,
      `${count} packets transmitted, ${count} packets received, 0% packet loss`,
      `round-trip min/avg/max = ${Math.min(...times).toFixed(3)}/${(times.reduce((sum, time) => sum + time, 0) / count).toFixed(3)}/${Math.max(...times).toFixed(3)} ms`,
    ].join('\n'),
    code: 0,
  };
}

/** Log lines a broken gateway's syslog has: the Ethernet link down, the modem's data call failing. */
export function networkLogErrors(facts: GatewayFacts, network: GatewayNetworkView, time: Date): string[] {
  const stamp = time
    .toUTCString()
    .replace(/^\w+, /, '')
    .replace(' GMT', '');
  const lines: string[] = [];
  if (!network.hasEthernetLink) {
    lines.push(`${stamp} ${facts.hostname} kern.info kernel: fec 2188000.ethernet eth0: Link is Down`);
    lines.push(
      `${stamp} ${facts.hostname} daemon.err netmgr[733]: eth0 ping check to 8.8.8.8 failed: no carrier`,
    );
  }
  if (!network.isCellularConnected) {
    lines.push(
      `${stamp} ${facts.hostname} daemon.err pppd[1290]: Connect script failed`,
      `${stamp} ${facts.hostname} daemon.warn ModemManager[611]: <warn> [modem0] couldn't connect bearer: activation failed (APN '${network.apn}')`,
    );
  }
  if (network.activeLink === null)
    lines.push(`${stamp} ${facts.hostname} daemon.err oam-agent[840]: heartbeat failed: Network unreachable`);
  return lines;
}
