import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assessHealth as assessHealthData,
  describeRoutesAndDns,
  type TriageReading,
  type TriageReadings,
} from '../../../../electron/shared/terminal/triage-health';
import { healthInWords } from '../../../helpers/triage-words';

/** The health panel with its sentences written in English, as the screen shows them. */
const assessHealth = (readings: TriageReadings) => healthInWords(assessHealthData(readings));

function fixture(name: string): string {
  return readFileSync(new URL(`../../../fixtures/triage/${name}`, import.meta.url), 'utf8');
}

function reading(command: string, file: string, exitCode = 0): TriageReading {
  return { command, output: fixture(file), exitCode };
}

function healthyReadings(overrides: Partial<TriageReadings> = {}): TriageReadings {
  return {
    version: reading('system_version', 'system-version.txt'),
    uptime: reading('uptime', 'busybox-uptime.txt'),
    addresses: reading('ip addr', 'iproute2-ip-addr-healthy.txt'),
    routes: reading('ip route', 'iproute2-ip-route-several-defaults.txt'),
    dns: reading('cat /etc/resolv.conf', 'resolv.conf'),
    log: reading('logread | tail -n 200', 'logread-noise.bin'),
    modem: reading('mmcli -m 0', 'mmcli-connected.txt'),
    processes: reading('ps', 'busybox-ps.txt'),
    ping: reading('ping -c 3 -W 2 8.8.8.8', 'busybox-ping-ok.txt'),
    ...overrides,
  };
}

const faults = (readings: TriageReadings) =>
  assessHealth(readings)
    .findings.filter((finding) => finding.status === 'fault')
    .map((finding) => finding.text);

describe('assessHealth', () => {
  it('finds no fault on a healthy gateway and says what works', () => {
    const health = assessHealth(healthyReadings());
    expect(faults(healthyReadings())).toEqual([]);
    expect(health.wan).toEqual({ status: 'ok', detail: 'WAN works: 3 of 3 pings to 8.8.8.8 answered.' });
    expect(health.modem.status).toBe('ok');
    expect(health.packetForwarder.detail).toBe('Packet forwarder running (pkt_fwd).');
    expect(health.uptime).toBe('3 days, 4:12');
    expect(health.network.status).toBe('ok');
  });

  it('names an Ethernet link without carrier and a default route over cellular', () => {
    const readings = healthyReadings({
      addresses: reading('ip addr', 'iproute2-ip-addr-eth-down.txt'),
      routes: { command: 'ip route', output: 'default dev ppp0 scope link metric 20\n', exitCode: 0 },
    });
    expect(faults(readings)).toContain(
      'Ethernet eth0 has no link (no carrier: check the cable and the switch port).',
    );
    expect(assessHealth(readings).findings.map((finding) => finding.text)).toContain(
      'Default route: ppp0 (metric 20), the cellular link.',
    );
    expect(assessHealth(readings).network.status).toBe('fault');
  });

  it('names a modem registered without data as an APN problem', () => {
    expect(faults(healthyReadings({ modem: reading('mmcli -m 0', 'mmcli-registered.txt') }))).toEqual([
      'Modem registered on Rogers (home) but has no data connection (state registered): check the APN.',
    ]);
  });

  it('says the WAN does not work when the ping could not be sent', () => {
    const readings = healthyReadings({
      ping: reading('ping -c 3 -W 2 8.8.8.8', 'busybox-ping-unreachable.txt', 1),
      routes: reading('ip route', 'iproute2-ip-route-no-default.txt'),
    });
    expect(faults(readings)).toEqual([
      'No default route: the gateway has no way to the internet.',
      'WAN does not work: sendto: Network unreachable.',
    ]);
  });

  it('says unknown, never ok, for what was not read', () => {
    const health = assessHealth({});
    expect(
      [health.network, health.wan, health.modem, health.packetForwarder].map((check) => check.status),
    ).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    expect(health.findings.every((finding) => finding.status === 'unknown')).toBe(true);
  });

  it('says unknown when the gateway has no modem tool', () => {
    const health = assessHealth(
      healthyReadings({ modem: { command: 'mmcli -m 0', output: '-sh: mmcli: not found\n', exitCode: 127 } }),
    );
    expect(health.modem).toEqual({
      status: 'unknown',
      detail: 'Modem unknown: this gateway has no modem tool (mmcli).',
    });
  });

  it('reads ifconfig and route -n when those were what answered', () => {
    const health = assessHealth(
      healthyReadings({
        addresses: reading('ifconfig', 'busybox-ifconfig-no-carrier.txt'),
        routes: reading('route -n', 'busybox-route-n.txt'),
      }),
    );
    expect(health.interfaces.map((item) => item.name)).toEqual(['eth0', 'lo', 'wwan0']);
    expect(health.defaultRoutes[0]).toEqual({ device: 'eth0', via: '192.168.1.1', metric: 10 });
    expect(health.findings[0]!.text).toMatch(/^Ethernet eth0 has no link/);
  });

  it('reports an IPv6-only interface without calling it a fault', () => {
    const health = assessHealth(
      healthyReadings({ addresses: reading('ip addr', 'iproute2-ip-addr-ipv6-only.txt') }),
    );
    expect(health.findings).toContainEqual({
      status: 'ok',
      text: 'Ethernet eth0 has only IPv6 (2001:db8:42::20/64), no IPv4 address.',
    });
  });

  it('lists the last error lines of the log', () => {
    expect(assessHealth(healthyReadings()).logErrors).toHaveLength(3);
  });
});

describe('describeRoutesAndDns', () => {
  const command = (text: string, outcome: 'ok' | 'timed-out') => ({
    command: text,
    outcome,
    exitCode: outcome === 'ok' ? 0 : null,
    durationMs: 10,
    timeoutMs: 15_000,
  });

  it('says "unknown (not read)" for routes and DNS that were never read, not "none"', () => {
    const health = assessHealth({});
    expect(describeRoutesAndDns({ commands: [], health })).toEqual({
      routes: 'unknown (not read)',
      dns: 'unknown (not read)',
    });
    expect(describeRoutesAndDns({ commands: [command('ip route', 'timed-out')], health }).routes).toBe(
      'unknown (not read)',
    );
  });

  it('says "none" only when the command answered with no default route or server', () => {
    const health = assessHealth({});
    const commands = [command('ip route', 'ok'), command('cat /etc/resolv.conf', 'ok')];
    expect(describeRoutesAndDns({ commands, health })).toEqual({ routes: 'none', dns: 'none' });
  });

  it('lists the default routes and DNS servers that were read', () => {
    const health = assessHealth(healthyReadings());
    const described = describeRoutesAndDns({ commands: [command('ip route', 'ok')], health });
    expect(described.routes).toMatch(/via/);
    expect(described.dns).not.toMatch(/none|unknown/);
  });
});
