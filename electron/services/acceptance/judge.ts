import type { CommandResponse, ConnectivityType } from '../../shared/api';
import type { EnhancedEvent } from '../../shared/api/events';
import type { AcceptanceItem, FixTarget, ItemVerdict } from '../../shared/visit/acceptance-card';
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

/** One finding of an item: its verdict, the sentence, and the fix for a warn or no-go. */
export interface Finding {
  verdict: ItemVerdict;
  text: string;
  fix?: { text: string; target?: FixTarget };
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
export function itemOf(id: AcceptanceItem['id'], label: string, findings: Finding[]): AcceptanceItem {
  const worst = findings.reduce<ItemVerdict>(
    (verdict, finding) => (RANK[finding.verdict] > RANK[verdict] ? finding.verdict : verdict),
    'go',
  );
  const worstWithFix = findings.filter((finding) => finding.verdict === worst && finding.fix);
  const fix = (worstWithFix.find((finding) => finding.isCause) ?? worstWithFix[0])?.fix;
  return {
    id,
    label,
    verdict: worst,
    findings: findings.map((finding) => finding.text),
    ...(fix && worst !== 'go' ? { fix } : {}),
  };
}

/** A read that failed, as an unknown finding saying why. */
export const unread = (what: string, reading: { ok: false; error: string }): Finding => ({
  verdict: 'unknown',
  text: `${what} could not be read: ${reading.error}`,
});

/** Loss in % of a ping answer (100 when nothing was sent back or nothing sent). */
function lossPercent(answer: CommandResponse<'ping'>): number {
  if (answer.packets_sent <= 0) return 100;
  return Math.round(((answer.packets_sent - answer.packets_recv) / answer.packets_sent) * 100);
}

function pingFinding(
  what: string,
  reading: Reading<CommandResponse<'ping'>> | undefined,
  table: AcceptanceTable,
  fix: Finding['fix'],
): Finding | undefined {
  if (!reading) return undefined;
  if (!reading.ok) return unread(`The ping to ${what}`, reading);
  const loss = lossPercent(reading.value);
  return {
    verdict: judgeAtMost(loss, table.pingLossPercent),
    text: `Ping to ${what}: ${reading.value.packets_recv} of ${reading.value.packets_sent} replies (${loss} % loss).`,
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
  if (connectivity && !connectivity.ok) findings.push(unread('The WAN links', connectivity));
  if (info && !info.ok) findings.push(unread("The gateway's interfaces", info));
  if (connectivity?.ok && info?.ok) {
    const preferred = connectivity.value.find((link) => link.preferred);
    const fallback = connectivity.value.find((link) => link.fallback && link !== preferred);
    if (!preferred)
      findings.push({
        verdict: 'no-go',
        text: 'No WAN link is set as preferred.',
        fix: {
          text: 'Choose the preferred and fallback links with the Connectivity wizard.',
          target: 'connectivity',
        },
      });
    else {
      const address = linkAddress(preferred, info.value);
      if (address === undefined)
        findings.push({
          verdict: 'unknown',
          text: `The address of the preferred link (${preferred.type}) cannot be read.`,
        });
      else if (address === null) {
        const fallbackAddress = fallback ? linkAddress(fallback, info.value) : null;
        findings.push({
          verdict: fallbackAddress ? 'warn' : 'no-go',
          text: fallbackAddress
            ? `The preferred link (${preferred.type}) has no address; traffic goes over the fallback (${fallback!.type}, ${fallbackAddress}).`
            : `The preferred link (${preferred.type}) has no address, and no fallback carries traffic.`,
          fix: {
            text: `Check the ${preferred.type} cable and the site's network (DHCP), or make the working link preferred with the Connectivity wizard.`,
            target: 'connectivity',
          },
        });
      } else
        findings.push({
          verdict: 'go',
          text: `The preferred link (${preferred.type}) has the address ${address}.`,
        });
    }
    if (!fallback)
      findings.push({
        verdict: 'warn',
        text: 'No fallback link is set: if the preferred link fails, the gateway is cut off.',
        fix: { text: 'Set a fallback link with the Connectivity wizard.', target: 'connectivity' },
      });
    else findings.push({ verdict: 'go', text: `The fallback link is ${fallback.type}.` });
  }
  const { pingTarget } = readings;
  if (pingTarget && !pingTarget.ok) findings.push(unread("The gateway's ping-check target", pingTarget));
  const target = pingTarget?.ok ? pingTarget.value.ipAddr : undefined;
  const toTarget = pingFinding(`the ping-check target ${target ?? ''}`.trim(), readings.pingToTarget, table, {
    text: 'The gateway restarts when its ping check gets no reply: set a target that answers with the Connectivity wizard, and check the firewall.',
    target: 'connectivity',
  });
  if (toTarget) findings.push(toTarget);
  const toPublic = pingFinding(
    `the public address ${table.publicPingAddress}`,
    readings.pingToPublic,
    table,
    {
      text: "Check the site's internet access (router, firewall upstream, APN) with the Connectivity wizard.",
      target: 'connectivity',
    },
  );
  if (toPublic) findings.push(toPublic);
  const { firewall } = readings;
  if (firewall && !firewall.ok) findings.push(unread('The firewall', firewall));
  if (firewall?.ok) {
    const block = readPingBlock(firewall.value, table.firewallMinPingsPerMinute);
    const fix = {
      text: 'Allow ping in the Firewall wizard: the gateway checks its uplink by ping and restarts every few minutes when the reply is blocked.',
      target: 'firewall' as const,
    };
    if (block === 'blocked')
      findings.push({
        verdict: 'no-go',
        text: 'The firewall blocks ping, so the uplink check fails.',
        fix,
        isCause: true,
      });
    else if (block === 'limited')
      findings.push({
        verdict: 'warn',
        text: `The firewall limits ping to fewer than ${table.firewallMinPingsPerMinute} a minute; the uplink check may be dropped.`,
        fix,
      });
    else if (block === 'unknown')
      findings.push({
        verdict: 'unknown',
        text: 'The firewall answer does not say whether ping is allowed.',
      });
    else findings.push({ verdict: 'go', text: 'The firewall lets the ping check through.' });
  }
  return itemOf('uplink', 'Uplink', findings);
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
      label: 'Cellular',
      verdict: 'not-applicable',
      findings: ['No cellular modem is fitted.'],
    };
  const findings: Finding[] = [];
  const cellularFix = {
    text: 'Check the SIM and its APN with the Cellular wizard.',
    target: 'cellular' as const,
  };
  const { simStatus, homeNetwork, callStatistics, apns, rf } = readings;
  if (simStatus && !simStatus.ok) findings.push(unread('The SIM status', simStatus));
  if (simStatus?.ok) {
    const ready = /^ready$/i.test(simStatus.value.simStatus);
    findings.push({
      verdict: ready ? 'go' : 'no-go',
      text: ready ? 'The SIM is ready.' : `The SIM is not ready (${simStatus.value.simStatus}).`,
      fix: { text: 'Check that the SIM is seated and activated, and its PIN is off.', target: 'cellular' },
    });
  }
  if (homeNetwork && !homeNetwork.ok) findings.push(unread('The network attach', homeNetwork));
  if (homeNetwork?.ok) {
    const attached = /^attached$/i.test(homeNetwork.value.sessionState);
    findings.push({
      verdict: attached ? 'go' : 'no-go',
      text: attached
        ? `Attached to ${homeNetwork.value.homeNetwork} (${homeNetwork.value.dataBearer}).`
        : `Not attached (${homeNetwork.value.sessionState}${homeNetwork.value.luRejectCause && homeNetwork.value.luRejectCause !== 'NONE' ? `, ${homeNetwork.value.luRejectCause}` : ''}).`,
      fix: cellularFix,
    });
  }
  if (callStatistics && !callStatistics.ok) findings.push(unread('The data call', callStatistics));
  if (callStatistics?.ok) {
    const connected = /^connected$/i.test(callStatistics.value.callStatus);
    findings.push({
      verdict: connected ? 'go' : 'no-go',
      text: connected
        ? 'The data call is connected.'
        : `The data call is not connected (${callStatistics.value.callStatus}).`,
      fix: cellularFix,
    });
  }
  if (apns && !apns.ok) findings.push(unread('The APNs', apns));
  if (apns?.ok) {
    const inUse = apns.value.apns.find((apn) => apn.idx === apns.value.workingIdx);
    findings.push(
      inUse
        ? { verdict: 'go', text: `APN in use: ${inUse.name}.` }
        : { verdict: 'warn', text: 'No APN is in use.', fix: cellularFix },
    );
  }
  if (rf && !rf.ok) findings.push(unread('The cellular signal', rf));
  if (rf?.ok) {
    const antennaFix = {
      text: 'Move or raise the LTE antenna (or fit an external one), watch the RF meter in Diagnostics, and check again.',
      target: 'diagnostics' as const,
    };
    const words = { go: 'good', warn: 'fair', 'no-go': 'poor' } as const;
    const measures: Array<{ label: string; value: number; band: Band; unit: string }> = [
      { label: 'RSRQ', value: rf.value.rsrq, band: table.rsrqDb, unit: 'dB' },
      { label: 'SINR', value: rf.value.sinr, band: table.sinrDb, unit: 'dB' },
      {
        label: 'Signal strength',
        value: rf.value.signalStrength,
        band: table.signalStrengthDbm,
        unit: 'dBm',
      },
    ];
    for (const { label, value, band, unit } of measures) {
      const verdict = judgeBand(value, band);
      findings.push({ verdict, text: `${label} ${value} ${unit}: ${words[verdict]}.`, fix: antennaFix });
    }
  }
  return itemOf('cellular', 'Cellular', findings);
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
  const antennaFix = {
    text: 'Check the LoRa antenna cables and connectors, then run Diagnostics.',
    target: 'diagnostics' as const,
  };
  const { antennas, radioBefore, radioAfter } = readings;
  const expected =
    (readings.model === undefined ? undefined : table.antennasByModel[readings.model]) ??
    table.defaultAntennas;
  if (antennas && !antennas.ok) findings.push(unread('The antenna count', antennas));
  if (antennas?.ok) {
    const { antennasCount, status } = antennas.value;
    const isCountRight = antennasCount >= expected;
    const isStatusOk = /^ok$/i.test(status);
    findings.push({
      verdict: isCountRight && isStatusOk ? 'go' : 'no-go',
      text: `${antennasCount} antenna${antennasCount === 1 ? '' : 's'} counted, ${expected} expected${readings.model ? ` for a ${readings.model}` : ''}; status ${status}.`,
      fix: antennaFix,
    });
  }
  if (radioBefore && !radioBefore.ok) findings.push(unread('The radio counters', radioBefore));
  const quietFix = {
    text: 'Check the antenna and the packet forwarder in Diagnostics; if no LoRa device is near, have one send and check again.',
    target: 'diagnostics' as const,
  };
  const crcFix = {
    text: 'Look for interference or a damaged antenna or cable with the spectral scan in Diagnostics.',
    target: 'diagnostics' as const,
  };
  const judgeCrc = (rx: number, crcError: number, over: string) => {
    if (rx <= 0) return;
    const share = Math.round((crcError / rx) * 1000) / 10;
    findings.push({
      verdict: judgeAtMost(share, table.crcErrorPercent),
      text: `${share} % of the packets received ${over} failed their CRC.`,
      fix: crcFix,
    });
  };
  if (radioBefore?.ok && windowSeconds === 0) {
    const total = sumCounters(radioBefore.value);
    findings.push({
      verdict: total.rx > 0 ? 'go' : 'no-go',
      text: `${total.rx} packets received since the counters were last reset (no observation window).`,
      fix: quietFix,
    });
    judgeCrc(total.rx, total.crcError, 'since the counters were last reset');
  } else if (radioBefore?.ok && !isWindowFinished) {
    findings.push({
      verdict: 'not-finished',
      text: `The ${windowSeconds} s observation window was not finished.`,
    });
  } else if (radioBefore?.ok && radioAfter) {
    if (!radioAfter.ok) findings.push(unread('The radio counters after the window', radioAfter));
    else {
      const before = sumCounters(radioBefore.value);
      const after = sumCounters(radioAfter.value);
      const heard = after.rx - before.rx;
      if (heard < 0)
        findings.push({
          verdict: 'unknown',
          text: 'The radio counters went back during the window: the gateway restarted or they were reset.',
        });
      else {
        findings.push({
          verdict: heard > 0 ? 'go' : 'no-go',
          text: `The concentrator received ${heard} packet${heard === 1 ? '' : 's'} in ${windowSeconds} s.`,
          fix: quietFix,
        });
        judgeCrc(heard, after.crcError - before.crcError, `in the ${windowSeconds} s window`);
      }
    }
  }
  return itemOf('lora', 'LoRa radio', findings);
}
