import type { Runbook } from '../../shared/terminal/runbook-schemas';
import { t } from '../../shared/i18n';

/** A root shell's prompt at the end of a line (`root@kona-roof:~# `): the command before it has finished. */
const PROMPT = { kind: 'pattern', value: '[#$] $' } as const;

/**
 * The runbooks a profile starts with, for a Kona gateway's root shell (serial console after login, or SSH), named
 * in the language shown now. They are a profile's own once it edits, deletes or imports any: then its file holds
 * them with the rest, named in the language of that moment (a technician's own runbooks are not translated).
 */
export const defaultRunbooks = (): Runbook[] => [
  {
    id: 'shipped-collect-logs',
    name: t('terminals:shippedCollectLogs'),
    description: t('terminals:shippedCollectLogsDescription'),
    steps: [
      { send: 'system_version', wait: { kind: 'text', value: 'BSP version' }, timeLimitSeconds: 10 },
      { send: 'uptime', wait: { kind: 'text', value: 'load average' }, timeLimitSeconds: 10 },
      { send: 'logread | tail -n 100', wait: PROMPT, timeLimitSeconds: 30 },
      { send: 'dmesg | tail -n 50', wait: PROMPT, timeLimitSeconds: 30 },
    ],
  },
  {
    id: 'shipped-packet-forwarder-status',
    name: t('terminals:shippedPacketForwarder'),
    description: t('terminals:shippedPacketForwarderDescription'),
    steps: [
      {
        send: '/etc/init.d/pkt_fwd status',
        wait: { kind: 'pattern', value: '^running$' },
        timeLimitSeconds: 10,
      },
      { send: 'ps | grep pkt_fwd', wait: { kind: 'text', value: '/usr/bin/pkt_fwd' }, timeLimitSeconds: 10 },
      { send: 'logread | grep pkt_fwd | tail -n 20', wait: PROMPT, timeLimitSeconds: 20 },
    ],
  },
  {
    id: 'shipped-network-check',
    name: t('terminals:shippedBackhaul'),
    description: t('terminals:shippedBackhaulDescription'),
    steps: [
      { send: 'ip route', wait: { kind: 'text', value: 'default via' }, timeLimitSeconds: 10 },
      { send: 'cat /etc/resolv.conf', wait: { kind: 'text', value: 'nameserver' }, timeLimitSeconds: 10 },
      { send: 'ping -c 3 8.8.8.8', wait: { kind: 'text', value: ', 0% packet loss' }, timeLimitSeconds: 20 },
    ],
  },
];
