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
import { format } from '../../shared/format';
import { judgeFromPack, needsServer, type OfflinePackFacts } from './offline-pack';

const STATUS_VERDICT: Record<TriageStatus, ItemVerdict> = { ok: 'go', fault: 'no-go', unknown: 'unknown' };

/** The triage's sentences about a link that is down, has no carrier or no address ("Ethernet eth0 has no link"). */
const LINK_FAULT_KEY = /^triage:(ethernet|cellular|interface)(Down|NoLink|OnlyIpv6|NoIpv4)$/;

/** The triage's findings about the gateway's links that are not ok, and the names of those links. */
function linkFaultsOf(triage: TriageResult): { findings: StoredMessage[]; links: string[] } {
  const faults = triage.health.findings.flatMap((finding) =>
    finding.status !== 'ok' && typeof finding.text !== 'string' && LINK_FAULT_KEY.test(finding.text.key)
      ? [finding.text]
      : [],
  );
  const links = faults.flatMap((fault) =>
    typeof fault.params?.name === 'string' ? [fault.params.name] : [],
  );
  return { findings: faults, links: [...new Set(links)] };
}

/**
 * The uplink item: the triage's summary, the links it found down by name, the WAN ping it made, the routes and
 * DNS; the fix names the links to bring back (or the route, DNS and ping when no link is down). The gateway's own
 * ping check (its uplink watchdog's target) and the firewall are read through the server only: the last line
 * says so, apart from the triage's own ping.
 */
function judgeOfflineUplink(triage: TriageResult): AcceptanceItem {
  const { health } = triage;
  const faults = linkFaultsOf(triage);
  const verdict = worse(STATUS_VERDICT[health.network.status], STATUS_VERDICT[health.wan.status]);
  const fix: MessageKey =
    faults.links.length > 0 ? 'acceptance:fixOfflineUplinkLinks' : 'acceptance:fixOfflineUplinkRoute';
  return {
    id: 'uplink',
    verdict,
    findings: [
      ...[health.network.detail, ...faults.findings, health.wan.detail, ...routesAndDnsOf(triage)].filter(
        nonEmpty,
      ),
      say('acceptance:offlineUplinkNeedsServer'),
    ],
    ...(verdict === 'no-go' || verdict === 'warn'
      ? {
          fix: {
            text: say(fix, faults.links.length > 0 ? { links: faults.links.join(', ') } : undefined),
            target: 'connectivity' as const,
          },
        }
      : {}),
  };
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
 * no-go: a LoRa gateway with a wrong clock stamps packets wrongly). The backup, alarms and installed software come
 * from the site pack when it holds them ("as of" its time, judgeFromPack). Everything else says it needs the server.
 */
export function buildOfflineCard(input: {
  gatewayId: string;
  name?: string;
  triage: TriageResult;
  table: AcceptanceTable;
  now: number;
  /** What the profile's site pack holds about the gateway, if it holds it. */
  pack?: OfflinePackFacts;
  /** Writes the pack's times into the card (the app's formatter, `format.dateTime`, when absent). */
  describeTime?: (at: number) => string;
}): AcceptanceCard {
  const { triage, table } = input;
  const { health } = triage;
  const fromPack = judgeFromPack({
    pack: input.pack,
    table,
    now: input.now,
    describeTime: input.describeTime ?? ((at) => format.dateTime(at)),
  });
  const items: AcceptanceItem[] = [
    judgeOfflineUplink(triage),
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
    fromPack.software,
    fromPack.backup,
    fromPack.alarms,
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
