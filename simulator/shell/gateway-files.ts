import { createHash } from 'node:crypto';

/** What the canned command outputs are made from. */
export interface GatewayFacts {
  gatewayId: string;
  hostname: string;
  bspVersion: string;
  model: string;
}

const KERNEL_RELEASE = '4.14.98-kona';
const KERNEL_BUILD = '#1 SMP PREEMPT Tue Mar 3 12:00:00 UTC 2020';

/** A stable, Tektelic-prefixed MAC address for a gateway id. */
export function deriveMacAddress(gatewayId: string): string {
  const digest = createHash('sha256').update(gatewayId).digest();
  return ['64', '7f', 'da', ...[0, 1, 2].map((index) => digest[index]!.toString(16).padStart(2, '0'))].join(
    ':',
  );
}

/** A stable last octet (20–219) of the gateway's addresses. */
export function deriveHostOctet(gatewayId: string): number {
  return (createHash('sha256').update(`ip:${gatewayId}`).digest()[0]! % 200) + 20;
}

/** `uname` with its flags; undefined when a flag is not supported. */
export function formatUname(facts: GatewayFacts, flags: string[]): string | undefined {
  const fields = {
    s: 'Linux',
    n: facts.hostname,
    r: KERNEL_RELEASE,
    v: KERNEL_BUILD,
    m: 'armv7l',
    o: 'GNU/Linux',
  };
  if (flags.length === 0) return fields.s;
  if (flags.includes('-a')) return Object.values(fields).join(' ');
  const letters = flags.join('').replaceAll('-', '').split('');
  if (letters.some((letter) => !(letter in fields))) return undefined;
  return letters.map((letter) => fields[letter as keyof typeof fields]).join(' ');
}

/** `system_version`: the BSP and the versions of the packages built into it. */
export function formatSystemVersion(facts: GatewayFacts): string {
  return [
    `Product:           ${facts.model}`,
    `Gateway ID:        ${facts.gatewayId}`,
    `BSP version:       ${facts.bspVersion}`,
    `Kernel:            ${KERNEL_RELEASE}`,
    'Packages:',
    `  tektelic-bsp              ${facts.bspVersion}`,
    '  lora-packet-forwarder     5.2.1',
    '  oam-agent                 3.4.0',
    '  network-manager           2.8.3',
    '  modem-manager             1.18.6',
    '  gps-daemon                3.22.1',
    '  dropbear                  2020.81',
  ].join('\n');
}

/** `dmesg`: a short, believable boot log. */
export function formatDmesg(facts: GatewayFacts): string {
  return [
    `[    0.000000] Booting Linux on physical CPU 0x0`,
    `[    0.000000] Linux version ${KERNEL_RELEASE} (oe-user@oe-host) (gcc version 9.3.0) ${KERNEL_BUILD}`,
    '[    0.000000] CPU: ARMv7 Processor [410fc075] revision 5 (ARMv7), cr=10c5387d',
    '[    0.000000] Machine model: Tektelic Kona',
    '[    0.000000] Memory: 491520K/524288K available',
    '[    1.204311] spi-imx 2008000.ecspi: probed',
    '[    1.530112] sx1301: LoRa concentrator detected on spi0.0',
    `[    2.018873] fec 2188000.ethernet eth0: registered PHC device 0, MAC ${deriveMacAddress(facts.gatewayId)}`,
    '[    3.441027] usb 1-1: new high-speed USB device number 2 using ci_hdrc',
    '[    3.902255] option 1-1:1.2: GSM modem (1-port) converter detected',
    '[    6.117092] fec 2188000.ethernet eth0: Link is Up - 100Mbps/Full - flow control rx/tx',
    '[    8.730410] gps: u-blox receiver ready on ttymxc2',
  ].join('\n');
}

const LOG_SOURCES = ['pkt_fwd', 'oam-agent', 'netmgr', 'gpsd', 'modem'] as const;
const LOG_MESSAGES: Record<(typeof LOG_SOURCES)[number], string[]> = {
  pkt_fwd: [
    'PUSH_DATA acknowledged in 42 ms',
    'received 3 uplinks, forwarded 3',
    'PULL_RESP: downlink scheduled',
  ],
  'oam-agent': [
    'heartbeat sent to OAM server',
    'telemetry batch uploaded (12 keys)',
    'configuration in sync',
  ],
  netmgr: ['eth0 ping check to 8.8.8.8 ok', 'ppp0 ping check to 8.8.8.8 ok', 'preferred WAN: eth0'],
  gpsd: ['fix 3D, 9 satellites', 'PPS locked'],
  modem: ['signal RSSI -71 dBm RSRP -98 dBm', 'registered on home network'],
};

/** The `index`th syslog line of a gateway, stamped with `time`, BusyBox `logread` style. */
export function formatLogLine(facts: GatewayFacts, index: number, time: Date): string {
  const source = LOG_SOURCES[index % LOG_SOURCES.length]!;
  const messages = LOG_MESSAGES[source];
  const message = messages[Math.floor(index / LOG_SOURCES.length) % messages.length]!;
  const stamp = time
    .toUTCString()
    .replace(/^\w+, /, '')
    .replace(' GMT', '');
  return `${stamp} ${facts.hostname} daemon.info ${source}[${1200 + index * 7}]: ${message}`;
}

/** The files `cat` can show; any other path is "No such file or directory". */
export function readGatewayFile(facts: GatewayFacts, path: string): string | undefined {
  const macAddress = deriveMacAddress(facts.gatewayId);
  const files: Record<string, string> = {
    '/etc/os-release': [
      'ID=kona',
      'NAME="Tektelic Kona Linux"',
      `VERSION="${facts.bspVersion}"`,
      `VERSION_ID=${facts.bspVersion}`,
      `PRETTY_NAME="Tektelic Kona Linux ${facts.bspVersion}"`,
    ].join('\n'),
    '/etc/hostname': facts.hostname,
    '/etc/tektelic-versions/bsp-version': facts.bspVersion,
    '/proc/cpuinfo': [
      'processor\t: 0',
      'model name\t: ARMv7 Processor rev 5 (v7l)',
      'BogoMIPS\t: 48.00',
      'Features\t: half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae',
      'CPU implementer\t: 0x41',
      'CPU architecture: 7',
      'CPU part\t: 0xc07',
      '',
      'Hardware\t: Freescale i.MX6 Ultralite (Device Tree)',
      `Serial\t\t: ${facts.gatewayId}`,
    ].join('\n'),
    '/etc/config/network': [
      "config interface 'loopback'",
      "\toption ifname 'lo'",
      "\toption proto 'static'",
      "\toption ipaddr '127.0.0.1'",
      '',
      "config interface 'wan'",
      "\toption ifname 'eth0'",
      "\toption proto 'dhcp'",
      `\toption macaddr '${macAddress}'`,
      '',
      "config interface 'wwan'",
      "\toption proto '3g'",
      "\toption device '/dev/ttyUSB2'",
      "\toption apn 'internet'",
    ].join('\n'),
  };
  return files[path];
}
