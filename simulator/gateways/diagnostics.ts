import { isIpv4 } from '../../electron/shared/api/common';
import { badArgument, SimulatorError } from '../failure';
import { ERROR_CODES } from '../../electron/shared/api/errors';
import { hashString, noise } from '../random';
import type { CommandContext, CommandHandlers } from './context';
import {
  activeLink,
  CELLULAR_INDEX,
  ETHERNET_INDEX,
  isCellularConnected,
  startReboot,
  type GatewayState,
} from './state';

/** Radios (and so radio-statistics indexes) every simulated gateway has. */
export const RADIO_COUNT = 2;
/** A spectral scan starts at boot and then every this often. */
export const SPECTRAL_SCAN_PERIOD_MS = 15 * 60_000;
/** How long one spectral scan takes. */
export const SPECTRAL_SCAN_DURATION_MS = 60_000;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** Destinations no link reaches: documentation ranges (RFC 5737) and the reserved `.invalid` domain. */
export function isUnreachable(destination: string): boolean {
  if (destination.toLowerCase().endsWith('.invalid')) return true;
  if (!isIpv4(destination)) return false;
  return ['192.0.2.', '198.51.100.', '203.0.113.', '0.'].some((prefix) => destination.startsWith(prefix));
}

/** Diagnostics commands: ping, reboot, antennas, keys, tunnels, identity, radio counters, spectral scan. */
export const diagnosticsCommands: CommandHandlers<
  | 'ping'
  | 'reboot'
  | 'getAntennasCount'
  | 'getPublicKey'
  | 'reverseSsh'
  | 'stopReverseSsh'
  | 'getGatewayInfo'
  | 'getRadioStatistics'
  | 'resetRadioStatisticsCounters'
  | 'getSpectralScanParams'
  | 'getSpectralScanProgress'
  | 'getSpectralScanResults'
> = {
  ping({ state, now }, { packetsCount, destination }) {
    const link = activeLink(state, now);
    if (link === null || isUnreachable(destination)) return { packets_sent: packetsCount, packets_recv: 0 };
    // A cellular path loses the odd packet; Ethernet does not.
    const lost =
      link === CELLULAR_INDEX && packetsCount >= 4 && noise(state.entity.id, Math.floor(now / 10_000)) > 0.6
        ? 1
        : 0;
    return { packets_sent: packetsCount, packets_recv: packetsCount - lost };
  },

  reboot({ state, now, timings }) {
    startReboot(state, now, timings);
    return {};
  },

  getAntennasCount({ state }) {
    return {
      antennasCount: RADIO_COUNT,
      status: !state.antennasHealthy && state.entity.index % 11 === 5 ? 'ANTENNA_1_DISCONNECTED' : 'OK',
    };
  },

  getPublicKey({ state }) {
    const key = Buffer.from(
      `fieldkit-demo-${state.entity.gatewayMac}-${hashString(state.entity.id)}`,
    ).toString('base64');
    return { publicKey: `ssh-ed25519 ${key} root@${state.entity.gatewayMac.toLowerCase()}` };
  },

  async reverseSsh({ state, tunnels }, request) {
    if (!LOOPBACK_HOSTS.has(request.sshHost)) {
      throw badArgument(
        `sshHost must be a loopback address in the simulator (127.0.0.1), not ${request.sshHost}`,
      );
    }
    if (tunnels) {
      try {
        await tunnels.openReverseTunnel(state.entity.id, request);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw new SimulatorError(408, ERROR_CODES.GENERAL, `Reverse SSH timed out: ${message}`);
        }
        throw badArgument(`Reverse SSH failed: ${message}`);
      }
    }
    state.reverseSsh = { ...request, password: '********' };
    return {};
  },

  async stopReverseSsh({ state, tunnels }) {
    await tunnels?.closeTunnels(state.entity.id);
    state.reverseSsh = null;
    return {};
  },

  getGatewayInfo({ state, now }) {
    const { entity } = state;
    const octet = (entity.index % 250) + 2;
    return {
      interfaces: {
        eth0: entity.hasEthernetLink ? `192.168.${Math.floor(entity.index / 250) % 250}.${octet}` : '',
        wwan0: isCellularConnected(state, now)
          ? `10.64.${Math.floor(entity.index / 250) % 250}.${octet}`
          : '',
        lo: '127.0.0.1',
      },
      moduleName: 'EG25-G',
      moduleProductCode: 'Quectel EG25-G',
      moduleRevision: 'EG25GGBR07A08M2G',
      moduleSerialNumber: `MPY${String(hashString(entity.id) % 1e9).padStart(9, '0')}`,
      custGatewayId: entity.gatewayMac,
    };
  },

  getRadioStatistics({ state, now }, { index }) {
    if (index >= RADIO_COUNT) throw badArgument(`index must be a radio index from 0 to ${RADIO_COUNT - 1}`);
    return radioCounters(state, now, index);
  },

  resetRadioStatisticsCounters({ state, now }) {
    state.radioCountersResetAt = now;
    return {};
  },

  getSpectralScanParams({ state }) {
    return {
      antenna: 0,
      samplePeriod: 10,
      num125kChan: 64,
      startFreq125k: state.entity.index % 2 === 0 ? 902300000 : 863100000,
      stepFreq125k: 200000,
      num500kChan: 8,
      startFreq500k: 903000000,
      stepFreq500k: 1600000,
      minRx: -140,
      maxRx: -40,
    };
  },

  getSpectralScanProgress({ state, now }) {
    const scan = spectralScanAt(state, now);
    return { status: scan.isRunning ? 'IN_PROGRESS' : 'COMPLETED', progress: scan.progressPercent };
  },

  getSpectralScanResults(context) {
    return spectralScanResults(context);
  },
};

/** The radio counters of one radio: they grow with time since boot or the last reset. */
export function radioCounters(state: GatewayState, now: number, index: number) {
  const seconds = Math.max(0, (now - state.radioCountersResetAt) / 1000);
  const rate = 1.5 + (hashString(`${state.entity.id}:${index}`) % 100) / 40;
  const rx = Math.floor(seconds * rate);
  const crcOk = Math.floor(rx * 0.93);
  const fine = Math.floor(crcOk * 0.6);
  return {
    numTxPackets: Math.floor(seconds * rate * 0.2),
    numRxPackets: rx,
    rxFineTimestamp: fine,
    rxNoFineTimestamp: crcOk - fine,
    rxCrcOkPackets: crcOk,
    rxCrcErrPackets: rx - crcOk,
    noMatch: Math.floor(crcOk * 0.05),
  };
}

/** Where the gateway's scheduled spectral scan stands: one scan at boot and every SPECTRAL_SCAN_PERIOD_MS. */
export function spectralScanAt(state: GatewayState, now: number) {
  const sinceBoot = Math.max(0, now - state.bootedAt);
  const intoPeriod = sinceBoot % SPECTRAL_SCAN_PERIOD_MS;
  const isRunning = intoPeriod < SPECTRAL_SCAN_DURATION_MS;
  const lastCompletedAt = isRunning
    ? sinceBoot < SPECTRAL_SCAN_PERIOD_MS
      ? null
      : state.bootedAt + sinceBoot - intoPeriod - SPECTRAL_SCAN_PERIOD_MS + SPECTRAL_SCAN_DURATION_MS
    : state.bootedAt + sinceBoot - intoPeriod + SPECTRAL_SCAN_DURATION_MS;
  const progressPercent = isRunning ? Math.floor((intoPeriod / SPECTRAL_SCAN_DURATION_MS) * 100) : 100;
  return { isRunning, progressPercent, lastCompletedAt };
}

function spectralScanResults({ state, now }: CommandContext) {
  const scan = spectralScanAt(state, now);
  if (scan.lastCompletedAt === null) return { status: 'IN_PROGRESS', completedAt: null, channels: [] };
  const params = diagnosticsCommands.getSpectralScanParams({ state, now } as CommandContext, {}) as {
    startFreq125k: number;
    stepFreq125k: number;
    num125kChan: number;
  };
  const channels = Array.from({ length: params.num125kChan }, (_, channel) => {
    const level = noise(`${state.entity.id}:scan:${channel}`, scan.lastCompletedAt ?? 0);
    // A busy band edge and background noise around -120 dBm.
    const busy = channel % 16 === 3 ? 25 : 0;
    return {
      frequency: params.startFreq125k + channel * params.stepFreq125k,
      rssiMax: Math.round(-112 + busy + level * 6),
      rssiAverage: Math.round(-121 + busy / 2 + level * 3),
    };
  });
  return { status: 'COMPLETED', completedAt: scan.lastCompletedAt, channels };
}

/** Which interface name a link index carries (for messages). */
export function linkName(index: number): string {
  return index === ETHERNET_INDEX ? 'Ethernet' : index === CELLULAR_INDEX ? 'Cellular' : `link ${index}`;
}
