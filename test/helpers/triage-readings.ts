import type { TriageReadings } from '../../electron/shared/terminal/triage-health';

/** Every reading a triage takes, each with the same `output` and exit status 0: one text through every parser. */
export function readingsWithOutput(output: string): TriageReadings {
  const reading = (command: string) => ({ command, output, exitCode: 0 });
  return {
    version: reading('system_version'),
    uptime: reading('uptime'),
    // The laptop's time when `date +%s` answered: any fixed time will do, the text is what is under test.
    clock: { ...reading('date +%s'), answeredAt: Date.UTC(2026, 10, 28) },
    addresses: reading('ip addr'),
    routes: reading('ip route'),
    dns: reading('cat /etc/resolv.conf'),
    log: reading('logread | tail -n 200'),
    modem: reading('mmcli -m 0'),
    processes: reading('ps'),
    ping: reading('ping -c 3 -W 2 8.8.8.8'),
  };
}
