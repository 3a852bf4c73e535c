import type { TriageResult, TriageStatus } from '../../shared/terminal/triage-schemas';
import type { MessageKey } from '../../shared/i18n';
import {
  cardVerdict,
  type AcceptanceCard,
  type AcceptanceItem,
  type ItemVerdict,
} from '../../shared/visit/acceptance-card';
import { storedMessage as say, type StoredMessage } from '../../shared/visit/stored-message';
import type { AcceptanceTable } from './acceptance-table';
import { clockSkewSeconds, clockSkewWords } from '../../shared/terminal/triage-clock';

const STATUS_VERDICT: Record<TriageStatus, ItemVerdict> = { ok: 'go', fault: 'no-go', unknown: 'unknown' };

/** An item an offline card cannot judge: its sentence names what it needs. */
function needsServer(id: AcceptanceItem['id'], key: MessageKey): AcceptanceItem {
  return { id, verdict: 'needs-server', findings: [say(key)] };
}

/** The default routes and DNS servers the triage read, as sentences ("none" only when the command ran). */
function routesAndDnsOf(triage: TriageResult): StoredMessage[] {
  const ran = (pattern: RegExp) =>
    triage.commands.some((command) => command.outcome === 'ok' && pattern.test(command.command));
  const routes = triage.health.defaultRoutes
    .map((route) => `${route.device}${route.via ? ` via ${route.via}` : ''}`)
    .join(', ');
  const dns = triage.health.dns.join(', ');
  return [
    routes
      ? say('acceptance:offlineRoutes', { routes })
      : say(ran(/^(ip route|route\b)/) ? 'acceptance:offlineNoRoutes' : 'acceptance:offlineRoutesNotRead'),
    dns
      ? say('acceptance:offlineDns', { dns })
      : say(ran(/resolv\.conf/) ? 'acceptance:offlineNoDns' : 'acceptance:offlineDnsNotRead'),
  ];
}

/** A triage sentence as a card's: kept as it is (a message, or an old triage's English). */
const nonEmpty = (sentence: string | StoredMessage) => typeof sentence !== 'string' || sentence.trim() !== '';

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
  const uplinkFindings = [health.network.detail, health.wan.detail, ...routesAndDnsOf(triage)].filter(
    nonEmpty,
  );
  const uplinkVerdict = worse(STATUS_VERDICT[health.network.status], STATUS_VERDICT[health.wan.status]);
  const items: AcceptanceItem[] = [
    {
      id: 'uplink',
      verdict: uplinkVerdict,
      findings: [...uplinkFindings, say('acceptance:offlinePingsNeedServer')],
      ...(uplinkVerdict === 'no-go' || uplinkVerdict === 'warn'
        ? { fix: { text: say('acceptance:fixOfflineUplink'), target: 'connectivity' as const } }
        : {}),
    },
    {
      id: 'cellular',
      verdict: STATUS_VERDICT[health.modem.status],
      findings: [health.modem.detail, say('acceptance:offlineRadioNeedsServer')],
      ...(health.modem.status === 'fault'
        ? { fix: { text: say('acceptance:fixSimApn'), target: 'cellular' as const } }
        : {}),
    },
    needsServer('lora', 'acceptance:needsServerLora'),
    needsServer('position', 'acceptance:needsServerPosition'),
    needsServer('software', 'acceptance:needsServerSoftware'),
    needsServer('backup', 'acceptance:needsServerBackup'),
    needsServer('alarms', 'acceptance:needsServerAlarms'),
    judgeClock(triage, table),
    {
      id: 'packet-forwarder',
      verdict: STATUS_VERDICT[health.packetForwarder.status],
      findings: [health.packetForwarder.detail],
      ...(health.packetForwarder.status === 'fault'
        ? { fix: { text: say('acceptance:fixStartPacketForwarder'), target: 'diagnostics' as const } }
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

/**
 * The clock item: the gateway's time against the laptop's when the triage read it, in the triage's words
 * ("7 min 12 s behind this laptop's"); more than the table's `clockSkewSeconds` apart is a no-go. A triage that ran
 * `date` but got no time from it, or never ran it (journaled before the triage read the clock), cannot judge it.
 */
function judgeClock(triage: TriageResult, table: AcceptanceTable): AcceptanceItem {
  const clock = triage.health.clock;
  if (!clock)
    return {
      id: 'clock',
      verdict: 'unknown',
      findings: [
        say(
          triage.commands.some((command) => /^date\b/.test(command.command))
            ? 'acceptance:clockUnreadable'
            : 'acceptance:clockNotRead',
        ),
      ],
    };
  const skewSeconds = clockSkewSeconds(clock);
  const isOff = Math.abs(skewSeconds) > table.clockSkewSeconds;
  return {
    id: 'clock',
    verdict: isOff ? 'no-go' : 'go',
    findings: [clockSkewWords(skewSeconds), say('acceptance:clockLimit', { limit: table.clockSkewSeconds })],
    // No wizard or runbook sets a gateway's time (the API has no clock command): the fix is the sentence alone.
    ...(isOff ? { fix: { text: say('acceptance:fixClock') } } : {}),
  };
}

function worse(left: ItemVerdict, right: ItemVerdict): ItemVerdict {
  const rank = (verdict: ItemVerdict) => ['go', 'unknown', 'warn', 'no-go'].indexOf(verdict);
  return rank(left) >= rank(right) ? left : right;
}
