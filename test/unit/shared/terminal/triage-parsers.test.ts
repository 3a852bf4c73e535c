import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cleanConsoleText,
  findLogErrors,
  findPacketForwarders,
  noiseShare,
  parseIfconfig,
  parseIpAddr,
  parseIpRoute,
  parseModemStatus,
  parsePing,
  parseResolvConf,
  parseRouteTable,
  parseSystemVersion,
  parseUptime,
} from '../../../../electron/shared/terminal/triage-parsers';

function fixture(name: string): string {
  return readFileSync(new URL(`../../../fixtures/triage/${name}`, import.meta.url), 'utf8');
}

describe('cleanConsoleText', () => {
  it('removes escape sequences, control bytes and invalid UTF-8, and ends lines with LF', () => {
    const cleaned = cleanConsoleText(fixture('logread-noise.bin'));
    // eslint-disable-next-line no-control-regex
    expect(cleaned).not.toMatch(/[\r\x00-\x08\x1b\ufffd]/);
    expect(cleaned).toContain('daemon.err pkt_fwd[812]: ERROR: concentrator start failed\n');
    expect(cleaned).toContain('eth0 link (flapping\n');
  });

  it('applies the backspaces a shell uses to erase characters', () => {
    expect(cleanConsoleText('ifconfx\b \bg\r\n')).toBe('ifconfg\n');
  });

  it('treats a lone CR as a line end', () => {
    expect(cleanConsoleText('one\rtwo\r\r\nthree')).toBe('one\ntwo\nthree');
  });
});

describe('noiseShare', () => {
  it('is high for bytes read at the wrong baud rate and low for text', () => {
    expect(noiseShare('\x00\x13\ufffd\ufffd\x7f\x01x\ufffd')).toBeGreaterThan(0.5);
    expect(noiseShare('kona login: \r\n')).toBe(0);
  });
});

describe('parseIfconfig', () => {
  it('reads BusyBox interfaces with addresses, MAC and carrier', () => {
    const interfaces = parseIfconfig(fixture('busybox-ifconfig-healthy.txt'));
    expect(interfaces.map((item) => item.name)).toEqual(['eth0', 'lo', 'ppp0']);
    expect(interfaces[0]).toEqual({
      name: 'eth0',
      isUp: true,
      hasCarrier: true,
      macAddress: '64:7f:da:01:a2:b3',
      ipv4: ['192.168.1.20/24'],
      ipv6: ['fe80::667f:daff:fe01:a2b3/64'],
    });
    expect(interfaces[2]).toMatchObject({ ipv4: ['10.64.12.17/32'], hasCarrier: true });
  });

  it('sees an Ethernet port up without RUNNING as having no carrier and no IPv4', () => {
    const [eth0, , wwan0] = parseIfconfig(fixture('busybox-ifconfig-no-carrier.txt'));
    expect(eth0).toMatchObject({ name: 'eth0', isUp: true, hasCarrier: false, ipv4: [] });
    expect(wwan0).toMatchObject({ name: 'wwan0', isUp: false, ipv4: [] });
  });

  it('reads the newer net-tools layout', () => {
    const [eth0, wlan0] = parseIfconfig(fixture('nettools-ifconfig.txt'));
    expect(eth0).toMatchObject({
      isUp: true,
      hasCarrier: true,
      macAddress: '52:54:00:12:34:56',
      ipv4: ['10.1.2.3/16'],
      ipv6: ['fe80::5054:ff:fe12:3456/64'],
    });
    expect(wlan0).toMatchObject({ isUp: true, hasCarrier: false, ipv4: [] });
  });
});

describe('parseIpAddr', () => {
  it('reads iproute2 interfaces, dropping the @parent suffix', () => {
    const interfaces = parseIpAddr(fixture('iproute2-ip-addr-healthy.txt'));
    expect(interfaces.map((item) => item.name)).toEqual(['lo', 'eth0', 'wwan0']);
    expect(interfaces[1]).toMatchObject({
      isUp: true,
      hasCarrier: true,
      macAddress: '64:7f:da:01:a2:b3',
      ipv4: ['192.168.1.20/24'],
    });
    expect(interfaces[2]).toMatchObject({ ipv4: ['10.170.33.9/30'], hasCarrier: true });
  });

  it('sees NO-CARRIER, an interface left down and a point-to-point address', () => {
    const [, eth0, eth1, ppp0] = parseIpAddr(fixture('iproute2-ip-addr-eth-down.txt'));
    expect(eth0).toMatchObject({ isUp: true, hasCarrier: false, ipv4: [] });
    expect(eth1).toMatchObject({ isUp: false, ipv4: [] });
    expect(ppp0).toMatchObject({ isUp: true, ipv4: ['10.64.12.17'] });
  });

  it('keeps IPv6-only addresses apart from IPv4', () => {
    const [, eth0] = parseIpAddr(fixture('iproute2-ip-addr-ipv6-only.txt'));
    expect(eth0).toMatchObject({
      ipv4: [],
      ipv6: ['2001:db8:42::20/64', 'fe80::667f:daff:fe01:a2b3/64'],
    });
  });
});

describe('parseIpRoute and parseRouteTable', () => {
  it('lists usable default routes lowest metric first, leaving out a linkdown one', () => {
    expect(parseIpRoute(fixture('iproute2-ip-route-several-defaults.txt'))).toEqual([
      { device: 'eth0', via: '192.168.1.1', metric: 100 },
      { device: 'wwan0', metric: 700 },
    ]);
  });

  it('finds no default route where there is none', () => {
    expect(parseIpRoute(fixture('iproute2-ip-route-no-default.txt'))).toEqual([]);
  });

  it('reads BusyBox route -n with a gateway and a point-to-point default', () => {
    expect(parseRouteTable(fixture('busybox-route-n.txt'))).toEqual([
      { device: 'eth0', via: '192.168.1.1', metric: 10 },
      { device: 'ppp0', metric: 20 },
    ]);
  });
});

describe('parseResolvConf', () => {
  it('lists the name servers in order, IPv6 too', () => {
    expect(parseResolvConf(fixture('resolv.conf'))).toEqual([
      '192.168.1.1',
      '10.0.0.53',
      '2001:4860:4860::8888',
    ]);
  });
});

describe('parsePing', () => {
  it('reads a BusyBox summary', () => {
    expect(parsePing(fixture('busybox-ping-ok.txt'))).toEqual({ transmitted: 3, received: 3 });
  });

  it('keeps the error when BusyBox could not send', () => {
    expect(parsePing(fixture('busybox-ping-unreachable.txt'))).toEqual({
      transmitted: 0,
      received: 0,
      error: 'ping: sendto: Network unreachable',
    });
  });

  it('reads an iputils summary with total loss', () => {
    expect(parsePing(fixture('iputils-ping-loss.txt'))).toEqual({ transmitted: 3, received: 0 });
  });

  it('is undefined for output that is not a ping', () => {
    expect(parsePing('-sh: ping: not found\n')).toBeUndefined();
  });
});

describe('parseUptime', () => {
  it.each([
    ['busybox-uptime.txt', '3 days, 4:12'],
    ['busybox-uptime-minutes.txt', '17 min'],
    ['procps-uptime-users.txt', '1 day, 2:03'],
  ])('reads %s', (name, expected) => {
    expect(parseUptime(fixture(name))).toBe(expected);
  });
});

describe('parseSystemVersion', () => {
  it('lists the BSP, kernel and package versions', () => {
    expect(parseSystemVersion(fixture('system-version.txt'))).toEqual([
      { name: 'BSP version', version: '7.1.2' },
      { name: 'Kernel', version: '4.14.98-kona' },
      { name: 'tektelic-bsp', version: '7.1.2' },
      { name: 'lora-packet-forwarder', version: '5.2.1' },
      { name: 'oam-agent', version: '3.4.0' },
    ]);
  });
});

describe('findLogErrors', () => {
  it('keeps error and warning lines of a noisy log, cleaned', () => {
    expect(findLogErrors(fixture('logread-noise.bin'))).toEqual([
      'Nov 25 12:00:02 kona daemon.err pkt_fwd[812]: ERROR: concentrator start failed',
      'Nov 25 12:00:03 kona daemon.warn netmgr[733]: eth0 link (flapping',
      "Nov 25 12:00:06 kona daemon.info modem[611]: couldn't connect: timed out",
    ]);
  });

  it('keeps only the last ones', () => {
    expect(findLogErrors(fixture('logread-noise.bin'), 1)).toHaveLength(1);
  });
});

describe('parseModemStatus', () => {
  it('reads state, operator and registration from mmcli', () => {
    expect(parseModemStatus(fixture('mmcli-registered.txt'))).toEqual({
      state: 'registered',
      operator: 'Rogers',
      registration: 'home',
      accessTechnology: 'lte',
      signalQuality: '54% (recent)',
    });
  });

  it('reads why a modem failed', () => {
    expect(parseModemStatus(fixture('mmcli-failed.txt'))).toMatchObject({
      state: 'failed',
      failedReason: 'sim-missing',
    });
  });

  it('is undefined when mmcli found no modem', () => {
    expect(parseModemStatus("error: couldn't find modem\n")).toBeUndefined();
  });
});

describe('findPacketForwarders', () => {
  it('finds the packet forwarder in ps', () => {
    expect(findPacketForwarders(fixture('busybox-ps.txt'))).toEqual(['pkt_fwd']);
  });

  it('does not count a grep for it', () => {
    expect(findPacketForwarders(fixture('busybox-ps-no-forwarder.txt'))).toEqual([]);
  });
});
