import type { TriageResult, TriageStatus } from '../../shared/terminal/triage-schemas';
import { describeRoutesAndDns } from '../../shared/terminal/triage-health';
import {
  cardVerdict,
  type AcceptanceCard,
  type AcceptanceItem,
  type ItemVerdict,
} from '../../shared/visit/acceptance-card';
import type { AcceptanceTable } from './acceptance-table';

const STATUS_VERDICT: Record<TriageStatus, ItemVerdict> = { ok: 'go', fault: 'no-go', unknown: 'unknown' };

/** An item an offline card cannot judge: it names what it needs. */
function needsServer(id: AcceptanceItem['id'], label: string, what: string): AcceptanceItem {
  return { id, label, verdict: 'needs-server', findings: [`Needs the server: ${what}.`] };
}

/**
 * The acceptance card with no server, filled from the latest serial triage of the gateway: the uplink from its
 * links, addresses, default routes and DNS; cellular from the modem's state; the packet forwarder from whether its
 * process runs; the gateway's clock against the laptop's when the triage read it (more than the table's skew is a
 * no-go: a LoRa gateway with a wrong clock stamps packets wrongly). Everything else says it needs the server.
 */
export function buildOfflineCard(input: {
  gatewayId: string;
  name?: string;
  triage: TriageResult;
  table: AcceptanceTable;
  now: number;
}): AcceptanceCard {
  const { triage, table } = input;
  const { health } = triage;
  const routesAndDns = describeRoutesAndDns(triage);
  const uplinkFindings = [
    health.network.detail,
    health.wan.detail,
    routesAndDns.routes,
    routesAndDns.dns,
  ].filter((text) => text.trim() !== '');
  const uplinkVerdict = worse(STATUS_VERDICT[health.network.status], STATUS_VERDICT[health.wan.status]);
  const items: AcceptanceItem[] = [
    {
      id: 'uplink',
      label: 'Uplink',
      verdict: uplinkVerdict,
      findings: [...uplinkFindings, 'The pings and the firewall need the server.'],
      ...(uplinkVerdict === 'no-go' || uplinkVerdict === 'warn'
        ? {
            fix: {
              text: 'Check the cable or the APN named above, then run the check through the server.',
              target: 'connectivity' as const,
            },
          }
        : {}),
    },
    {
      id: 'cellular',
      label: 'Cellular',
      verdict: STATUS_VERDICT[health.modem.status],
      findings: [health.modem.detail, 'The radio quality needs the server.'],
      ...(health.modem.status === 'fault'
        ? {
            fix: { text: 'Check the SIM and its APN with the Cellular wizard.', target: 'cellular' as const },
          }
        : {}),
    },
    needsServer('lora', 'LoRa radio', 'the antenna count and the radio counters'),
    needsServer('position', 'Position', 'the GPS position'),
    needsServer('software', 'Software', 'the upgradable packages and the last install'),
    needsServer('backup', 'Backup', "the gateway's backups"),
    needsServer('alarms', 'Alarms', "the gateway's alarms"),
    judgeClock(triage, table),
    {
      id: 'packet-forwarder',
      label: 'Packet forwarder',
      verdict: STATUS_VERDICT[health.packetForwarder.status],
      findings: [health.packetForwarder.detail],
      ...(health.packetForwarder.status === 'fault'
        ? {
            fix: {
              text: 'Start the packet forwarder (or restart the gateway) and collect diagnostics again.',
              target: 'diagnostics' as const,
            },
          }
        : {}),
    },
  ];
  return {
    gatewayId: input.gatewayId,
    ...(input.name ? { gatewayName: input.name } : {}),
    source: 'serial-triage',
    startedAt: triage.startedAt,
    takenAt: triage.finishedAt,
    verdict: cardVerdict(items, triage.outcome === 'complete'),
    items,
  };
}

/** The clock item: the gateway's time against the laptop's, when the triage read it. */
function judgeClock(triage: TriageResult, table: AcceptanceTable): AcceptanceItem {
  const clock = triage.health.clock;
  if (!clock)
    return {
      id: 'clock',
      label: 'Clock',
      verdict: 'unknown',
      findings: ["This triage did not read the gateway's clock; collect diagnostics again."],
    };
  const skewSeconds = Math.round(Math.abs(clock.gatewayTime - clock.laptopTime) / 1000);
  const isOff = skewSeconds > table.clockSkewSeconds;
  return {
    id: 'clock',
    label: 'Clock',
    verdict: isOff ? 'no-go' : 'go',
    findings: [
      `The gateway's clock is ${skewSeconds} s ${clock.gatewayTime >= clock.laptopTime ? 'ahead of' : 'behind'} the laptop's (at most ${table.clockSkewSeconds} s allowed).`,
    ],
    ...(isOff
      ? {
          fix: {
            text: 'Give the gateway a working uplink so it sets its clock (NTP or GPS), or set it on the console with `date`, then check again.',
            target: 'connectivity' as const,
          },
        }
      : {}),
  };
}

function worse(left: ItemVerdict, right: ItemVerdict): ItemVerdict {
  const rank = (verdict: ItemVerdict) => ['go', 'unknown', 'warn', 'no-go'].indexOf(verdict);
  return rank(left) >= rank(right) ? left : right;
}
