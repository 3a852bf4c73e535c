import type { CommandResponse, ConnectivityType } from '../../shared/api';
import type { EnhancedEvent } from '../../shared/api/events';
import type { MessageKey } from '../../shared/i18n';
import type { AcceptanceItem, FixTarget, ItemVerdict } from '../../shared/visit/acceptance-card';
import { storedMessage as say, type StoredMessage } from '../../shared/visit/stored-message';
import { judgeAtMost, judgeBand, type AcceptanceTable, type Band } from './acceptance-table';
import { readPingBlock } from './loose-answers';

/** A read of the check: its answer, or why it failed in words. */
export type Reading<T> = { ok: true; value: T } | { ok: false; error: string };

/** The radio counters of each radio index, as read at one instant. */
export type RadioSample = Array<CommandResponse<'getRadioStatistics'>>;

/** Everything the check read from one gateway; a read left out was not made (the check was cancelled first). */
export interface GatewayReadings {
  model?: string;
  connectivity?: Reading<ConnectivityType[]>;
  info?: Reading<CommandResponse<'getGatewayInfo'>>;
  pingTarget?: Reading<CommandResponse<'getPreferredPingIpAddress'>>;
  pingToTarget?: Reading<CommandResponse<'ping'>>;
  pingToPublic?: Reading<CommandResponse<'ping'>>;
  firewall?: Reading<unknown>;
  simStatus?: Reading<CommandResponse<'getWmStatusApn'>>;
  homeNetwork?: Reading<CommandResponse<'getWmHomeNetworkBranch'>>;
  callStatistics?: Reading<CommandResponse<'getWmCallStatistics'>>;
  apns?: Reading<CommandResponse<'getWmApns'>>;
  rf?: Reading<CommandResponse<'getWmRfInformation'>>;
  antennas?: Reading<CommandResponse<'getAntennasCount'>>;
  radioBefore?: Reading<RadioSample>;
  radioAfter?: Reading<RadioSample>;
  gps?: Reading<unknown>;
  upgradable?: Reading<CommandResponse<'getUpgradableSoftware'>>;
  lastInstall?: Reading<CommandResponse<'getLastInstallUpgradeStatus'>>;
  backups?: Reading<CommandResponse<'getBackups'>>;
  events?: Reading<EnhancedEvent[]>;
}

/**
 * One finding of an item: its verdict, the sentence, and the fix for a warn or no-go. Sentences are messages kept
 * as data (key and values): the journal keeps them so, and the screen and the report write them in their language.
 */
export interface Finding {
  verdict: ItemVerdict;
  text: StoredMessage;
  fix?: { text: StoredMessage; target?: FixTarget };
  /** The cause of the item's other findings (a firewall that blocks ping makes the pings fail): its fix wins. */
  isCause?: boolean;
}

const RANK: Record<ItemVerdict, number> = {
  go: 0,
  'not-applicable': 0,
  'needs-server': 1,
  'not-finished': 1,
  unknown: 2,
  warn: 3,
  'no-go': 4,
};

/** The item from its findings: the worst verdict, every sentence, and the fix of the worst finding that has one. */
export function itemOf(id: AcceptanceItem['id'], findings: Finding[]): AcceptanceItem {
  const worst = findings.reduce<ItemVerdict>(
    (verdict, finding) => (RANK[finding.verdict] > RANK[verdict] ? finding.verdict : verdict),
    'go',
  );
  const worstWithFix = findings.filter((finding) => finding.verdict === worst && finding.fix);
  const fix = (worstWithFix.find((finding) => finding.isCause) ?? worstWithFix[0])?.fix;
  return {
    id,
    verdict: worst,
    findings: findings.map((finding) => finding.text),
    ...(fix && worst !== 'go' ? { fix } : {}),
  };
}

/** A read that failed, as an unknown finding saying why (`key` names what, its `{{error}}` says why). */
export const unread = (
  key: MessageKey,
  reading: { ok: false; error: string },
  params: Record<string, string> = {},
): Finding => ({
  verdict: 'unknown',
  text: say(key, { ...params, error: reading.error }),
});

/** Loss in % of a ping answer (100 when nothing was sent back or nothing sent). */
function lossPercent(answer: CommandResponse<'ping'>): number {
  if (answer.packets_sent <= 0) return 100;
  return Math.round(((answer.packets_sent - answer.packets_recv) / answer.packets_sent) * 100);
}

/** The messages of one ping: the read that failed, and the replies; `address` fills their `{{address}}`. */
interface PingWords {
  unread: MessageKey;
  replies: MessageKey;
  address: string;
}

function pingFinding(
  words: PingWords,
  reading: Reading<CommandResponse<'ping'>> | undefined,
  table: AcceptanceTable,
  fix: Finding['fix'],
): Finding | undefined {
  if (!reading) return undefined;
  if (!reading.ok) return unread(words.unread, reading, { address: words.address });
  const loss = lossPercent(reading.value);
  return {
    verdict: judgeAtMost(loss, table.pingLossPercent),
    text: say(words.replies, {
      address: words.address,
      received: reading.value.packets_recv,
      sent: reading.value.packets_sent,
      loss,
    }),
    fix,
  };
}

/** The address of a WAN link (by its type) in getGatewayInfo's interfaces; undefined when the type is unknown. */
function linkAddress(
  link: ConnectivityType,
  info: CommandResponse<'getGatewayInfo'>,
): string | null | undefined {
  const type = link.type.toLowerCase();
  const address = type.includes('eth')
    ? info.interfaces.eth0
    : type.includes('cell')
      ? info.interfaces.wwan0
      : undefined;
  if (address === undefined) return undefined;
  return address && address !== '0.0.0.0' ? address : null;
}

/** Uplink: the preferred link's address, the fallback, the two pings and the firewall's ping setting. */
export function judgeUplink(readings: GatewayReadings, table: AcceptanceTable): AcceptanceItem {
  const findings: Finding[] = [];
  const { connectivity, info } = readings;
  if (connectivity && !connectivity.ok) findings.push(unread('acceptance:unreadWanLinks', connectivity));
  if (info && !info.ok) findings.push(unread('acceptance:unreadInterfaces', info));
  if (connectivity?.ok && info?.ok) {
    const preferred = connectivity.value.find((link) => link.preferred);
    const fallback = connectivity.value.find((link) => link.fallback && link !== preferred);
    if (!preferred)
      findings.push({
        verdict: 'no-go',
        text: say('acceptance:noPreferredLink'),
        fix: {
          text: say('acceptance:fixChooseLinks'),
          target: 'connectivity',
        },
      });
    else {
      const address = linkAddress(preferred, info.value);
      if (address === undefined)
        findings.push({
          verdict: 'unknown',
          text: say('acceptance:preferredAddressUnknown', { link: preferred.type }),
        });
      else if (address === null) {
        const fallbackAddress = fallback ? linkAddress(fallback, info.value) : null;
        findings.push({
          verdict: fallbackAddress ? 'warn' : 'no-go',
          text: fallbackAddress
            ? say('acceptance:preferredNoAddressFallback', {
                link: preferred.type,
                fallback: fallback!.type,
                address: fallbackAddress,
              })
            : say('acceptance:preferredNoAddress', { link: preferred.type }),
          fix: {
            text: say('acceptance:fixPreferredLink', { link: preferred.type }),
            target: 'connectivity',
          },
        });
      } else
        findings.push({
          verdict: 'go',
          text: say('acceptance:preferredAddress', { link: preferred.type, address }),
        });
    }
    if (!fallback)
      findings.push({
        verdict: 'warn',
        text: say('acceptance:noFallbackLink'),
        fix: { text: say('acceptance:fixSetFallback'), target: 'connectivity' },
      });
    else findings.push({ verdict: 'go', text: say('acceptance:fallbackLink', { link: fallback.type }) });
  }
  const { pingTarget } = readings;
  if (pingTarget && !pingTarget.ok) findings.push(unread('acceptance:unreadPingTarget', pingTarget));
  // The ping to the target is only sent once the target was read.
  const target = pingTarget?.ok ? pingTarget.value.ipAddr : '';
  const toTarget = pingFinding(
    { unread: 'acceptance:unreadPingToTarget', replies: 'acceptance:pingToTarget', address: target },
    readings.pingToTarget,
    table,
    { text: say('acceptance:fixPingTarget'), target: 'connectivity' },
  );
  if (toTarget) findings.push(toTarget);
  const toPublic = pingFinding(
    {
      unread: 'acceptance:unreadPingToPublic',
      replies: 'acceptance:pingToPublic',
      address: table.publicPingAddress,
    },
    readings.pingToPublic,
    table,
    { text: say('acceptance:fixInternetAccess'), target: 'connectivity' },
  );
  if (toPublic) findings.push(toPublic);
  const { firewall } = readings;
  if (firewall && !firewall.ok) findings.push(unread('acceptance:unreadFirewall', firewall));
  if (firewall?.ok) {
    const block = readPingBlock(firewall.value, table.firewallMinPingsPerMinute);
    const fix = { text: say('acceptance:fixAllowPing'), target: 'firewall' as const };
    if (block === 'blocked')
      findings.push({
        verdict: 'no-go',
        text: say('acceptance:firewallBlocksPing'),
        fix,
        isCause: true,
      });
    else if (block === 'limited')
      findings.push({
        verdict: 'warn',
        text: say('acceptance:firewallLimitsPing', { limit: table.firewallMinPingsPerMinute }),
        fix,
      });
    else if (block === 'unknown')
      findings.push({
        verdict: 'unknown',
        text: say('acceptance:firewallPingUnknown'),
      });
    else findings.push({ verdict: 'go', text: say('acceptance:firewallAllowsPing') });
  }
  return itemOf('uplink', findings);
}

/** True when the connectivity list has a cellular link; undefined when it could not be read. */
export function hasCellular(readings: GatewayReadings): boolean | undefined {
  if (!readings.connectivity?.ok) return undefined;
  return readings.connectivity.value.some((link) => /cell|lte|wwan/i.test(link.type));
}

/** Cellular: SIM, attach, data call, the APN in use, and the radio against the table's bands. */
export function judgeCellular(readings: GatewayReadings, table: AcceptanceTable): AcceptanceItem {
  const fitted = hasCellular(readings);
  if (fitted === false)
    return {
      id: 'cellular',
      verdict: 'not-applicable',
      findings: [say('acceptance:noModem')],
    };
  const findings: Finding[] = [];
  const cellularFix = { text: say('acceptance:fixSimApn'), target: 'cellular' as const };
  const { simStatus, homeNetwork, callStatistics, apns, rf } = readings;
  if (simStatus && !simStatus.ok) findings.push(unread('acceptance:unreadSim', simStatus));
  if (simStatus?.ok) {
    const ready = /^ready$/i.test(simStatus.value.simStatus);
    findings.push({
      verdict: ready ? 'go' : 'no-go',
      text: ready
        ? say('acceptance:simReady')
        : say('acceptance:simNotReady', { status: simStatus.value.simStatus }),
      fix: { text: say('acceptance:fixSimSeated'), target: 'cellular' },
    });
  }
  if (homeNetwork && !homeNetwork.ok) findings.push(unread('acceptance:unreadAttach', homeNetwork));
  if (homeNetwork?.ok) {
    const { sessionState, luRejectCause } = homeNetwork.value;
    const attached = /^attached$/i.test(sessionState);
    findings.push({
      verdict: attached ? 'go' : 'no-go',
      text: attached
        ? say('acceptance:attached', {
            network: homeNetwork.value.homeNetwork,
            bearer: homeNetwork.value.dataBearer,
          })
        : luRejectCause && luRejectCause !== 'NONE'
          ? say('acceptance:notAttachedCause', { state: sessionState, cause: luRejectCause })
          : say('acceptance:notAttached', { state: sessionState }),
      fix: cellularFix,
    });
  }
  if (callStatistics && !callStatistics.ok)
    findings.push(unread('acceptance:unreadDataCall', callStatistics));
  if (callStatistics?.ok) {
    const connected = /^connected$/i.test(callStatistics.value.callStatus);
    findings.push({
      verdict: connected ? 'go' : 'no-go',
      text: connected
        ? say('acceptance:dataCallConnected')
        : say('acceptance:dataCallNotConnected', { status: callStatistics.value.callStatus }),
      fix: cellularFix,
    });
  }
  if (apns && !apns.ok) findings.push(unread('acceptance:unreadApns', apns));
  if (apns?.ok) {
    const inUse = apns.value.apns.find((apn) => apn.idx === apns.value.workingIdx);
    findings.push(
      inUse
        ? { verdict: 'go', text: say('acceptance:apnInUse', { name: inUse.name }) }
        : { verdict: 'warn', text: say('acceptance:noApnInUse'), fix: cellularFix },
    );
  }
  if (rf && !rf.ok) findings.push(unread('acceptance:unreadSignal', rf));
  if (rf?.ok) {
    const antennaFix = { text: say('acceptance:fixLteAntenna'), target: 'diagnostics' as const };
    const measures: Array<{
      value: number;
      band: Band;
      words: Record<'go' | 'warn' | 'no-go', StoredMessage>;
    }> = [
      { value: rf.value.rsrq, band: table.rsrqDb, words: measureWords('RSRQ', rf.value.rsrq) },
      { value: rf.value.sinr, band: table.sinrDb, words: measureWords('SINR', rf.value.sinr) },
      {
        value: rf.value.signalStrength,
        band: table.signalStrengthDbm,
        words: {
          go: say('acceptance:signalStrengthGood', { value: rf.value.signalStrength }),
          warn: say('acceptance:signalStrengthFair', { value: rf.value.signalStrength }),
          'no-go': say('acceptance:signalStrengthPoor', { value: rf.value.signalStrength }),
        },
      },
    ];
    for (const { value, band, words } of measures) {
      const verdict = judgeBand(value, band);
      findings.push({ verdict, text: words[verdict], fix: antennaFix });
    }
  }
  return itemOf('cellular', findings);
}

/** A measure in dB (RSRQ, SINR) judged good, fair or poor, in a sentence per judgement. */
function measureWords(measure: string, value: number): Record<'go' | 'warn' | 'no-go', StoredMessage> {
  return {
    go: say('acceptance:measureGood', { measure, value }),
    warn: say('acceptance:measureFair', { measure, value }),
    'no-go': say('acceptance:measurePoor', { measure, value }),
  };
}

function sumCounters(sample: RadioSample) {
  return sample.reduce(
    (total, radio) => ({
      rx: total.rx + radio.numRxPackets,
      crcError: total.crcError + radio.rxCrcErrPackets,
    }),
    { rx: 0, crcError: 0 },
  );
}

/** LoRa radio: antennas against the model, packets heard over the window, and the CRC-error share. */
export function judgeLora(
  readings: GatewayReadings,
  table: AcceptanceTable,
  windowSeconds: number,
  isWindowFinished: boolean,
): AcceptanceItem {
  const findings: Finding[] = [];
  const antennaFix = { text: say('acceptance:fixLoraAntenna'), target: 'diagnostics' as const };
  const { antennas, radioBefore, radioAfter } = readings;
  const expected =
    (readings.model === undefined ? undefined : table.antennasByModel[readings.model]) ??
    table.defaultAntennas;
  if (antennas && !antennas.ok) findings.push(unread('acceptance:unreadAntennas', antennas));
  if (antennas?.ok) {
    const { antennasCount, status } = antennas.value;
    const isCountRight = antennasCount >= expected;
    const isStatusOk = /^ok$/i.test(status);
    findings.push({
      verdict: isCountRight && isStatusOk ? 'go' : 'no-go',
      text: readings.model
        ? say('acceptance:antennasCountedForModel', {
            count: antennasCount,
            expected,
            model: readings.model,
            status,
          })
        : say('acceptance:antennasCounted', { count: antennasCount, expected, status }),
      fix: antennaFix,
    });
  }
  if (radioBefore && !radioBefore.ok) findings.push(unread('acceptance:unreadRadioCounters', radioBefore));
  const quietFix = { text: say('acceptance:fixQuietRadio'), target: 'diagnostics' as const };
  const crcFix = { text: say('acceptance:fixCrcErrors'), target: 'diagnostics' as const };
  const judgeCrc = (rx: number, crcError: number, key: MessageKey) => {
    if (rx <= 0) return;
    const share = Math.round((crcError / rx) * 1000) / 10;
    findings.push({
      verdict: judgeAtMost(share, table.crcErrorPercent),
      text: say(key, { share, seconds: windowSeconds }),
      fix: crcFix,
    });
  };
  if (radioBefore?.ok && windowSeconds === 0) {
    const total = sumCounters(radioBefore.value);
    findings.push({
      verdict: total.rx > 0 ? 'go' : 'no-go',
      text: say('acceptance:packetsSinceReset', { count: total.rx }),
      fix: quietFix,
    });
    judgeCrc(total.rx, total.crcError, 'acceptance:crcSinceReset');
  } else if (radioBefore?.ok && !isWindowFinished) {
    findings.push({
      verdict: 'not-finished',
      text: say('acceptance:windowNotFinished', { seconds: windowSeconds }),
    });
  } else if (radioBefore?.ok && radioAfter) {
    if (!radioAfter.ok) findings.push(unread('acceptance:unreadRadioCountersAfter', radioAfter));
    else {
      const before = sumCounters(radioBefore.value);
      const after = sumCounters(radioAfter.value);
      const heard = after.rx - before.rx;
      if (heard < 0)
        findings.push({
          verdict: 'unknown',
          text: say('acceptance:countersWentBack'),
        });
      else {
        findings.push({
          verdict: heard > 0 ? 'go' : 'no-go',
          text: say('acceptance:packetsInWindow', { count: heard, seconds: windowSeconds }),
          fix: quietFix,
        });
        judgeCrc(heard, after.crcError - before.crcError, 'acceptance:crcInWindow');
      }
    }
  }
  return itemOf('lora', findings);
}
