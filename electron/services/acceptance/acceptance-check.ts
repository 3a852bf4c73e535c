import type { CommandName, CommandRequest, CommandResponse } from '../../shared/api';
import type { EnhancedEvent } from '../../shared/api/events';
import type { Clock } from '../../shared/clock';
import { formatReportDateTime } from '../../shared/report/report-time';
import {
  ACCEPTANCE_ITEMS,
  cardVerdict,
  type AcceptanceCard,
  type AcceptanceItem,
} from '../../shared/visit/acceptance-card';
import { storedMessage } from '../../shared/visit/stored-message';
import { describeError } from '../commissioning/gateway-errors';
import type { AcceptanceTable } from './acceptance-table';
import {
  judgeCellular,
  judgeLora,
  judgeUplink,
  type GatewayReadings,
  type RadioSample,
  type Reading,
} from './judge';
import { judgeAlarms, judgeBackup, judgePosition, judgeSoftware } from './judge-upkeep';

/** What the check reads through: gateway commands (the CommandService) and the gateway's recent events (the API). */
export interface AcceptanceReader {
  command<Name extends CommandName>(
    gatewayId: string,
    name: Name,
    body: CommandRequest<Name>,
    signal: AbortSignal,
  ): Promise<CommandResponse<Name>>;
  /** The gateway's alarms, faults and offline events that started at or after `sinceMs`. */
  events(gatewayId: string, sinceMs: number, signal: AbortSignal): Promise<EnhancedEvent[]>;
}

/** A gateway to check: its id, and its name and model when the caller knows them (the model sets the antennas). */
export interface AcceptanceTarget {
  gatewayId: string;
  name?: string;
  model?: string;
}

/** Where a check is: reading, then watching the LoRa counters until `windowEndsAt`. */
export type AcceptancePhase =
  | { phase: 'reading'; done: number; total: number }
  | { phase: 'observing'; windowStartedAt: number; windowEndsAt: number };

/** How a check runs. */
export interface AcceptanceCheckOptions {
  targets: readonly AcceptanceTarget[];
  table: AcceptanceTable;
  reader: AcceptanceReader;
  clock: Pick<Clock, 'now' | 'sleep'>;
  signal: AbortSignal;
  onPhase?: (phase: AcceptancePhase) => void;
  /** The name of the profile whose overrides the table holds, if any (printed on the card). */
  thresholdsProfile?: string;
  /** The laptop's time zone for the card's words (default this machine's). */
  timeZone?: string;
}

/** How far back the alarms are read: older ones still raised are a warn (judgeAlarms). */
const EVENTS_LOOKBACK_MS = 24 * 3_600_000;

/** The items an online card holds, in order. */
const ONLINE_ITEMS = ACCEPTANCE_ITEMS.filter((id) => id !== 'clock' && id !== 'packet-forwarder');

/**
 * Runs the site acceptance check on one or more gateways at once: every read of every gateway in parallel, then
 * one observation window shared by all (the LoRa counters read before and after it on the Clock), then each item
 * judged against the table. Resolves with one card per gateway, in the targets' order. When `signal` aborts, the
 * reads under way are aborted on the wire, the window ends at once, and the cards come back "not finished" with
 * what had been read judged and the rest said not finished. A read that fails makes its item unknown, with why.
 */
export async function runAcceptanceCheck(options: AcceptanceCheckOptions): Promise<AcceptanceCard[]> {
  const { targets, table, reader, clock, signal } = options;
  const startedAt = clock.now();
  const readings = targets.map((target): GatewayReadings => (target.model ? { model: target.model } : {}));
  let done = 0;
  options.onPhase?.({ phase: 'reading', done, total: targets.length });
  await Promise.all(
    targets.map(async (target, index) => {
      await readGateway(target.gatewayId, readings[index]!, { reader, table, signal, now: startedAt });
      done++;
      if (!signal.aborted) options.onPhase?.({ phase: 'reading', done, total: targets.length });
    }),
  );
  const windowSeconds = table.observationSeconds;
  let isWindowFinished = windowSeconds === 0;
  if (!signal.aborted && windowSeconds > 0) {
    const windowStartedAt = clock.now();
    options.onPhase?.({
      phase: 'observing',
      windowStartedAt,
      windowEndsAt: windowStartedAt + windowSeconds * 1000,
    });
    isWindowFinished = await clock.sleep(windowSeconds * 1000, signal).then(
      () => true,
      () => false,
    );
    if (isWindowFinished && !signal.aborted)
      await Promise.all(
        targets.map(async (target, index) => {
          const before = readings[index]!.radioBefore;
          if (!before?.ok) return;
          readings[index]!.radioAfter = await read(() =>
            readRadios(reader, target.gatewayId, before.value.length, signal),
          );
        }),
      );
    if (signal.aborted) isWindowFinished = false;
  }
  const isFinished = !signal.aborted;
  const takenAt = clock.now();
  const describeTime = (at: number) => formatReportDateTime(at, options.timeZone);
  return targets.map((target, index) => {
    const gatewayReadings = readings[index]!;
    const judged: AcceptanceItem[] = [
      judgeUplink(gatewayReadings, table),
      judgeCellular(gatewayReadings, table),
      judgeLora(gatewayReadings, table, windowSeconds, isWindowFinished),
      judgePosition(gatewayReadings, table),
      judgeSoftware(gatewayReadings),
      judgeBackup(gatewayReadings, table, takenAt, describeTime),
      judgeAlarms(gatewayReadings, table, takenAt),
    ];
    // An item nothing was read for (cancelled before its reads came back) is said not finished.
    const items = ONLINE_ITEMS.map((id) => {
      const item = judged.find((candidate) => candidate.id === id)!;
      return item.findings.length > 0
        ? item
        : {
            id,
            verdict: 'not-finished' as const,
            findings: [storedMessage('acceptance:notReadCancelled')],
          };
    });
    return {
      gatewayId: target.gatewayId,
      ...(target.name ? { gatewayName: target.name } : {}),
      source: 'server',
      startedAt,
      takenAt,
      verdict: cardVerdict(items, isFinished),
      items,
      windowSeconds,
      ...(options.thresholdsProfile ? { thresholdsProfile: options.thresholdsProfile } : {}),
    } satisfies AcceptanceCard;
  });
}

/** A read as a Reading: its answer, or the failure in words (a cancelled read is left out: undefined). */
async function read<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<Reading<T> | undefined> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (signal?.aborted) return undefined;
    return { ok: false, error: describeError(error) };
  }
}

async function readRadios(
  reader: AcceptanceReader,
  gatewayId: string,
  count: number,
  signal: AbortSignal,
): Promise<RadioSample> {
  const indexes = Array.from({ length: Math.max(1, count) }, (_, index) => index);
  return Promise.all(
    indexes.map((index) => reader.command(gatewayId, 'getRadioStatistics', { index }, signal)),
  );
}

/** Reads everything the items need from one gateway, in parallel where one read does not need another's answer. */
async function readGateway(
  gatewayId: string,
  readings: GatewayReadings,
  context: { reader: AcceptanceReader; table: AcceptanceTable; signal: AbortSignal; now: number },
): Promise<void> {
  const { reader, table, signal, now } = context;
  const command = <Name extends CommandName>(name: Name, body: CommandRequest<Name>) =>
    read(() => reader.command(gatewayId, name, body, signal), signal);
  const ping = (destination: string) => command('ping', { destination, packetsCount: table.pingPackets });
  const set =
    <Key extends keyof GatewayReadings>(key: Key) =>
    (value: GatewayReadings[Key]) => {
      if (value !== undefined) readings[key] = value;
    };
  await Promise.all([
    command('getConnectivityTypes', {}).then(set('connectivity')),
    command('getGatewayInfo', {}).then(set('info')),
    command('getPreferredPingIpAddress', {}).then(async (target) => {
      set('pingTarget')(target);
      if (target?.ok) set('pingToTarget')(await ping(target.value.ipAddr));
    }),
    ping(table.publicPingAddress).then(set('pingToPublic')),
    command('getFirewallConfiguration', {}).then(set('firewall')),
    command('getWmStatusApn', {}).then(set('simStatus')),
    command('getWmHomeNetworkBranch', {}).then(set('homeNetwork')),
    command('getWmCallStatistics', {}).then(set('callStatistics')),
    command('getWmApns', {}).then(set('apns')),
    command('getWmRfInformation', {}).then(set('rf')),
    command('getAntennasCount', {}).then(async (antennas) => {
      set('antennas')(antennas);
      const count = antennas?.ok ? antennas.value.antennasCount : 1;
      if (antennas)
        set('radioBefore')(await read(() => readRadios(reader, gatewayId, count, signal), signal));
    }),
    command('getGpsCoordinates', {}).then(set('gps')),
    command('getUpgradableSoftware', {}).then(set('upgradable')),
    command('getLastInstallUpgradeStatus', {}).then(set('lastInstall')),
    command('getBackups', {}).then(set('backups')),
    read(() => reader.events(gatewayId, now - EVENTS_LOOKBACK_MS, signal), signal).then(set('events')),
  ]);
}
